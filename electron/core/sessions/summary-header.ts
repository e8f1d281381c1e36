// Reads the plain `key: value` header Codex writes at the top of each rollout summary (thread_id, rollout_path, cwd…).
import { stat } from 'node:fs/promises';
import type { SummaryHeader } from '../../../shared/provenance';
import { readRegularHead } from '../platform/regular-file';

const HEADER_BYTES = 8 * 1024;
const KEYS: Record<string, keyof SummaryHeader> = {
  thread_id: 'threadId',
  updated_at: 'updatedAt',
  rollout_path: 'rolloutPath',
  cwd: 'cwd',
  git_branch: 'gitBranch',
};

const cache = new Map<string, { size: number; mtimeMs: number; header: SummaryHeader | null }>();

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

/**
 * Reads only the first 8 KiB; cached by (path, mtime, size) since heavy roots hold thousands of summaries. Pass
 * `known` (from a listing the caller already made) to skip the stat. The caller vouches that `path` is safe to read.
 */
export async function readSummaryHeader(path: string, known?: { size: number; mtimeMs: number }): Promise<SummaryHeader | null> {
  const stats = known ?? (await stat(path));
  // Whole milliseconds, as root listings report them, so both callers share cache entries.
  const info = { size: stats.size, mtimeMs: Math.round(stats.mtimeMs) };
  const hit = cache.get(path);
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) return hit.header;
  // A regular file only, never through a symlink: a FIFO swapped in is refused, not waited on.
  const header = parseSummaryHeader((await readRegularHead(path, path, HEADER_BYTES)).toString('utf8'));
  cache.set(path, { size: info.size, mtimeMs: info.mtimeMs, header });
  return header;
}

export function clearSummaryHeaderCache(): void {
  cache.clear();
}
