// Generates realistic Codex homes (sessions, state and memory DBs, v1/v2 memory roots) for demos and tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileKind } from '../../../shared/domain';
import { StudioFailure } from '../platform/errors';
import { OTHER_CODEX_DBS, writeEmptyCodexDb, writeMemoryDb, writeStateDb } from './databases';
import { uuidV4 } from './ids';
import { planThreads, scaleShapes, type Scale } from './plan';
import { Rng } from './prng';
import { buildV1Root, buildV2Root, type RootBuild } from './roots';
import { planCitations, renderSession } from './sessions';
import type { CitationPlan, OutFile, ThreadPlan } from './types';
import { commitBaseline, gitAvailable, measureRoot, writeFiles } from './writer';

export { classifyPath as classifyMemoryFile, emptyCounts } from '../codex/workspace';
export { rolloutSummaryStem, sanitizeRolloutSlug, shortHash, uuidV7Millis } from './ids';
export { V2_SUMMARY_LIMIT } from './memory-summary';

export type DemoScale = Scale;
export type DemoVersion = 'v1' | 'v2' | 'both';

export interface GenerateOptions {
  /** Target CODEX_HOME; must be absent, empty, or free of memory roots and DBs. */
  dir: string;
  scale?: DemoScale;
  version?: DemoVersion;
  seed?: number;
  now?: Date;
  /** Record a git baseline in each root; default: true when `git` is on PATH. */
  git?: boolean;
  onProgress?: (phase: string, done: number, total: number) => void;
}

export interface RootManifest {
  path: string;
  counts: Record<FileKind, number>;
  files: number;
  bytes: number;
  gitBaseline: boolean;
}

export interface DbManifest {
  stateDb: string;
  memoryDbs: string[];
  /** Rows per memory DB (every memory DB holds the same threads). */
  stage1Rows: number;
  /** `memory_stage1` jobs in status `error`, per memory DB. */
  failedJobs: number;
  disabledThreads: number;
  pollutedThreads: number;
  archivedThreads: number;
  /** Assistant messages ending with an `<oai-mem-citation>` block. */
  citations: number;
  citationEntries: number;
}

export interface HomeManifest {
  codexHome: string;
  scale: DemoScale;
  version: DemoVersion;
  seed: number;
  generatedAt: string;
  threads: number;
  sessions: number;
  roots: { v1?: RootManifest; v2?: RootManifest };
  db: DbManifest;
}

export const MANIFEST_FILE = 'memory-studio-manifest.json';
export const DEFAULT_SEED = 20_260_302;
const CODEX_ARTIFACTS = ['memories', 'memories_v2', 'memories_1.sqlite', 'memories_v2_1.sqlite', 'state_5.sqlite'];

async function assertUsableDir(dir: string): Promise<void> {
  let entries: string[];
  try {
    const stat = await fs.promises.stat(dir);
    if (!stat.isDirectory())
      throw new StudioFailure('Invalid', `Cannot generate a demo home at ${dir}: it is not a directory.`, {
        path: dir,
        hint: 'Name a new or empty folder.',
      });
    entries = await fs.promises.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const found = CODEX_ARTIFACTS.filter((name) => entries.includes(name));
  if (found.length > 0) {
    throw new StudioFailure(
      'Conflict',
      `Refusing to generate a demo home in ${dir}: it already contains Codex memory (${found.join(', ')}); nothing was written.`,
      {
        path: dir,
        hint: 'Name a new or empty folder; a demo home never overwrites a real one.',
      },
    );
  }
}

function configToml(scale: DemoScale, version: DemoVersion): string {
  const lines = [
    '# Codex CLI configuration of a generated Memory Studio demo home.',
    'model = "gpt-5.4"',
    'model_reasoning_effort = "medium"',
    'approval_policy = "on-request"',
    'sandbox_mode = "workspace-write"',
    '',
    '[features]',
    'memories = true',
    '',
    '[memories]',
  ];
  // No version line for a v2 home: Codex's default is v2 (0.169.0 to 0.171.0). Both roots: v1 supplies context, v2 is written too.
  if (version !== 'v2') lines.push('version = "v1"');
  if (version === 'both') lines.push('dual_write = true');
  lines.push(`max_unused_days = ${scale === 'heavy' ? 180 : 60}`, 'max_rollouts_per_startup = 8', 'min_rollout_idle_hours = 8');
  if (scale === 'heavy') lines.push('max_raw_memories_for_consolidation = 4096');
  for (const p of ['invoice-svc', 'webapp', 'tiles-rs']) lines.push('', `[projects."/home/dana/src/${p}"]`, 'trust_level = "trusted"');
  return `${lines.join('\n')}\n`;
}

function prefixed(prefix: string, files: readonly OutFile[]): OutFile[] {
  return files.map((f) => ({ ...f, rel: `${prefix}/${f.rel}` }));
}

type Progress = NonNullable<GenerateOptions['onProgress']>;

/** What a run is asked for, checked before anything is written. */
interface Request {
  scale: DemoScale;
  version: DemoVersion;
  seed: number;
  now: Date;
  codexHome: string;
  wantGit: boolean;
  progress: Progress;
}

async function checkRequest(options: GenerateOptions): Promise<Request> {
  const scale: DemoScale = options.scale ?? 'small';
  const version: DemoVersion = options.version ?? 'both';
  const now = options.now ?? new Date();
  if (!(scale in scaleShapes)) throw new Error(`Unknown demo scale: ${String(scale)}`);
  if (!['v1', 'v2', 'both'].includes(version)) throw new Error(`Unknown demo version: ${String(version)}`);
  if (!Number.isFinite(now.getTime())) throw new Error('Invalid `now` date');
  const codexHome = path.resolve(options.dir);
  await assertUsableDir(codexHome);
  const gitOnPath = options.git === false ? false : await gitAvailable();
  if (options.git === true && !gitOnPath) throw new Error('git baseline requested, but `git` was not found on PATH');
  const progress = options.onProgress ?? ((): void => undefined);
  return { scale, version, seed: options.seed ?? DEFAULT_SEED, now, codexHome, wantGit: options.git ?? gitOnPath, progress };
}

/** Independent random streams, so one part's draws never shift another's. */
interface Streams {
  plan: Rng;
  session: Rng;
  citation: Rng;
  token: Rng;
}

/** The planned home in memory: threads, both roots' builds, citations, and every file to write. */
interface Rendered {
  threads: ThreadPlan[];
  selected: ThreadPlan[];
  v1: RootBuild | null;
  v2: RootBuild | null;
  citations: CitationPlan[];
  files: OutFile[];
}

function renderHome(req: Request, streams: Streams): Rendered {
  const { scale, version, codexHome, progress } = req;
  const nowMs = req.now.getTime();
  const heavy = scale === 'heavy';
  progress('plan', 0, 1);
  const threads = planThreads(streams.plan, scale, nowMs, codexHome);
  const selected = threads.filter((t) => t.stage1 === 'selected');
  progress('plan', 1, 1);

  const hasV1 = version !== 'v2';
  progress('render', 0, 2);
  const v1: RootBuild | null = hasV1 ? buildV1Root({ selected, nowMs, heavy, crlfNote: 1, workspaceDiff: false }) : null;
  // A home at rest has no phase2_workspace_diff.md: Codex writes it only for the length of a run.
  const v2: RootBuild | null =
    version !== 'v1' ? buildV2Root({ selected, nowMs, heavy, crlfNote: hasV1 ? null : 1, workspaceDiff: false }) : null;
  const context = (v1 ?? v2) as RootBuild;
  const citations: CitationPlan[] = planCitations(
    streams.citation,
    threads,
    { version: v1 ? 'v1' : 'v2', memoryTaskLines: context.memoryTaskLines, summaryFiles: context.summaryFiles },
    heavy,
  );
  const citationBy = new Map(citations.map((c) => [c.citingThreadId, c]));
  const files: OutFile[] = [{ rel: 'config.toml', data: configToml(scale, version) }];
  for (const t of threads) files.push({ rel: t.sessionRel, data: renderSession(t, streams.session, citationBy.get(t.id) ?? null) });
  if (v1) files.push(...prefixed('memories', v1.files));
  if (v2) files.push(...prefixed('memories_v2', v2.files));
  progress('render', 2, 2);
  return { threads, selected, v1, v2, citations, files };
}

/** Codex's databases as it left them; returns the memory DBs written. */
function writeDatabases(req: Request, home: Rendered, tokenRng: Rng): string[] {
  const { codexHome, progress } = req;
  const { threads, v1, v2, citations } = home;
  const nowMs = req.now.getTime();
  const nowSec = Math.floor(nowMs / 1000);
  // Usage counts go to the DB of the version that supplied context (v1 when both are written).
  const dbJobs: Array<[string, RootBuild, CitationPlan[]]> = [];
  if (v1) dbJobs.push(['memories_1.sqlite', v1, citations]);
  if (v2) dbJobs.push(['memories_v2_1.sqlite', v2, v1 ? [] : citations]);
  const memoryDbs: string[] = [];
  progress('databases', 0, dbJobs.length + 1);
  // Codex migrated its databases the first time it ran in this home: an hour before the first session.
  const firstRunSec = Math.floor(threads.reduce((m, t) => Math.min(m, t.createdMs), nowMs) / 1000) - 3600;
  writeStateDb(path.join(codexHome, 'state_5.sqlite'), threads, nowSec, firstRunSec);
  // Every start of the reference Codex creates these (and memories_1.sqlite, whatever the version).
  for (const name of OTHER_CODEX_DBS) writeEmptyCodexDb(path.join(codexHome, name), firstRunSec);
  if (!v1) writeEmptyCodexDb(path.join(codexHome, 'memories_1.sqlite'), firstRunSec);
  progress('databases', 1, dbJobs.length + 1);
  for (const [name, build, cites] of dbJobs) {
    writeMemoryDb(path.join(codexHome, name), { rows: build.rows, threads, citations: cites, tokens: () => uuidV4(tokenRng), nowSec });
    memoryDbs.push(name);
    progress('databases', memoryDbs.length + 1, dbJobs.length + 1);
  }
  return memoryDbs;
}

/** Records each root's git baseline (when wanted) and measures what was written. */
async function finishRoots(req: Request, home: Rendered): Promise<HomeManifest['roots']> {
  const { codexHome, wantGit, progress } = req;
  const roots: HomeManifest['roots'] = {};
  const rootList: Array<['v1' | 'v2', string]> = [];
  if (home.v1) rootList.push(['v1', path.join(codexHome, 'memories')]);
  if (home.v2) rootList.push(['v2', path.join(codexHome, 'memories_v2')]);
  let gitDone = 0;
  for (const [key, root] of rootList) {
    if (wantGit) {
      progress('git', gitDone, rootList.length);
      await commitBaseline(root, req.now);
      gitDone++;
      progress('git', gitDone, rootList.length);
    }
    const stats = await measureRoot(root, key);
    roots[key] = { path: root, counts: stats.counts, files: stats.files, bytes: stats.bytes, gitBaseline: wantGit };
  }
  return roots;
}

function manifestOf(req: Request, home: Rendered, roots: HomeManifest['roots'], memoryDbs: string[]): HomeManifest {
  const { threads, citations } = home;
  return {
    codexHome: req.codexHome,
    scale: req.scale,
    version: req.version,
    seed: req.seed,
    generatedAt: req.now.toISOString(),
    threads: threads.length,
    sessions: threads.length,
    roots,
    db: {
      stateDb: 'state_5.sqlite',
      memoryDbs,
      stage1Rows: home.selected.length,
      failedJobs: threads.filter((t) => t.failure !== null).length,
      disabledThreads: threads.filter((t) => t.memoryMode === 'disabled').length,
      pollutedThreads: threads.filter((t) => t.memoryMode === 'polluted').length,
      archivedThreads: threads.filter((t) => t.archived).length,
      citations: citations.length,
      citationEntries: citations.reduce((n, c) => n + c.entries.length, 0),
    },
  };
}

/** Generate a Codex home in `options.dir` and return (and write) its manifest. */
export async function generateHome(options: GenerateOptions): Promise<HomeManifest> {
  const req = await checkRequest(options);
  const rng = new Rng(req.seed);
  // Forked up front and in this order: each fork draws from the seed, so the same seed gives the same home.
  const streams: Streams = { plan: rng.fork(1), session: rng.fork(2), citation: rng.fork(3), token: rng.fork(4) };
  const home = renderHome(req, streams);
  await fs.promises.mkdir(req.codexHome, { recursive: true });
  await writeFiles(req.codexHome, home.files, 48, (done, total) => req.progress('write', done, total));
  const memoryDbs = writeDatabases(req, home, streams.token);
  const roots = await finishRoots(req, home);
  const manifest = manifestOf(req, home, roots, memoryDbs);
  await fs.promises.writeFile(path.join(req.codexHome, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  req.progress('done', 1, 1);
  return manifest;
}
