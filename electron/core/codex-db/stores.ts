// Opens the thread catalog and each version's memory tables (memory DB, or state_5.sqlite on older builds) in one place.
import { join } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { DbName, DbProblem, DbRead } from '../../../shared/health';
import { MEMORY_DB_FILES, STATE_DB_FILE } from '../codex/constants';
import { jobsView } from './jobs';
import { classifyDbError, dbProblem, openCodexDb, type OpenedDb, type OpenOptions } from './open-db';
import { outputsView } from './outputs';
import type { TableView } from './schema';
import { tableColumns } from './schema';
import { readThreadCatalog, type ThreadCatalog } from './threads';

export interface VersionStore {
  version: MemoryVersion;
  active: boolean;
  dbName: DbName;
  read: DbRead;
  /** The connection holding stage1_outputs/jobs: the memory DB, or the state DB for older builds. */
  handle: OpenedDb | null;
  tablesIn: 'memory-db' | 'state-db' | null;
  jobs: TableView | null;
  outputs: TableView | null;
}

export interface CodexStores {
  state: { read: DbRead; handle: OpenedDb | null };
  catalog: ThreadCatalog | null;
  versions: VersionStore[];
  problems: DbProblem[];
  close: () => void;
}

const versionDb: Record<MemoryVersion, DbName> = { v1: 'memories_v1', v2: 'memories_v2' };

/** The versions Codex runs the write pipeline for: both with dual_write, else the configured one. */
export function activeVersions(home: HomeInfo): MemoryVersion[] {
  const m = home.config.memories;
  return m.dualWrite ? ['v1', 'v2'] : [m.version];
}

interface Tables {
  jobs: TableView | null;
  outputs: TableView | null;
}

function findTables(handle: OpenedDb): Tables {
  const jobs = tableColumns(handle.db, 'jobs');
  const outputs = tableColumns(handle.db, 'stage1_outputs');
  return { jobs: jobs ? jobsView(jobs) : null, outputs: outputs ? outputsView(outputs) : null };
}

function memoryDbPath(home: HomeInfo, version: MemoryVersion): string {
  return home.roots.find((r) => r.version === version)?.dbPath ?? join(home.sqliteHome, MEMORY_DB_FILES[version]);
}

async function openVersion(
  home: HomeInfo,
  version: MemoryVersion,
  state: OpenedDb | null,
  options: OpenOptions,
  problems: DbProblem[],
): Promise<VersionStore> {
  const dbName = versionDb[version];
  const path = memoryDbPath(home, version);
  const active = activeVersions(home).includes(version);
  const opened = await openCodexDb(dbName, path, options);
  const store: VersionStore = {
    version,
    active,
    dbName,
    read: opened.ok ? opened.handle.read : opened.read,
    handle: null,
    tablesIn: null,
    jobs: null,
    outputs: null,
  };
  let tables: Tables = { jobs: null, outputs: null };
  if (opened.ok) {
    try {
      tables = findTables(opened.handle);
      store.handle = opened.handle;
    } catch (error) {
      problems.push(classifyDbError(dbName, path, error));
      opened.handle.close();
    }
  }
  if (store.handle && (tables.jobs || tables.outputs)) return { ...store, ...tables, tablesIn: 'memory-db' };
  // Older builds kept stage1_outputs and jobs in state_5.sqlite (v1 era only).
  const legacy = version === 'v1' && state ? findTables(state) : { jobs: null, outputs: null };
  if (legacy.jobs || legacy.outputs) {
    store.handle?.close();
    return { ...store, ...legacy, handle: state, tablesIn: 'state-db' };
  }
  if (!opened.ok && (opened.problem.kind !== 'missing' || active)) problems.push(opened.problem);
  if (store.handle) {
    problems.push(
      dbProblem(
        dbName,
        path,
        'schema',
        `${path} has neither a stage1_outputs nor a jobs table, so Codex has not set it up (or it is not a Codex memory DB).`,
      ),
    );
    store.handle.close();
    store.handle = null;
  }
  return store;
}

function missingTableProblems(store: VersionStore, problems: DbProblem[]): void {
  if (!store.handle) return;
  const where = store.tablesIn === 'state-db' ? store.handle.read.path : store.read.path;
  const db: DbName = store.tablesIn === 'state-db' ? 'state' : store.dbName;
  if (!store.jobs)
    problems.push(
      dbProblem(db, where, 'schema', `${where} has a stage1_outputs table but no jobs table; job health for ${store.version} is unknown.`),
    );
  if (!store.outputs)
    problems.push(
      dbProblem(
        db,
        where,
        'schema',
        `${where} has a jobs table but no stage1_outputs table; output counts for ${store.version} are unknown.`,
      ),
    );
}

async function openState(
  home: HomeInfo,
  options: OpenOptions,
  problems: DbProblem[],
): Promise<{ read: DbRead; handle: OpenedDb | null; catalog: ThreadCatalog | null }> {
  const path = join(home.sqliteHome, STATE_DB_FILE);
  const opened = await openCodexDb('state', path, options);
  if (!opened.ok) {
    problems.push(opened.problem);
    return { read: opened.read, handle: null, catalog: null };
  }
  try {
    const catalog = readThreadCatalog(opened.handle.db);
    if (!catalog)
      problems.push(
        dbProblem('state', path, 'schema', `${path} has no threads table, so memory modes, rollout paths and archive state are unknown.`),
      );
    return { read: opened.handle.read, handle: opened.handle, catalog };
  } catch (error) {
    problems.push(classifyDbError('state', path, error));
    return { read: opened.handle.read, handle: opened.handle, catalog: null };
  }
}

/**
 * Opens everything read-only (or, with `only`, the thread catalog and those versions' memory tables); every failure
 * lands in `problems`. Always call `close()`.
 */
export async function openCodexStores(
  home: HomeInfo,
  options: OpenOptions = {},
  only: readonly MemoryVersion[] = ['v1', 'v2'],
): Promise<CodexStores> {
  const problems: DbProblem[] = [];
  const state = await openState(home, options, problems);
  const versions: VersionStore[] = [];
  for (const version of only) {
    const store = await openVersion(home, version, state.handle, options, problems);
    missingTableProblems(store, problems);
    versions.push(store);
  }
  const close = (): void => {
    for (const v of versions) if (v.tablesIn === 'memory-db') v.handle?.close();
    state.handle?.close();
  };
  return { state: { read: state.read, handle: state.handle }, catalog: state.catalog, versions, problems, close };
}
