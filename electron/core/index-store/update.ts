// Re-reads changed files and sessions and writes their analysis: reads and analysis first, then one short transaction.
import type Database from 'better-sqlite3';
import { closeSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import { scanFile, type SessionScan } from '../sessions/session-scan';
import type { SessionFile } from '../sessions/session-files';
import { ANALYSIS_CAP_BYTES, classifyPath } from '../codex/workspace';
import { StudioFailure } from '../platform/errors';
import { openRegularFileSync, readOpenedFileSync, type OpenedFile } from '../platform/regular-file';
import { analyzeFile, type FileAnalysis } from './analyze';
import type { Stamp } from './walk';
import { bumpGeneration, removeFile, writeAnalysis, writeSession, writeSkipped } from './write';

const formatMiB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

type Read = { kind: 'gone' } | { kind: 'skip'; stamp: Stamp; error: string | null } | { kind: 'bytes'; stamp: Stamp; bytes: Buffer };

/** Opens without following a link and without blocking on a FIFO swapped in since the walk; reads regular files only. */
function readListed(root: string, realRoot: string, relPath: string, folders: Map<string, boolean>): Read {
  const abs = join(root, relPath);
  const folder = dirname(relPath);
  let inside = folders.get(folder);
  if (inside === undefined) {
    // A folder swapped for a link since the walk would lead outside the root: each folder is proven once per batch.
    try {
      inside = folder === '.' || realpathSync(join(root, folder)) === join(realRoot, folder);
    } catch {
      inside = false;
    }
    folders.set(folder, inside);
  }
  if (!inside) return { kind: 'gone' };
  let opened: OpenedFile;
  try {
    opened = openRegularFileSync(abs, relPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'gone' };
    // A symlink, FIFO, socket or device swapped in since the walk: skipped unread (the walk reports what it is).
    if (code === 'ELOOP' || error instanceof StudioFailure) return { kind: 'skip', stamp: { size: 0, mtimeMs: 0, ino: 0 }, error: null };
    return {
      kind: 'skip',
      stamp: { size: 0, mtimeMs: 0, ino: 0 },
      error: `${relPath} cannot be read (${code ?? (error as Error).message}).`,
    };
  }
  try {
    const { info } = opened;
    const stamp = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
    if (info.size > ANALYSIS_CAP_BYTES) {
      return {
        kind: 'skip',
        stamp,
        error: `${relPath} is ${formatMiB(info.size)}, more than the ${formatMiB(ANALYSIS_CAP_BYTES)} Memory Studio reads from one memory file; search it with rg.`,
      };
    }
    const tooBig = (size: number) => new StudioFailure('Unsupported', `${relPath} grew to ${formatMiB(size)} while it was read.`);
    return { kind: 'bytes', stamp, bytes: readOpenedFileSync(opened, ANALYSIS_CAP_BYTES, tooBig).bytes };
  } catch (error) {
    return { kind: 'skip', stamp: { size: 0, mtimeMs: 0, ino: 0 }, error: `${relPath} cannot be read (${(error as Error).message}).` };
  } finally {
    closeSync(opened.fd);
  }
}

export interface UpdateContext {
  cancelled(): boolean;
  /** Called after each file is analysed (progress). */
  onFile?(): void;
}

type Outcome = { path: string; read: Read; analysis?: FileAnalysis };

/**
 * Analyses `paths` of one root and writes them in one transaction. Nothing is written when cancelled part-way: the
 * next refresh finds the same files changed and does them then.
 */
export function updateFiles(
  db: Database.Database,
  version: MemoryVersion,
  root: string,
  paths: readonly string[],
  context: UpdateContext,
): number {
  const realRoot = realpathSync(root);
  const folders = new Map<string, boolean>();
  const outcomes: Outcome[] = [];
  for (const path of paths) {
    if (context.cancelled()) return 0;
    const read = readListed(root, realRoot, path, folders);
    const analysis = read.kind === 'bytes' ? analyzeFile(version, path, classifyPath(path), read.bytes) : undefined;
    outcomes.push({ path, read, analysis });
    context.onFile?.();
  }
  if (context.cancelled()) return 0;
  db.transaction(() => {
    for (const { path, read, analysis } of outcomes) {
      if (read.kind === 'gone') removeFile(db, version, path);
      else if (read.kind === 'skip') writeSkipped(db, version, path, classifyPath(path), read.stamp, read.error);
      else writeAnalysis(db, version, path, classifyPath(path), read.stamp, analysis as FileAnalysis);
    }
    bumpGeneration(db);
  }).immediate();
  return outcomes.length;
}

/** Scans changed rollouts (metadata and memory citations) and writes them in one transaction. */
export async function updateSessions(
  db: Database.Database,
  files: readonly SessionFile[],
  stamps: ReadonlyMap<string, Stamp>,
  context: UpdateContext,
): Promise<number> {
  const scans: SessionScan[] = [];
  for (const file of files) {
    if (context.cancelled()) return 0;
    const stamp = stamps.get(file.path);
    if (!stamp) continue;
    const scan = await scanFile(file, stamp.size, stamp.mtimeMs);
    // A file that could not be read is not kept: the next pass tries it again.
    if (!scan.error) scans.push(scan);
    context.onFile?.();
  }
  if (context.cancelled()) return 0;
  db.transaction(() => {
    for (const scan of scans) writeSession(db, scan);
    bumpGeneration(db);
  }).immediate();
  return scans.length;
}
