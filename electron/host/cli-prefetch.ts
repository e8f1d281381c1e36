// The walk of the home's folders started on a pool worker before a command's modules load (inspect, lint, search):
// the stat-only pass then answers from memory, and the two cores load code and read folders at the same time.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ARCHIVED_SESSIONS_DIR, BASELINE_DIRS, ROOT_DIRS, SESSIONS_DIR } from '../core/codex/constants';
import { resolveCodexHome } from '../core/codex/home';
import type { SnapshotTop, StatSnapshot } from '../core/index-store/stat-snapshot';
import { MAX_DEPTH } from '../core/sessions/session-files';
import { configureWorkerPool, runTask } from '../core/workers/pool';

export interface StatPrefetch {
  /** The home it walked; a command that resolves another one (it never should) walks for itself. */
  codexHome: string;
  /** Null when the walk failed: the command then walks itself and says whatever went wrong in its own words. */
  snapshot: Promise<StatSnapshot | null>;
}

/** Folders below a memory root are few and shallow; this bound only keeps a hostile tree from costing more than the walk. */
const ROOT_DEPTH = 32;

/** A command's pool: every core, since its main thread only waits (on the walk, a cold build, health). */
export function configureCliPool(): Promise<void> {
  return configureWorkerPool({ size: Math.max(1, availableParallelism()) });
}

/** Configures the command's pool and starts the walk. */
export async function startStatPrefetch(argv: string[], parts: 'all' | 'roots'): Promise<StatPrefetch> {
  await configureCliPool();
  const flag = parseArgs({ args: argv, options: { 'codex-home': { type: 'string' } }, strict: false, allowPositionals: true }).values[
    'codex-home'
  ];
  const { codexHome } = resolveCodexHome({ flag: typeof flag === 'string' ? flag : undefined });
  const tops: SnapshotTop[] = [
    ...Object.values(ROOT_DIRS).map((dir) => ({ path: join(codexHome, dir), maxDepth: ROOT_DEPTH, skip: BASELINE_DIRS })),
    ...(parts === 'roots' ? [] : [SESSIONS_DIR, ARCHIVED_SESSIONS_DIR]).map((dir) => ({ path: join(codexHome, dir), maxDepth: MAX_DEPTH })),
  ];
  const snapshot = runTask('stat-snapshot', { tops }).catch(() => null);
  return { codexHome, snapshot };
}
