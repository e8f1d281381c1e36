// The pipeline health report: Codex's jobs, outputs and thread catalog read without writing, problems as data.
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';
import type { CodexRelease, DbMigrations, DbName, DbProblem, HealthReport, VersionHealth } from '../../../shared/health';
import { globalClaim, readGlobalJob, readStage1Jobs } from './jobs';
import { classifyDbError, type OpenedDb, type OpenOptions } from './open-db';
import { readBlankFlags, readOutputStats, type BlankFlags } from './outputs';
import type { TableView } from './schema';
import { phase1Claims } from './phase1';
import { describeCodexRelease } from './codex-release';
import { dbMigrations, migrationRows, newestCliVersion, otherCodexDbMigrations, otherDbFiles } from './schema-version';
import { activeVersions, openCodexStores, type CodexStores, type VersionStore } from './stores';
import type { ThreadRow } from './threads';
import { threadStats } from './threads';
import { noHorizon, type Horizon } from './horizon';
import { nowSeconds, requiredTime } from './time';

/** Remembers reads that depend only on a DB file's content (keyed by its size and mtime, and its -wal's). */
export interface HealthCache {
  get(key: string, signature: string): unknown;
  set(key: string, signature: string, value: unknown): void;
}

export interface HealthOptions extends OpenOptions {
  now?: Date;
  /** Most failed/retrying stage-1 jobs listed per version (the total is always counted). */
  issuesCap?: number;
  cache?: HealthCache;
  /** Told the moments at which the report's time comparisons flip (health-memo keeps the report until the first). */
  horizon?: Horizon;
}

/** Size and mtime of a DB file and of its -wal: the same signature means the same content. */
function fileSignature(path: string): string {
  return [path, `${path}-wal`]
    .map((p) => {
      const s = statSync(p, { throwIfNoEntry: false });
      return s ? `${s.size}:${s.mtimeMs}` : '-';
    })
    .join('|');
}

/** The blank flags of a version's stage-1 rows, from the cache when its DB file has not changed. */
function blankFlags(db: Database.Database, view: TableView, path: string, cache: HealthCache | undefined): BlankFlags {
  if (!cache) return readBlankFlags(db, view);
  const signature = fileSignature(path);
  const hit = cache.get(`blanks:${path}`, signature) as Array<[string, [number | null, number | null]]> | undefined;
  if (hit) return new Map(hit);
  const flags = readBlankFlags(db, view);
  cache.set(`blanks:${path}`, signature, [...flags]);
  return flags;
}

const DEFAULT_ISSUES_CAP = 500;

function emptyVersion(store: VersionStore): VersionHealth {
  return {
    version: store.version,
    active: store.active,
    tablesIn: store.tablesIn,
    db: store.read,
    missingColumns: [...(store.jobs?.missing ?? []), ...(store.outputs?.missing ?? [])],
    stage1Jobs: null,
    globalJob: null,
    globalClaim: null,
    outputs: null,
    phase1: null,
  };
}

/** Reads one version's tables; a failure mid-read (a writer's lock, damage) becomes a problem, and what was read stays. */
function readVersion(
  store: VersionStore,
  home: HomeInfo,
  threads: Map<string, ThreadRow> | null,
  nowSec: number,
  options: HealthOptions,
  problems: DbProblem[],
): VersionHealth {
  const cap = options.issuesCap ?? DEFAULT_ISSUES_CAP;
  const horizon = options.horizon ?? noHorizon(nowSec);
  const out = emptyVersion(store);
  const handle = store.handle;
  if (!handle) return out;
  const dbName = store.tablesIn === 'state-db' ? 'state' : store.dbName;
  const attempt = (read: () => void): void => {
    try {
      read();
    } catch (error) {
      const problem = classifyDbError(dbName, handle.read.path, error);
      if (!problems.some((p) => p.path === problem.path && p.kind === problem.kind)) problems.push(problem);
    }
  };
  if (store.jobs) {
    const jobs = store.jobs;
    attempt(() => {
      out.stage1Jobs = readStage1Jobs(handle.db, jobs, threads, nowSec, cap, horizon);
      out.globalJob = readGlobalJob(handle.db, jobs, nowSec, horizon);
      out.globalClaim = globalClaim(out.globalJob);
    });
  }
  if (store.outputs) {
    const outputs = store.outputs;
    attempt(() => {
      // A snapshot's flags are as good as the file's: it was read whole and unchanged.
      out.outputs = readOutputStats(
        handle.db,
        outputs,
        threads,
        home.config.memories,
        nowSec,
        blankFlags(handle.db, outputs, handle.read.path, options.cache),
        horizon,
      );
    });
  }
  if (threads)
    attempt(
      () => (out.phase1 = phase1Claims(handle.db, store.jobs, store.outputs, threads.values(), home.config.memories, nowSec, horizon)),
    );
  return out;
}

/**
 * Which Codex wrote this home: the migration records of every opened DB and of Codex's other DB files, the newest
 * cli_version, unknown DB files, against the verified releases (codex-release.ts words it).
 */
async function readCodexRelease(stores: CodexStores, home: HomeInfo, problems: DbProblem[]): Promise<CodexRelease> {
  const migrations: DbMigrations[] = [];
  const attempt = (name: DbName, handle: OpenedDb | null): void => {
    if (!handle) return;
    try {
      migrations.push(dbMigrations(basename(handle.read.path), name, handle.read.path, migrationRows(handle.db)));
    } catch (error) {
      problems.push(classifyDbError(name, handle.read.path, error));
    }
  };
  attempt('state', stores.state.handle);
  for (const store of stores.versions) if (store.tablesIn === 'memory-db') attempt(store.dbName, store.handle);
  const read = new Set(migrations.map((m) => m.file));
  // A memory DB Memory Studio did not open (a version not in use) is still one of Codex's files: its records count.
  migrations.push(...(await otherCodexDbMigrations(home.sqliteHome, read)));
  let newestSeen: string | null = null;
  try {
    newestSeen = stores.state.handle ? newestCliVersion(stores.state.handle.db) : null;
  } catch {
    newestSeen = null; // The catalog's problems are already reported by openCodexStores.
  }
  return describeCodexRelease(migrations, newestSeen, await otherDbFiles(home.sqliteHome));
}

/**
 * Everything a health page shows about Codex's memory pipeline. Never throws for a DB problem: a missing, locked,
 * damaged or unexpected DB is listed in `problems` and the rest of the report is still filled in.
 */
export async function readPipelineHealth(home: HomeInfo, options: HealthOptions = {}): Promise<HealthReport> {
  const started = performance.now();
  const nowSec = nowSeconds(options.now);
  const stores = await openCodexStores(home, options);
  try {
    const threads = stores.catalog?.rows ?? null;
    const problems = stores.problems;
    const versions = stores.versions.map((store) => readVersion(store, home, threads, nowSec, options, problems));
    const codex = await readCodexRelease(stores, home, problems);
    return {
      kind: 'pipeline_health',
      now: requiredTime(nowSec),
      codexHome: home.codexHome,
      sqliteHome: home.sqliteHome,
      config: { featureMemories: home.config.featureMemories, memories: home.config.memories, activeVersions: activeVersions(home) },
      stateDb: stores.state.read,
      threads: threads ? threadStats(threads.values(), home.config.memories, nowSec, options.horizon) : null,
      versions,
      codex,
      problems,
      elapsedMs: Math.round((performance.now() - started) * 10) / 10,
    };
  } finally {
    stores.close();
  }
}
