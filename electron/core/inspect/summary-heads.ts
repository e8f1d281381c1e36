// Reads the head of every rollout summary (header lines and title) cheaply: thousands of small files, 8 KiB each.
import { basename, join } from 'node:path';
import type { FileEntry } from '../../../shared/domain';
import type { SummaryHeader } from '../../../shared/provenance';
import { readRegularHead } from '../platform/regular-file';
import { parseSummaryHeader } from '../sessions/summary-header';

export const HEAD_BYTES = 8 * 1024;
const CONCURRENCY = 64;

export interface SummaryHead {
  file: FileEntry;
  header: SummaryHeader | null;
  title: string | null;
}

/** The `# <title>` line after the header block, as Codex's stage-1 summary starts. */
export function titleOf(text: string): string | null {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && (lines[i] ?? '').trim() !== '') i++;
  for (; i < lines.length; i++) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (line.startsWith('# ')) return line.slice(2).trim();
    if (line.trim() !== '') return null;
  }
  return null;
}

/** Heads by absolute path, valid while size and mtime match: rollout summaries are rewritten, never edited in place by Codex. */
const headCache = new Map<string, { size: number; mtimeMs: number; header: SummaryHeader | null; title: string | null }>();
const HEAD_CACHE_LIMIT = 50_000;

async function readHead(root: string, file: FileEntry): Promise<SummaryHead> {
  const abs = join(root, file.path);
  const hit = headCache.get(abs);
  if (hit && hit.size === file.size && hit.mtimeMs === file.mtimeMs) return { file, header: hit.header, title: hit.title };
  const head = await readHeadUncached(root, file);
  if (headCache.size >= HEAD_CACHE_LIMIT) headCache.clear();
  headCache.set(abs, { size: file.size, mtimeMs: file.mtimeMs, header: head.header, title: head.title });
  return head;
}

async function readHeadUncached(root: string, file: FileEntry): Promise<SummaryHead> {
  // The listing enumerated the root without following links; a link or FIFO swapped in since then is not read.
  const head = await readRegularHead(join(root, file.path), file.path, HEAD_BYTES).catch(() => null);
  if (!head) return { file, header: null, title: null };
  const text = head.toString('utf8');
  return { file, header: parseSummaryHeader(text), title: titleOf(text) };
}

/** Heads of the given rollout summaries, in the order given. Symlinks are skipped (never followed). */
export async function readSummaryHeads(root: string, files: readonly FileEntry[]): Promise<SummaryHead[]> {
  const out: SummaryHead[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const index = next++;
      const file = files[index] as FileEntry;
      out[index] = file.symlink ? { file, header: null, title: null } : await readHead(root, file);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  return out;
}

/** The project as people name it: the last component of a cwd (Windows or POSIX). */
export function projectName(cwd: string | null): string | null {
  if (!cwd) return null;
  const trimmed = cwd.replace(/[\\/]+$/, '');
  const name = basename(trimmed.split('\\').join('/'));
  return name === '' ? trimmed : name;
}
