// The external-change snapshot's reading, run on the worker pool: a root's tracked files listed within the caps, then
// read and hashed a batch at a time. On a heavy home this was over a second of the main loop before the first answer.
import type { MemoryVersion } from '../../../shared/domain';
import { FILES, isBaselinePath } from '../codex/constants';
import { createRootReader, listMemoryRoot } from '../codex/workspace';
import { itemAt } from '../platform/indexed';
import { sha256Text } from '../review/disk-base';

/** Markdown files only: the memory itself. The workspace diff is Codex's transient scratch file, rewritten every run. */
export function tracked(relPath: string): boolean {
  return relPath.endsWith('.md') && relPath !== FILES.workspaceDiff && !isBaselinePath(relPath);
}

export interface SnapshotListInput {
  root: string;
  version: MemoryVersion;
  fileCap: number;
  totalCap: number;
}

export interface SnapshotFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface SnapshotList {
  /** Tracked files within the caps, to read. */
  wanted: SnapshotFile[];
  /** Tracked files past a cap (one file over the per-file cap, or the root over the total): not kept. */
  skipped: { path: string; size: number }[];
}

export interface SnapshotReadInput {
  root: string;
  version: MemoryVersion;
  fileCap: number;
  files: SnapshotFile[];
}

/**
 * The batch's texts as one run of UTF-8 bytes (a typed array crosses to the main thread as one copy outside V8's heap,
 * where thousands of strings cost it copying and garbage collection), each file's slice named by offsets.
 */
export interface SnapshotRead {
  /** `mtimeMs` as the read saw it: a file changed after the snapshot was asked for may hold that change already. */
  read: { path: string; sha256: string; start: number; end: number; mtimeMs: number }[];
  bytes: Uint8Array;
  failed: { path: string; message: string }[];
}

/** Files read at once inside one batch (thousands of small files: not one after another). */
const CONCURRENT_READS = 64;

/** Lists the root's tracked files and splits them by the caps (by listed size; the reads count again). */
export async function snapshotListTask(input: SnapshotListInput): Promise<SnapshotList> {
  const list = await listMemoryRoot(input.root, input.version);
  const wanted: SnapshotFile[] = [];
  const skipped: SnapshotList['skipped'] = [];
  let bytes = 0;
  for (const entry of list.files) {
    if (!tracked(entry.path) || entry.symlink) continue;
    if (entry.size > input.fileCap || bytes + entry.size > input.totalCap) skipped.push({ path: entry.path, size: entry.size });
    else {
      bytes += entry.size;
      wanted.push({ path: entry.path, size: entry.size, mtimeMs: entry.mtimeMs });
    }
  }
  return { wanted, skipped };
}

/** Reads and hashes the given files through the root's safe reader; a file that cannot be read is named with why. */
export async function snapshotReadTask(input: SnapshotReadInput): Promise<SnapshotRead> {
  const reader = createRootReader(input.root, input.version, input.fileCap, true);
  const out: Omit<SnapshotRead, 'bytes'> = { read: [], failed: [] };
  const pieces: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < input.files.length; i += CONCURRENT_READS) {
    const batch = input.files.slice(i, i + CONCURRENT_READS);
    const results = await Promise.allSettled(batch.map((entry) => reader(entry)));
    results.forEach((result, k) => {
      const path = itemAt(batch, k).path;
      if (result.status === 'rejected') return void out.failed.push({ path, message: (result.reason as Error).message });
      const bytes = Buffer.from(result.value.content, 'utf8');
      pieces.push(bytes);
      const { mtimeMs } = result.value;
      out.read.push({ path, sha256: sha256Text(result.value.content), start: offset, end: offset + bytes.length, mtimeMs });
      offset += bytes.length;
    });
  }
  return { ...out, bytes: new Uint8Array(Buffer.concat(pieces, offset)) };
}
