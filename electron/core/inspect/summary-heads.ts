// The heads of a root's rollout summaries (header lines and title) for the rollout table, the project lens and the
// doctor: thousands of small files, read through the one cached reader (codex/summary-head.ts).
import { basename, join } from 'node:path';
import type { FileEntry } from '../../../shared/domain';
import type { SummaryHeader } from '../../../shared/provenance';
import { readSummaryHead } from '../codex/summary-head';
import { mapLimit } from '../platform/map-limit';

const CONCURRENCY = 64;

export interface SummaryHead {
  file: FileEntry;
  header: SummaryHeader | null;
  title: string | null;
}

async function readHead(root: string, file: FileEntry): Promise<SummaryHead> {
  // The listing enumerated the root without following links and gave the stamp; a link or FIFO swapped in since then
  // is not read, and a file that cannot be read has no head.
  const head = await readSummaryHead(join(root, file.path), file.path, file).catch(() => null);
  return { file, header: head?.header ?? null, title: head?.title ?? null };
}

/** Heads of the given rollout summaries, in the order given. Symlinks are skipped (never followed). */
export async function readSummaryHeads(root: string, files: readonly FileEntry[]): Promise<SummaryHead[]> {
  return mapLimit(files, CONCURRENCY, async (file) => (file.symlink ? { file, header: null, title: null } : readHead(root, file)));
}

/** The project as people name it: the last component of a cwd (Windows or POSIX). */
export function projectName(cwd: string | null): string | null {
  if (!cwd) return null;
  const trimmed = cwd.replace(/[\\/]+$/, '');
  const name = basename(trimmed.split('\\').join('/'));
  return name === '' ? trimmed : name;
}
