// Records changes made outside Memory Studio (Codex rewriting memory files) as 'external' history entries, with before/after.
import { lstat, readdir } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { join, relative, sep } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { isBaselinePath } from '../codex/constants';
import { readDiskBase } from '../review/disk-base';
import { runTask } from '../runtime/pool';
import { recordExternalChangeAsync } from './entries';
import type { StudioDb } from '../studio-db';
import type { KnownContent, OwnWrites } from './own-writes';
import { tracked, type SnapshotFile } from './snapshot-read';

/** A file bigger than this is not kept in the snapshot (its "before" is unknown, so its changes are not recorded). */
export const SNAPSHOT_FILE_CAP_BYTES = 16 * 1024 * 1024;
/** The whole snapshot of one root stays below this; files past it are noted and skipped. */
export const SNAPSHOT_TOTAL_CAP_BYTES = 64 * 1024 * 1024;
/**
 * A file changed less than this long ago may be half written (a writer that truncates, then writes, as Node's
 * writeFile and Rust's fs::write do): it is read once it has been still this long, so a passing empty or partial
 * state is not recorded as the change. Bounded: a file rewritten without pause is read after SETTLE_ROUNDS tries.
 */
const SETTLE_MS = 300;
const SETTLE_ROUNDS = 10;

/**
 * What the snapshot keeps of a present file: its text as UTF-8 bytes, outside V8's heap (a heavy home's 80 MB as
 * strings made the main loop's garbage collections stall it 60-160 ms), its hash, and when it was seen.
 */
interface SeenFile {
  sha256: string;
  bytes: Buffer;
  at: number;
}

interface RootSnapshot {
  version: MemoryVersion;
  root: string;
  files: Map<string, SeenFile>;
  /** Present files whose content was not kept (too big, over the total, unreadable): their changes are not recorded. */
  unknown: Set<string>;
  bytes: number;
  /**
   * Files modified around or after the time the snapshot was asked for: what the read kept may already be a change
   * made while it was being taken, which no event will report. Compared with the history once the root is taken.
   */
  racing: string[];
}

/** A file modified this close to the snapshot's request (or later) may have changed while it was being read. */
const RACE_SLACK_MS = 2_000;

/** One pool task reads at most this many files or bytes: its answer is copied into the main thread in one piece. */
const READ_BATCH_FILES = 512;
const READ_BATCH_BYTES = 4 * 1024 * 1024;

/** The listed files in batches of at most READ_BATCH_FILES files and READ_BATCH_BYTES bytes (a bigger file alone). */
function readBatches(files: readonly SnapshotFile[]): SnapshotFile[][] {
  const batches: SnapshotFile[][] = [];
  let batch: SnapshotFile[] = [];
  let bytes = 0;
  for (const file of files) {
    if (batch.length > 0 && (batch.length >= READ_BATCH_FILES || bytes + file.size > READ_BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(file);
    bytes += file.size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

const keyOf = (root: string, relPath: string) => `${root}\0${relPath}`;

/**
 * Where the snapshot of "before" stands: `none` before the first home was looked at, `pending` while a root is being
 * read, `ready` once every root looked at is known. `settled` resolves when the snapshots asked for so far are done.
 */
export interface SnapshotState {
  state: 'none' | 'pending' | 'ready';
  settled: Promise<void>;
}

export interface ExternalHistory {
  /**
   * Snapshots each present root of `home` not yet snapshotted, in the background (on the worker pool): the first
   * answer does not wait for it. Changes seen meanwhile wait for it, as every change waits for the one before.
   */
  prime(home: HomeInfo): Promise<void>;
  snapshot(): SnapshotState;
  /** Handles one `workspace.changed`: records an entry per tracked file whose content differs from the last seen. */
  onChanged(version: MemoryVersion, paths: readonly string[]): Promise<void>;
  /** Why some files are not tracked (caps, unreadable files). */
  notes(): string[];
  /** Stops recording (the service is closing its Studio DB). */
  dispose(): void;
}

export interface ExternalHistoryOptions {
  studioDb: () => StudioDb;
  /** What this service's own Applies wrote (the coordination object's), told from Codex's by content. */
  ownWrites: OwnWrites;
  log: (line: string) => void;
  fileCapBytes?: number;
  totalCapBytes?: number;
  /** Tests only: the snapshot starts once this settles (a test holds it pending to show nothing waits for it). */
  startAfter?: Promise<unknown>;
}

/** Drops what is kept for `relPath` (the file is then absent, unless marked unknown again). */
function forget(snap: RootSnapshot, relPath: string): void {
  const old = snap.files.get(relPath);
  if (old) snap.bytes -= old.bytes.length;
  snap.files.delete(relPath);
  snap.unknown.delete(relPath);
}

/** What one history keeps of each root within its caps: a file past them is marked unknown and noted once. */
function createSnapshotStore(fileCap: number, totalCap: number, note: (line: string) => void) {
  const noted = new Set<string>();
  const skip = (snap: RootSnapshot, relPath: string, size: number): void => {
    forget(snap, relPath);
    snap.unknown.add(relPath);
    if (noted.has(keyOf(snap.root, relPath))) return;
    noted.add(keyOf(snap.root, relPath));
    note(
      `${snap.root}/${relPath} (${size} bytes) is not kept in the snapshot (caps: ${fileCap} bytes per file, ${totalCap} in all); its changes are not recorded as history.`,
    );
  };
  /** Keeps the file's bytes for `relPath` when the caps allow, else marks the file unknown. */
  const remember = (snap: RootSnapshot, relPath: string, seen: SeenFile): void => {
    forget(snap, relPath);
    const size = seen.bytes.length;
    if (size > fileCap || snap.bytes + size > totalCap) return skip(snap, relPath, size);
    snap.bytes += size;
    snap.files.set(relPath, seen);
  };

  /**
   * The root's tracked files as they are now, read and hashed on the worker pool (listing first, then batches small
   * enough that handing each back costs the main loop little). Every file counts as seen at `at`, the time the
   * snapshot was asked for: our own write noted since then is newer, whichever content the read found.
   */
  const take = async (version: MemoryVersion, root: string, at: number, signal: AbortSignal): Promise<RootSnapshot> => {
    const snap: RootSnapshot = { version, root, files: new Map(), unknown: new Set(), bytes: 0, racing: [] };
    const list = await runTask('history-snapshot-list', { root, version, fileCap, totalCap }, { signal });
    for (const skipped of list.skipped) skip(snap, skipped.path, skipped.size);
    for (const batch of readBatches(list.wanted)) {
      const result = await runTask('history-snapshot-read', { root, version, fileCap, files: batch }, { signal });
      for (const file of result.read) {
        // A view, not a copy (copies of 4 MiB a batch cost the main loop 35 ms): a batch is freed once none of its
        // files is kept, so what stays is at most the snapshot's own size again, within the caps.
        const bytes = Buffer.from(result.bytes.buffer, result.bytes.byteOffset + file.start, file.end - file.start);
        remember(snap, file.path, { sha256: file.sha256, bytes, at });
        if (file.mtimeMs >= at - RACE_SLACK_MS) snap.racing.push(file.path);
      }
      for (const failed of result.failed) {
        snap.unknown.add(failed.path);
        note(`${root}/${failed.path} could not be read for the snapshot (${failed.message}).`);
      }
    }
    return snap;
  };
  return { remember, take };
}

/** A file path as is; a folder (created, removed or renamed) as its tracked files now and as last seen. */
async function expand(snap: RootSnapshot, path: string): Promise<string[]> {
  if (path === '' || isBaselinePath(path)) return [];
  if (tracked(path)) return [path];
  const prefix = `${path}/`;
  const found = [...snap.files.keys(), ...snap.unknown].filter((k) => k.startsWith(prefix));
  const info = await lstat(join(snap.root, path)).catch(() => null);
  if (info?.isDirectory()) {
    const entries = await readdir(join(snap.root, path), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const rel = `${prefix}${relative(join(snap.root, path), join(e.parentPath, e.name)).split(sep).join('/')}`;
      if (e.isFile() && tracked(rel)) found.push(rel);
    }
  }
  return found;
}

/**
 * The content last known for the file: our own latest write when it is newer than what the snapshot saw. `arrived`
 * is when the change's event came (it may be handled much later, behind a slow snapshot): our own write is judged
 * recent against that, not against the time it is handled.
 */
function lastKnown(snap: RootSnapshot, relPath: string, ownWrites: OwnWrites, arrived: number): LastKnown | undefined {
  const seen = snap.files.get(relPath);
  const own = ownWrites.latest(snap.root, relPath, arrived);
  if (own && (!seen || own.at >= seen.at)) return { sha256: own.sha256, text: () => own.content };
  return seen && { sha256: seen.sha256, text: () => seen.bytes.toString('utf8') };
}

/** What was last known of a file: its text is decoded only when a change is recorded (our own Apply's event needs none). */
interface LastKnown {
  sha256: string | null;
  text(): string | null;
}

/** Where the newest history entry of the file ends (its content as stored, masked), or undefined without one. */
function lastRecorded(db: StudioDb, root: string, relPath: string): { sha256: string | null; content: string | null } | undefined {
  const row = db
    .stmt<[string, string], { after_sha256: string | null; after_content: string | null }>(
      'SELECT f.after_sha256, f.after_content FROM history_files f JOIN history h ON h.id = f.history_id WHERE f.rel_path = ? AND f.root = ? ORDER BY h.at DESC, h.rowid DESC LIMIT 1',
    )
    .get(relPath, root);
  return row && { sha256: row.after_sha256, content: row.after_content };
}

/** The newest history entry of the file already ends at this content (ours, from any process, or an earlier external one). */
function alreadyRecorded(db: StudioDb, root: string, relPath: string, sha256: string | null): boolean {
  const last = lastRecorded(db, root, relPath);
  return last !== undefined && last.sha256 === sha256;
}

/** Records the file's change from its last known content to `now`, unless nothing changed or the history already ends there. */
async function recordIfChanged(
  options: Pick<ExternalHistoryOptions, 'studioDb' | 'ownWrites'>,
  snap: RootSnapshot,
  relPath: string,
  now: KnownContent,
  arrived: number,
): Promise<void> {
  // A path the snapshot never saw was absent (the snapshot lists every tracked file), unless it was skipped.
  const before: LastKnown | undefined =
    lastKnown(snap, relPath, options.ownWrites, arrived) ?? (snap.unknown.has(relPath) ? undefined : { sha256: null, text: () => null });
  if (before && before.sha256 !== now.sha256 && !alreadyRecorded(options.studioDb(), snap.root, relPath, now.sha256)) {
    await recordExternalChangeAsync(options.studioDb, {
      version: snap.version,
      root: snap.root,
      relPath,
      beforeContent: before.text(),
      afterContent: now.content,
      at: now.at,
    });
  }
}

/**
 * The files the snapshot read that were modified around or after it was asked for: a change made while it was being
 * taken is already in what it kept, and no later event reports it. Each is compared with where its history ends: a
 * difference is recorded as the outside change it is; with no history to compare with (or only its hash), it is said.
 */
async function recordRacing(
  options: Pick<ExternalHistoryOptions, 'studioDb' | 'ownWrites'>,
  snap: RootSnapshot,
  note: (line: string) => void,
): Promise<void> {
  for (const relPath of snap.racing) {
    const seen = snap.files.get(relPath);
    if (!seen || options.ownWrites.latest(snap.root, relPath)?.sha256 === seen.sha256) continue; // ours
    const last = lastRecorded(options.studioDb(), snap.root, relPath);
    if (last?.sha256 === seen.sha256) continue;
    if (last === undefined || (last.sha256 !== null && last.content === null)) {
      note(`${snap.root}/${relPath} changed just before or while its snapshot was taken; that change is not in the history.`);
      continue;
    }
    await recordExternalChangeAsync(options.studioDb, {
      version: snap.version,
      root: snap.root,
      relPath,
      beforeContent: last.content,
      afterContent: seen.bytes.toString('utf8'),
    });
  }
  snap.racing = [];
}

/** Waits until the file has not been modified for SETTLE_MS (or is gone, or the history was disposed). */
async function settle(path: string, disposed: () => boolean): Promise<void> {
  for (let round = 0; round < SETTLE_ROUNDS && !disposed(); round++) {
    const info = await lstat(path).catch(() => null);
    const still = info === null ? SETTLE_MS : Date.now() - info.mtimeMs;
    if (still >= SETTLE_MS) return;
    await delay(SETTLE_MS - Math.max(0, still));
  }
}

/** Snapshots each present root of a home not yet snapshotted (after `startAfter`), until `signal` stops it. */
function rootsTaker(
  store: ReturnType<typeof createSnapshotStore>,
  snapshots: Map<string, RootSnapshot>,
  rootOf: Map<MemoryVersion, string>,
  startAfter: Promise<unknown> | undefined,
  signal: AbortSignal,
  note: (line: string) => void,
  onTaken: (snap: RootSnapshot) => Promise<void>,
) {
  return async (home: HomeInfo, at: number): Promise<void> => {
    await startAfter;
    for (const r of home.roots) {
      if (!r.exists || r.isSymlink) continue;
      rootOf.set(r.version, r.path);
      if (snapshots.has(r.path) || signal.aborted) continue;
      let snap: RootSnapshot;
      try {
        snap = await store.take(r.version, r.path, at, signal);
      } catch (error) {
        if (signal.aborted) return;
        // Said where the person reads the history's notes, once; the next look at the home (a switch, a root that
        // appears) tries again. The other root is still snapshotted.
        note(
          `Changes made outside Memory Studio to ${r.path} are not recorded for now: its snapshot could not be taken (${(error as Error).message}). Reopen the home to try again.`,
        );
        continue;
      }
      if (signal.aborted) return;
      snapshots.set(r.path, snap);
      await onTaken(snap); // a failure here (the Studio DB) is the queue's to log, as a change's would be
    }
  };
}

export function createExternalHistory(options: ExternalHistoryOptions): ExternalHistory {
  const snapshots = new Map<string, RootSnapshot>();
  const rootOf = new Map<MemoryVersion, string>();
  const notes: string[] = [];
  let queue: Promise<void> = Promise.resolve();
  let disposed = false;
  let primes = 0;
  let primed: Promise<void> | null = null;
  const stop = new AbortController();
  const note = (line: string) => {
    if (notes.length < 100) notes.push(line);
    options.log(`[external-history] ${line}`);
  };
  const store = createSnapshotStore(
    options.fileCapBytes ?? SNAPSHOT_FILE_CAP_BYTES,
    options.totalCapBytes ?? SNAPSHOT_TOTAL_CAP_BYTES,
    note,
  );
  const logFailure = (error: unknown) => {
    if (!disposed) options.log(`[external-history] ${error instanceof Error ? error.stack : String(error)}`);
  };
  const takeRoots = rootsTaker(store, snapshots, rootOf, options.startAfter, stop.signal, note, (snap) =>
    recordRacing(options, snap, note),
  );

  return {
    prime(home) {
      // Queued like the changes themselves: a change that arrives while the snapshot is being taken waits for it.
      const at = Date.now();
      primes++;
      const run = queue.then(() => takeRoots(home, at)).finally(() => primes--);
      queue = run.catch(logFailure);
      primed = queue;
      // Stopped by dispose (its pool tasks cancelled): nothing failed that anyone waits for.
      return run.catch((error: unknown) => {
        if (!disposed) throw error;
      });
    },
    snapshot: () => ({ state: primed === null ? 'none' : primes > 0 ? 'pending' : 'ready', settled: primed ?? Promise.resolve() }),
    onChanged(version, paths) {
      const arrived = Date.now();
      const run = queue.then(() => handleChange(version, paths, arrived));
      queue = run.catch(logFailure);
      return queue;
    },
    notes: () => [...notes],
    dispose: () => {
      disposed = true;
      stop.abort();
      snapshots.clear();
    },
  };

  async function handleChange(version: MemoryVersion, paths: readonly string[], arrived: number): Promise<void> {
    if (disposed) return;
    const root = rootOf.get(version);
    const snap = root === undefined ? undefined : snapshots.get(root);
    if (!snap) return; // Not primed: nothing is known about "before", so nothing can be recorded truthfully.
    const files = new Set<string>();
    for (const p of paths) for (const f of await expand(snap, p)) files.add(f);
    for (const relPath of [...files].sort()) await handleFile(snap, relPath, arrived);
  }

  async function handleFile(snap: RootSnapshot, relPath: string, arrived: number): Promise<void> {
    await settle(join(snap.root, relPath), () => disposed);
    if (disposed) return;
    let current: { content: string; sha256: string } | null;
    try {
      current = await readDiskBase(snap.root, snap.version, relPath);
    } catch (error) {
      snap.files.delete(relPath);
      snap.unknown.add(relPath);
      note(`${snap.root}/${relPath} changed but cannot be read (${(error as Error).message}); not recorded.`);
      return;
    }
    const now: KnownContent = { sha256: current?.sha256 ?? null, content: current?.content ?? null, at: Date.now() };
    await recordIfChanged(options, snap, relPath, now, arrived);
    if (current === null) forget(snap, relPath);
    else store.remember(snap, relPath, { sha256: current.sha256, bytes: Buffer.from(current.content, 'utf8'), at: now.at });
  }
}
