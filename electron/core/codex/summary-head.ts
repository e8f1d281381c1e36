// The head of a rollout summary: the plain `key: value` header Codex writes first (thread_id, updated_at, rollout_path,
// cwd, git_branch) and the `# title` after it. One reader for every caller (provenance, the rollout table, the project
// lens, the doctor, the index): the same first 8 KiB, the same parse and one bounded cache. It lives in codex/, the
// lowest area that knows Codex's files, so sessions/, inspect/ and index-store/ may all import it.
import { stat } from 'node:fs/promises';
import type { SummaryHeader } from '../../../shared/provenance';
import { readRegularHead } from '../platform/regular-file';

/** Bytes read from the top of a summary: the header is five short lines and the title one more. */
export const SUMMARY_HEAD_BYTES = 8 * 1024;

/**
 * Heads kept per thread: four roots of Codex's largest selection (4,096 summaries each), a few MiB. A root with more
 * than this is re-read on each pass, as it was when the cache was cleared at its cap.
 */
export const SUMMARY_HEAD_CACHE_LIMIT = 16_384;

const KEYS: Record<string, keyof SummaryHeader> = {
  thread_id: 'threadId',
  updated_at: 'updatedAt',
  rollout_path: 'rolloutPath',
  cwd: 'cwd',
  git_branch: 'gitBranch',
};

export interface RolloutSummaryHead {
  header: SummaryHeader | null;
  title: string | null;
}

/** Size and whole-millisecond mtime, as root listings report them. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** The header lines before the first blank line (`write_rollout_summary_for_thread`); null when there are none. */
export function parseSummaryHeader(text: string): SummaryHeader | null {
  const header: SummaryHeader = { threadId: null, updatedAt: null, rolloutPath: null, cwd: null, gitBranch: null };
  let found = false;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') break;
    const colon = line.indexOf(': ');
    const key = colon === -1 ? undefined : KEYS[line.slice(0, colon)];
    if (!key) break;
    header[key] = line.slice(colon + 2).trim();
    found = true;
  }
  return found ? header : null;
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

const headOfBytes = (head: Buffer): RolloutSummaryHead => {
  const text = head.toString('utf8');
  return { header: parseSummaryHeader(text), title: titleOf(text) };
};

/** The head of a summary whose whole text the caller has (the index): what the reader sees in its first 8 KiB. */
export function summaryHeadOf(text: string): RolloutSummaryHead {
  const bytes = Buffer.from(text, 'utf8');
  return headOfBytes(bytes.length > SUMMARY_HEAD_BYTES ? bytes.subarray(0, SUMMARY_HEAD_BYTES) : bytes);
}

/**
 * Heads by path, each valid while the file's size and mtime match (Codex rewrites a summary, never edits it in place),
 * the least recently used dropped past `limit`. Keyed by the path alone, so an edited file's new head replaces the
 * old one instead of leaving it to age out.
 */
export class SummaryHeadCache {
  private readonly entries = new Map<string, FileStamp & RolloutSummaryHead>();

  constructor(readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * The head of the summary at `path`. `known` (from a listing the caller already made) saves the stat. The read is a
   * regular file only, never through a symlink: a FIFO swapped in is refused (thrown), not waited on.
   */
  async read(path: string, label: string = path, known?: FileStamp): Promise<RolloutSummaryHead> {
    const stats = known ?? (await stat(path));
    const stamp: FileStamp = { size: stats.size, mtimeMs: Math.round(stats.mtimeMs) };
    const hit = this.entries.get(path);
    // A Map iterates in insertion order: taking an entry out and back in keeps the least recently used first.
    this.entries.delete(path);
    if (hit && hit.size === stamp.size && hit.mtimeMs === stamp.mtimeMs) {
      this.entries.set(path, hit);
      return { header: hit.header, title: hit.title };
    }
    const head = headOfBytes(await readRegularHead(path, label, SUMMARY_HEAD_BYTES));
    this.entries.set(path, { ...stamp, ...head });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(oldest);
    }
    return head;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** This thread's cache, shared by every caller. */
const heads = new SummaryHeadCache(SUMMARY_HEAD_CACHE_LIMIT);

/** `SummaryHeadCache.read` on the shared cache. */
export function readSummaryHead(path: string, label: string = path, known?: FileStamp): Promise<RolloutSummaryHead> {
  return heads.read(path, label, known);
}

export function clearSummaryHeadCache(): void {
  heads.clear();
}
