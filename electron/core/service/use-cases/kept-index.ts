// The keeper's index of its home (`memory-studio keep`, a host): when it may be answered from without the stat pass, and
// the refresh otherwise. The keeper prints; this decides.
//
// The stat pass is skipped only while all of these hold: the watch vouches for every folder and finds the four trees
// where it has them, its event count has not moved since the last refresh began (a refresh that began while the watch
// could not vouch does not count), that refresh left nothing to retry, the index file and its generation are the ones
// it left, and the home reads as it did then (config, roots, Codex's DB files). Anything else refreshes first.
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { HomeInfo } from '../../../../shared/domain';
import type { IndexStatus } from '../../../../shared/search';
import { describeResources } from '../../codex/workspace';
import { OVERFLOW_SUSPECT, watchHomeTree, type HomeWatch } from '../../codex/home-watch';
import type { IndexedHome } from '../../index-store/indexed-home';
import { IndexManager } from '../../index-store/manager';
import { indexPathFor } from '../../index-store/open-index';
import { generationOf } from '../../index-store/write';
import { nextTurn } from '../../platform/next-turn';

/** A watch that lost a folder is made again at most this often. */
const REWATCH_MS = 10_000;

export interface Keeping {
  home: HomeInfo;
  dataDir: string;
  indexPath: string;
  manager: IndexManager;
  watch: HomeWatch;
  watchedAt: number;
  /** The watch's count when the last clean refresh began, and the index file's inode it left; null: refresh first. */
  cleanAt: number | null;
  indexIno: number | null;
  /** The watch's count when the last refresh (clean or not) began: inotify may have overflowed past OVERFLOW_SUSPECT. */
  lastSeen: number;
  /** The notice last shown (a rebuild's reason is said once, not to every later client). */
  notices: { last: string | null };
  /** The watch problem last logged. */
  problemLogged: string | null;
  verbose: boolean;
  /** Where a refresh's progress goes: the command's stderr (routed to its client), or the keeper's own. */
  printer: (status: IndexStatus) => void;
  onChange: () => void;
  io: KeepingIo;
}

/** What the keeper (the host) gives: its own log, a progress printer for the command being answered, the page limit. */
export interface KeepingIo {
  /** The keeper's own lines (its stderr), never a client's. */
  log(line: string): void;
  /** A printer of a refresh's progress on the stderr of the command being answered; `notices` outlives one refresh. */
  printer(notices: { last: string | null }): (status: IndexStatus) => void;
  /** SQLite's page limit for the index (tests of the full-disk path). */
  maxPages?: number;
  /**
   * Runs `make` outside the request being answered: a watch made during a request outlives it, and its events (and
   * the refreshes they schedule) must not print to that request's closed client.
   */
  detached<T>(make: () => T): T;
}

function newManager(dataDir: string, io: KeepingIo, onStatus: (status: IndexStatus) => void): IndexManager {
  return new IndexManager({ dataDir, scanOnPool: false, log: (line) => io.log(line), onStatus, open: { maxPages: io.maxPages } });
}

export function startKeeping(home: HomeInfo, dataDir: string, verbose: boolean, onChange: () => void, io: KeepingIo): Keeping {
  const k: Keeping = {
    home,
    dataDir,
    indexPath: indexPathFor(dataDir, home.codexHome),
    // Its status goes to whichever printer the keeper's current request set (read when a status arrives).
    manager: newManager(dataDir, io, (status) => k.printer(status)),
    watch: watchHomeTree(home.codexHome, onChange),
    watchedAt: Date.now(),
    cleanAt: null,
    indexIno: null,
    lastSeen: 0,
    notices: { last: null },
    problemLogged: null,
    verbose,
    printer: () => undefined,
    onChange,
    io,
  };
  k.printer = io.printer(k.notices);
  return k;
}

export function rewatch(k: Keeping, why: string): void {
  if (k.verbose) k.io.log(`watching the home again: ${why}`);
  k.watch.dispose();
  k.watch = k.io.detached(() => watchHomeTree(k.home.codexHome, k.onChange));
  k.watchedAt = Date.now();
  k.cleanAt = null;
  k.lastSeen = 0;
  k.watch.ready.then(
    () => logProblem(k),
    () => undefined,
  );
}

/** Says once (per different problem) why the watch cannot vouch. */
export function logProblem(k: Keeping): void {
  const problem = k.watch.problem();
  if (problem && problem !== k.problemLogged)
    k.io.log(`The watch cannot vouch for this home: ${problem}; each answer starts with a stat pass.`);
  k.problemLogged = problem;
}

/** Everything of the home but where its path came from (a flag or CODEX_HOME name the same folder). */
const homeKey = (home: HomeInfo) => JSON.stringify({ ...home, source: null });

function indexIno(path: string): number | null {
  return statSync(path, { throwIfNoEntry: false })?.ino ?? null;
}

/** A file the last refresh could not open is stored with a zero stamp, a session it could not read not at all: the
 * CLI retries both on every run, so a refresh that left any is not clean. */
function leftRetries(db: Database.Database, indexed: IndexedHome): boolean {
  // A symlink is stored with a zero stamp and no error (never read); its replacement is an event in its folder.
  const zero = [...indexed.roots.keys()].some(
    (version) =>
      db
        .prepare('SELECT 1 FROM files WHERE version = ? AND size = 0 AND mtime_ms = 0 AND ino = 0 AND error IS NOT NULL LIMIT 1')
        .get(version) !== undefined,
  );
  const sessions = (db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n;
  return zero || (indexed.sessionsScanned && sessions < indexed.sessions.files.length);
}

/** The last refresh, when nothing can have changed since it began; else null (refresh first). */
function vouchedIndex(k: Keeping, home: HomeInfo, wantSessions: boolean): IndexedHome | null {
  const last = k.manager.last(home.codexHome);
  if (!last || (wantSessions && !last.sessionsScanned) || k.cleanAt === null || k.watch.changes() !== k.cleanAt || !k.watch.vouches())
    return null;
  if (!k.watch.intact() || homeKey(last.home) !== homeKey(home) || indexIno(k.indexPath) !== k.indexIno) return null;
  try {
    if (generationOf(last.db) !== last.generation) return null; // another process wrote the index: its changes first
  } catch {
    return null;
  }
  // Codex's usage counters and DB signature are read again by each command, as in a fresh CLI process, and so is
  // what the clock decides in the listing (whether Codex's 7-day pruner has made an extension resource expire).
  last.home = home;
  last.usage = undefined;
  last.answerKey = undefined;
  const nowSec = Math.floor(Date.now() / 1000);
  for (const root of last.roots.values()) describeResources(root.list.files, nowSec);
  return last;
}

/** The manager, made again when the index went off (a full disk, a rebuild by another process) or was cancelled. */
function usableManager(k: Keeping): IndexManager {
  const state = k.manager.status().state;
  if (state === 'off') {
    k.manager.dispose();
    k.manager = newManager(k.dataDir, k.io, (status) => k.printer(status));
    k.cleanAt = null;
  } else if (state === 'cancelled') k.manager.resume();
  return k.manager;
}

/** The index's connection for a command that reads only token counts (budget), or null when it is off. */
export function keptDatabase(k: Keeping, home: HomeInfo): Database.Database | null {
  return usableManager(k).database(home);
}

/** The home's index as a fresh refresh would leave it; `sessions: false` (search) needs only the roots. */
export async function freshIndex(k: Keeping, home: HomeInfo, sessions = true): Promise<IndexedHome | null> {
  // One pass of the event loop: events of changes made before this point (by a client's writer, or by the recovery
  // this command just ran) are read and counted before the count is compared.
  await nextTurn();
  await nextTurn();
  const manager = usableManager(k);
  const vouched = vouchedIndex(k, home, sessions);
  if (vouched) return vouched;
  // A watch with a problem is made again at most every REWATCH_MS (an NFS tree or the inotify limit stays a problem).
  if (k.watch.problem()) {
    if (Date.now() - k.watchedAt > REWATCH_MS) rewatch(k, k.watch.problem() as string);
  } else if (!k.watch.intact()) rewatch(k, 'a memory root or sessions folder was created, removed or replaced');
  else if (k.watch.changes() - k.lastSeen >= OVERFLOW_SUSPECT) rewatch(k, 'inotify may have dropped events');
  if (indexIno(k.indexPath) !== k.indexIno) manager.close(); // replaced by another process's rebuild: reopen it
  manager.markDirty();
  const vouching = k.watch.vouches() && k.watch.intact();
  const seen = k.watch.changes();
  k.lastSeen = seen;
  const started = performance.now();
  k.printer = k.io.printer(k.notices);
  const indexed = await manager.fresh(home, { sessions });
  const clean = indexed !== null && vouching && !leftRetries(indexed.db, indexed);
  k.cleanAt = clean ? seen : null;
  k.indexIno = indexed ? indexIno(k.indexPath) : null;
  if (k.verbose)
    k.io.log(
      `refreshed the index in ${Math.round(performance.now() - started)} ms${clean ? '' : ' (not clean: the next answer refreshes too)'}`,
    );
  return indexed;
}
