// Keeps one home's index fresh for a host (the app, the serve host, one CLI command): opening, refreshing on demand or
// after the watcher saw a change, progress, cancel, rebuilds of a damaged index, and "off" (with why) when it cannot work.
import type Database from 'better-sqlite3';
import type { HomeInfo } from '../../../shared/domain';
import type { IndexStatus } from '../../../shared/search';
import { StudioFailure } from '../platform/errors';
import type { IndexedHome } from './indexed-home';
import { classifyIndexError, indexPathFor, IndexUnavailable, openIndex, unavailableMessage, type OpenOptions } from './open-index';
import { refreshIndex } from './refresh';
import { closeThreadConnection } from './tasks';
import { indexedHome } from './indexed-home';
import { poolAvailable, runTask } from '../runtime/pool';

export interface IndexManagerOptions {
  dataDir: string;
  /** The CLI scans in its own thread (synchronous calls are fastest there); the app scans on a pool worker. */
  scanOnPool: boolean;
  onStatus?: (status: IndexStatus) => void;
  log?: (line: string) => void;
  open?: OpenOptions;
}

export interface FreshOptions {
  signal?: AbortSignal;
  /** Reuse the last refresh when it is younger than this and the watcher saw no change (default: always refresh). */
  maxAgeMs?: number;
  /** Also walk the sessions folders (default); search needs only the roots. */
  sessions?: boolean;
}

interface Current {
  codexHome: string;
  path: string;
  db: Database.Database;
  indexed: IndexedHome | null;
  at: number;
}

const PROGRESS_EVERY_MS = 100;

export class IndexManager {
  private current: Current | null = null;
  private running: Promise<IndexedHome | null> | null = null;
  private controller: AbortController | null = null;
  private dirty = true;
  private stopped = false;
  private lastEmit = 0;
  private state: IndexStatus = { state: 'idle', done: 0, total: 0, message: 'The index has not been read yet.', notice: null, path: null };

  constructor(private readonly options: IndexManagerOptions) {}

  status(): IndexStatus {
    return { ...this.state };
  }

  private set(next: Partial<IndexStatus>, force = true): void {
    this.state = { ...this.state, ...next };
    const now = Date.now();
    if (!force && now - this.lastEmit < PROGRESS_EVERY_MS) return;
    this.lastEmit = now;
    this.options.onStatus?.(this.status());
  }

  /** The watcher saw files change: the next request refreshes first. */
  markDirty(): void {
    this.dirty = true;
  }

  /** Stops a running build; what it wrote is kept, and the index stays off until `resume()`. */
  cancel(): void {
    this.controller?.abort(
      new StudioFailure('Cancelled', 'The index build was cancelled.', { hint: 'What was indexed is kept; resume it to finish.' }),
    );
  }

  /** After a cancel: lets the next request build the index again. */
  resume(): void {
    if (this.state.state === 'cancelled') this.set({ state: 'idle', message: 'The index continues at the next request.' });
    this.dirty = true;
  }

  private connect(codexHome: string): Current | null {
    if (this.current?.codexHome === codexHome) return this.current;
    this.close();
    const path = indexPathFor(this.options.dataDir, codexHome);
    try {
      const { db, notice } = openIndex(path, this.options.open);
      if (notice) this.options.log?.(notice);
      this.current = { codexHome, path, db, indexed: null, at: 0 };
      this.set({ state: 'idle', notice, path, message: notice ?? 'The index is open.' });
      return this.current;
    } catch (error) {
      this.off(path, error);
      return null;
    }
  }

  private off(path: string, error: unknown): void {
    const message =
      error instanceof IndexUnavailable ? error.message : unavailableMessage(classifyIndexError(error, path) ?? 'unwritable', path, error);
    this.close();
    this.set({ state: 'off', message, path });
    this.options.log?.(message);
  }

  /** The last refreshed index of `codexHome`, as it is (no refresh). */
  last(codexHome: string): IndexedHome | null {
    return this.current?.codexHome === codexHome ? this.current.indexed : null;
  }

  /** The index's connection without a refresh (the budget reads only its token counts), or null when it is off. */
  database(home: HomeInfo): Database.Database | null {
    if (this.stopped || this.state.state === 'off') return null;
    return this.connect(home.codexHome)?.db ?? null;
  }

  /**
   * The index of `home` after a refresh (or the last one, see `maxAgeMs`); null when the index is off or its build
   * was cancelled, and the caller reads the files directly instead. Concurrent callers share one refresh.
   */
  async fresh(home: HomeInfo, options: FreshOptions = {}): Promise<IndexedHome | null> {
    if (this.stopped || this.state.state === 'off' || this.state.state === 'cancelled') return null;
    const current = this.connect(home.codexHome);
    if (!current) return null;
    if (this.running) return this.running;
    const age = Date.now() - current.at;
    const wantSessions = options.sessions !== false;
    const reusable = current.indexed && (current.indexed.sessionsScanned || !wantSessions);
    if (reusable && !this.dirty && options.maxAgeMs !== undefined && age < options.maxAgeMs) return current.indexed;
    this.running = this.refresh(current, home, options).finally(() => (this.running = null));
    return this.running;
  }

  private async refresh(current: Current, home: HomeInfo, options: FreshOptions): Promise<IndexedHome | null> {
    const { signal } = options;
    const sessions = options.sessions !== false;
    this.dirty = false;
    const controller = new AbortController();
    this.controller = controller;
    const abort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    const roots = home.roots.filter((r) => r.exists).map((r) => ({ version: r.version, path: r.path }));
    // A batch still running on another worker after this refresh ended (failed, cancelled) must not re-announce it.
    let live = true;
    try {
      const { scan } = await refreshIndex(
        { dbPath: current.path, codexHome: home.codexHome, roots, sessions, options: this.options.open },
        {
          signal: controller.signal,
          scanOnPool: this.options.scanOnPool,
          db: current.db,
          onProgress: (done, total) =>
            live &&
            this.set({ state: 'building', done, total, message: `Indexing ${done} of ${total} files…` }, done === 0 || done === total),
        },
      );
      current.indexed = indexedHome(current.db, home, scan, sessions);
      // The app: the lint and rollout answers are worked out on a worker now, so requests only read them.
      if (this.options.scanOnPool && sessions && poolAvailable())
        await runTask('index-answers', { dbPath: current.path, home, scan, options: this.options.open }).catch((error: unknown) =>
          this.options.log?.(`[index] answers: ${String(error)}`),
        );
      current.at = Date.now();
      this.set({ state: 'ready', message: 'The index is up to date.' }, this.state.state !== 'ready');
      return current.indexed;
    } catch (error) {
      live = false;
      return this.failed(current, error, controller.signal);
    } finally {
      live = false;
      signal?.removeEventListener('abort', abort);
      if (this.controller === controller) this.controller = null;
    }
  }

  private failed(current: Current, error: unknown, signal: AbortSignal): IndexedHome | null {
    this.dirty = true;
    if (signal.aborted) {
      this.set({
        state: 'cancelled',
        message: `The index build was cancelled at ${this.state.done} of ${this.state.total} files; what was indexed is kept. Memory Studio reads the files directly until you resume it.`,
      });
      return null;
    }
    const problem = classifyIndexError(error);
    if (problem === 'corrupt') {
      // Damaged under us: start over once, with a notice; the next request rebuilds it.
      const path = current.path;
      this.close();
      closeThreadConnection(path);
      const reopened = this.connect(current.codexHome);
      if (reopened)
        this.set({ notice: `The index at ${path} was damaged (${(error as Error).message}); it is being rebuilt from your memory files.` });
      return null;
    }
    if (problem) {
      this.off(current.path, error);
      return null;
    }
    throw error;
  }

  close(): void {
    if (!this.current) return;
    const { db, path } = this.current;
    this.current = null;
    try {
      db.close();
    } catch {
      // Closing can only fail when it is already closed.
    }
    closeThreadConnection(path);
  }

  dispose(): void {
    this.stopped = true;
    this.cancel();
    this.close();
  }
}
