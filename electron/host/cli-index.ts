// The index for one CLI command: opened in the data folder, refreshed by a stat-only pass (a cold build shows progress
// on stderr and stops on Ctrl+C), or off with the reason said once, when the command then reads the files directly.
import type Database from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import type { HomeInfo, MemoryVersion } from '../../shared/domain';
import type { IndexStatus } from '../../shared/search';
import { openCommandHome } from '../core/service/use-cases/command-home';
import { commandIndexManager, commandIndexPath, type IndexedHome } from '../core/service/use-cases/command-index';
import { configureWorkerPool } from '../core/service/use-cases/runtime';
import { onStopSignals } from './stop-signals';
import { StudioFailure } from '../core/platform/errors';
import { CliUsageError, HOME_HINT } from './cli-errors';
import { cliCodexHome, cliDataDir, cliEnv, requestIo, stderrIsTTY, writeStderr } from './cli-io';

/** Ctrl+C during a cold build: main exits 130 with this message (matched by name, so main need not load this module). */
export class CliCancelled extends Error {
  override name = 'CliCancelled';
}

export interface CliIndex {
  home: HomeInfo;
  dataDir: string;
  /** Null when the index is off (full disk, unwritable folder): the command reads the files directly. */
  indexed: IndexedHome | null;
  /** The connection (also for `parts: 'none'`), or null when the index is off. */
  db: Database.Database | null;
  close(): void;
}

/** Files to index before the CLI says it is building (a warm run's few changed files stay quiet). */
const ANNOUNCE_FROM = 200;

/** Prints a build's progress and the index's notices on the command's stderr (the keeper's client's, in the keeper). */
export function progressPrinter(notices: { last: string | null } = { last: null }): (status: IndexStatus) => void {
  const tty = stderrIsTTY();
  let announced = false;
  let started = 0;
  return (status) => {
    // `notices` outlives one refresh in the keeper, whose index status (and its notice) lives as long as it does.
    if (status.notice && status.notice !== notices.last) writeStderr(`${(notices.last = status.notice)}\n`);
    if (status.state === 'off') writeStderr(`${status.message}\n`);
    if (status.state !== 'building' && status.state !== 'ready') return;
    if (status.total < ANNOUNCE_FROM) return;
    // Only a refresh that built says it is done: a kept status's total is an earlier refresh's.
    if (status.state === 'ready' && !announced) return;
    if (!announced) {
      announced = true;
      started = Date.now();
      writeStderr(
        `Indexing ${status.total} files of this Codex home (the first run; later runs re-read only what changed). Ctrl+C stops it.\n`,
      );
    }
    if (status.state === 'building' && tty) writeStderr(`\r  ${status.done}/${status.total} files   `);
    if (status.state === 'ready') {
      // The process's peak resident memory so far (its worker threads included): what the build asked of the machine.
      const peak = Math.round(process.resourceUsage().maxRSS / 1024);
      writeStderr(
        `${tty ? '\r' : ''}  indexed ${status.total} files in ${((Date.now() - started) / 1000).toFixed(1)} s (peak memory ${peak} MiB).\n`,
      );
    }
  };
}

export interface CliIndexOptions {
  /** `none`: no refresh (budget); `roots`: the memory roots only (search); `all`: the sessions too (lint, inspect). */
  parts?: 'none' | 'roots' | 'all';
  /** Called with the home and the index's path before the refresh starts (inspect starts the health read on a worker then). */
  beforeRefresh?: (home: HomeInfo, indexPath: string) => void;
}

type CliIndexValues = { 'codex-home'?: string; 'data-dir'?: string };

/** The keeper's own index of the home it watches, or null for any other home (which opens as usual). */
export type CliIndexProvider = (values: CliIndexValues, options: CliIndexOptions) => Promise<CliIndex | null>;

export async function openCliIndex(values: CliIndexValues, options: CliIndexOptions = {}): Promise<CliIndex> {
  // A command `memory-studio keep` answers takes the home's index from it, kept fresh by its watcher.
  const provider = requestIo()?.index;
  const kept = provider ? await provider(values, options) : null;
  if (kept) return kept;
  const dataDir = cliDataDir(values['data-dir']);
  // The command's main thread only waits (on a cold build, health): every core may analyse. (In the keeper, its pool
  // is already so; configuring it again would stop the workers of its own refreshes.)
  if (!requestIo()) await configureWorkerPool({ size: Math.max(1, availableParallelism()) });
  const home = await openCommandHome(cliCodexHome(values['codex-home']), dataDir, (line) => writeStderr(`${line}\n`), requireHome);
  options.beforeRefresh?.(home, commandIndexPath(dataDir, home));
  const maxPages = Number(cliEnv().MEMORY_STUDIO_INDEX_MAX_PAGES) || undefined;
  const manager = commandIndexManager(dataDir, progressPrinter(), maxPages);
  // Ctrl+C (or SIGTERM) stops a cold build at its next file, keeping what was written.
  const signals = onStopSignals(() => manager.cancel());
  try {
    if (options.parts === 'none') return { home, dataDir, indexed: null, db: manager.database(home), close: () => manager.dispose() };
    const indexed = await manager.fresh(home, { sessions: options.parts !== 'roots' });
    const status = manager.status();
    if (!indexed && status.state === 'cancelled')
      throw new CliCancelled(
        `\nStopped indexing after ${status.done} of ${status.total} files; what was indexed is kept, and the next run continues from there.`,
      );
    return { home, dataDir, indexed, db: indexed?.db ?? null, close: () => manager.dispose() };
  } catch (error) {
    manager.dispose();
    throw error;
  } finally {
    signals.dispose();
  }
}

/** The versions to report on: the one asked for, else every root present. */
export function versionsOf(home: HomeInfo, asked: MemoryVersion | undefined): MemoryVersion[] {
  requireHome(home);
  const present = home.roots.filter((r) => r.exists).map((r) => r.version);
  if (asked) {
    if (!present.includes(asked))
      throw new StudioFailure('NotFound', `${home.codexHome} has no ${asked} memory folder.`, {
        hint: `Codex writes ${asked === 'v1' ? 'memories/' : 'memories_v2/'} when memories.version selects it; leave out --version to see the folders there are.`,
      });
    return [asked];
  }
  if (present.length === 0) {
    throw new StudioFailure('NotFound', `${home.codexHome} has no memory folder (memories/ or memories_v2/).`, {
      hint: 'Codex writes one once memories are on and a session has been summarised; --codex-home picks another home.',
    });
  }
  return present;
}

/** A home that does not exist is said in one line, before an index is made for it. */
export function requireHome(home: HomeInfo): void {
  if (!home.exists) {
    throw new StudioFailure('NotFound', `${home.codexHome} does not exist.`, { hint: HOME_HINT });
  }
}

export function parseVersion(value: string | undefined): MemoryVersion | undefined {
  if (value === undefined) return undefined;
  if (value !== 'v1' && value !== 'v2') throw new CliUsageError(`--version must be v1 or v2, not "${value}".`);
  return value;
}
