// Consolidation runs: select, stage, engine, validate, diff under Codex's lease, cancellable in every phase.
import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import type { EngineName, EngineSettings, RunStatus, Validation } from '../../../shared/consolidate';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { FILES } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { rejectProposal } from '../review';
import { poolAvailable, runTask } from '../runtime/pool';
import type { TaskEvent } from '../runtime/task-types';
import type { Coordination } from '../service/coordination';
import type { StudioDb } from '../studio-db';
import { diffSnapshots, snapshotStaging, type SnapshotDiff } from './engines/staging-snapshot';
import { checkModelName } from './engine-settings';
import { settleHiddenSecrets } from './hidden-secrets';
import { REVIEW_HOLD_MS, holdLease, type LeaseHold } from './lease-hold';
import { type EngineStepOptions, runEngineStep } from './run-engine';
import { RunTracker } from './run-status';
import { secretErrors, secretPlaces, secretRefusal } from './secret-gate';
import { selectAndStage } from './off-thread-steps';
import type { StageResult } from './types';
import { validateStagedOffThread } from './validate-off-thread';
import { claimStagingRun, removeStagingDir, stagingRunDir, sweepStaging } from './staging-runs';

/** Paths the sync or the engine touched, plus the artifacts themselves (always compared, whatever their mtime says). */
function touchedPaths(staged: StageResult, engine: SnapshotDiff): Set<string> {
  return new Set([
    ...staged.synced.added,
    ...staged.synced.removed,
    ...staged.synced.rewritten,
    ...engine.written,
    ...engine.removed,
    ...engine.newSymlinks,
    ...engine.newOther,
    FILES.summary,
    FILES.memory,
    FILES.rawMemories,
  ]);
}

export interface RunManagerOptions {
  dataDir: string;
  home: () => Promise<HomeInfo>;
  studioDb: () => StudioDb;
  emit: (status: RunStatus) => void;
  settings: () => Promise<EngineSettings>;
  engineOptions: Omit<EngineStepOptions, 'settings'>;
  /** Keep Codex's lease while the proposal waits for review (the app); the CLI releases at once. */
  holdForReview: boolean;
  /** The service's: the run lends its lease to Apply and hears when its proposal is applied or rejected. */
  coordination: Pick<Coordination, 'leases' | 'settled'>;
  now?: () => number;
}

interface Active {
  tracker: RunTracker;
  controller: AbortController;
  done: Promise<void>;
  lease: LeaseHold | null;
}

export interface RunManager {
  start(version: MemoryVersion, engine?: EngineName, model?: string): Promise<RunStatus>;
  /** Resolves when the run has ended (tests, the CLI). */
  settled(id: string): Promise<RunStatus>;
  status(id: string): RunStatus;
  list(): RunStatus[];
  cancel(id: string): Promise<RunStatus>;
  dispose(): Promise<void>;
}

const CANCELLED = 'Cancelled; your memory files were not touched and Codex\u2019s lock is as it was.';

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === 'AbortError');
}

/** What a manager's runs share: its options and clock, its runs, and the runs whose lease is held for a proposal's review. */
interface RunContext {
  readonly options: RunManagerOptions;
  readonly now: () => number;
  readonly runs: Map<string, Active>;
  readonly byProposal: Map<string, Active>;
}

/** Where one run reads and works: the live memory folder and its copy in staging. */
interface RunPlan {
  readonly version: MemoryVersion;
  readonly liveRoot: string;
  readonly stagingDir: string;
}

async function releaseRunLease(run: Active, changed: boolean, note: string): Promise<void> {
  if (!run.lease) return;
  const lease = run.lease;
  run.lease = null;
  await lease.release(changed).catch(() => undefined);
  run.tracker.status.lease = { held: false, leaseUntil: null, note };
  run.tracker.progress(run.tracker.status.message, undefined, true);
}

const failedChecks = (validation: Validation) => validation.diagnostics.filter((d) => d.severity === 'error').length;

/** The validate phase's line: passed, or how many checks failed, naming where the result holds a secret. */
function validationSummary(validation: Validation): string {
  if (validation.ok) return 'The result passes Codex\u2019s checks.';
  const secrets = secretErrors(validation.diagnostics);
  if (secrets.length > 0)
    return `The result fails ${failedChecks(validation)} check(s). It holds ${secrets.length} secret(s) (${secretPlaces(secrets)}), so it is not proposed: redact the inputs they came from (the preview marks them), then run again.`;
  return `The result fails ${failedChecks(validation)} check(s); it cannot be applied until fixed (edit it in the review).`;
}

/** Selects the inputs as Codex does and copies the memory folder into staging. */
async function stageStep(ctx: RunContext, run: Active, home: HomeInfo, plan: RunPlan): Promise<StageResult> {
  const { tracker, controller } = run;
  const signal = controller.signal;
  tracker.begin('select', 'Selecting inputs as Codex does…');
  tracker.status.stagingDir = plan.stagingDir;
  // Only the builtin engine (our own code, which writes two artifacts by name) may share the summaries' inodes.
  const linkRolloutSummaries = tracker.status.engine === 'builtin' && !ctx.options.engineOptions.engines?.builtin;
  const onSelected = (detail: string, notes: readonly string[]) => {
    for (const note of notes) tracker.log(note);
    tracker.end('select', detail);
    tracker.begin('stage', 'Copying the memory folder into staging…');
  };
  const progress = (message: string, fraction?: number) => tracker.progress(message, fraction);
  const { version, liveRoot, stagingDir } = plan;
  const input = { home, version, nowSec: Math.floor(ctx.now() / 1000), liveRoot, stagingDir, linkRolloutSummaries };
  const onEvent = (e: TaskEvent) => {
    if (e.type === 'selected') onSelected(e.detail, e.notes);
    else if (e.type === 'progress') progress(e.message, e.fraction);
  };
  // Codex's DBs are read synchronously and the selection is megabytes of text: both steps on a worker.
  const staged = poolAvailable()
    ? await runTask('prepare-staging', input, { signal, onEvent })
    : await selectAndStage(input, { signal, onSelected, progress });
  for (const note of staged.notes) tracker.log(note);
  tracker.end(
    'stage',
    `Staged; sync added ${staged.synced.added.length}, removed ${staged.synced.removed.length}, rewrote ${staged.synced.rewritten.length} file(s).`,
  );
  signal.throwIfAborted();
  return staged;
}

/** Runs the engine in staging; returns what the run changed there (the sync's files, what the engine wrote or removed). */
async function engineStep(
  ctx: RunContext,
  run: Active,
  plan: RunPlan,
  settings: EngineSettings,
  staged: StageResult,
): Promise<Set<string>> {
  const { tracker, controller } = run;
  const beforeEngine = await snapshotStaging(plan.stagingDir);
  tracker.begin('engine', `Running the ${tracker.status.engine} engine…`);
  const engineResult = await runEngineStep(
    { ...ctx.options.engineOptions, settings },
    { version: plan.version, stagingRoot: plan.stagingDir, engine: tracker.status.engine, signal: controller.signal, tracker },
  );
  tracker.status.model = engineResult.model;
  tracker.end('engine', engineResult.message);
  controller.signal.throwIfAborted();
  run.lease?.confirm();
  // By size and mtime: whatever the engine wrote or removed.
  const touched = touchedPaths(staged, diffSnapshots(beforeEngine, await snapshotStaging(plan.stagingDir)));
  // A file whose secrets the engine never saw, left as staged, is not part of the result: its placeholder is no edit.
  const hidden = await settleHiddenSecrets(plan.stagingDir, plan.version, staged.hidden);
  for (const note of hidden.notes) tracker.log(note);
  for (const path of hidden.untouched) touched.delete(path);
  return touched;
}

async function validateStep(run: Active, plan: RunPlan, touched: Set<string>): Promise<Validation> {
  const { tracker } = run;
  tracker.begin('validate', 'Checking the result with Codex\u2019s own validators and lint…');
  const validation = await validateStagedOffThread(plan.stagingDir, plan.version, { only: touched, liveRoot: plan.liveRoot });
  tracker.status.validation = validation;
  // A result holding a secret ends the run here, nothing proposed: no stored proposal keeps a secret to write later.
  const refusal = secretRefusal(validation.diagnostics);
  tracker.end('validate', validationSummary(validation), refusal ? 'failed' : 'done');
  if (refusal) throw refusal;
  run.controller.signal.throwIfAborted();
  return validation;
}

/** Stores staging's difference from the live folder as a proposal; null when nothing differs. */
async function proposeStep(
  ctx: RunContext,
  run: Active,
  plan: RunPlan,
  touched: Set<string>,
  validation: Validation,
): Promise<{ proposalId: string; files: number } | null> {
  const { tracker, controller } = run;
  const { engine } = tracker.status;
  tracker.begin('diff', 'Comparing staging with the live folder…');
  // Reading both sides, the hunks and storing megabytes of text in the Studio DB: all on a worker.
  const made = await runTask('result-proposal', {
    dataDir: ctx.options.dataDir,
    stagingDir: plan.stagingDir,
    liveRoot: plan.liveRoot,
    version: plan.version,
    only: [...touched],
    validation,
    title: `Consolidation (${engine}) of ${plan.version} memory`,
    note: validation.ok
      ? `Made by the ${engine} engine in ${plan.stagingDir}.`
      : `Made by the ${engine} engine; it FAILS ${failedChecks(validation)} validation check(s) and cannot be applied until fixed.`,
  });
  run.lease?.confirm();
  if (made && controller.signal.aborted) {
    // Cancelled while the proposal was being stored: it must not outlive the cancel.
    rejectProposal(ctx.options.studioDb(), made.proposalId, 'The consolidation run was cancelled.');
    ctx.options.coordination.settled.announce(made.proposalId, 'rejected');
    controller.signal.throwIfAborted();
  }
  return made;
}

/** Keeps the lease while the proposal is reviewed (the app), else hands it back (the CLI, or no lease to keep). */
async function leaveLeaseForReview(ctx: RunContext, run: Active, proposalId: string): Promise<void> {
  if (!run.lease || !ctx.options.holdForReview) {
    await releaseRunLease(run, false, 'released: the proposal waits for review; Apply claims the lock again');
    return;
  }
  ctx.byProposal.set(proposalId, run);
  run.lease.holdForReview(REVIEW_HOLD_MS, () => {
    ctx.byProposal.delete(proposalId);
    void releaseRunLease(run, false, 'released after 30 minutes of review; Apply claims it again');
  });
  run.tracker.status.lease = {
    held: true,
    leaseUntil: run.lease.leaseUntil(),
    note: 'held while the proposal is reviewed (at most 30 minutes)',
  };
}

async function pipeline(ctx: RunContext, run: Active, home: HomeInfo, version: MemoryVersion, settings: EngineSettings): Promise<void> {
  const { tracker } = run;
  const root = home.roots.find((r) => r.version === version && r.exists);
  if (!root) throw new StudioFailure('NotFound', `${home.codexHome} has no ${version} memory folder.`);
  const plan: RunPlan = {
    version,
    liveRoot: root.path,
    stagingDir: join(stagingRunDir(ctx.options.dataDir, tracker.status.id), basename(root.path)),
  };
  // The owner is on record before the copy begins: if this process is killed, the next start-up removes the copy.
  await claimStagingRun(ctx.options.dataDir, tracker.status.id);
  const staged = await stageStep(ctx, run, home, plan);
  run.lease?.confirm();
  const touched = await engineStep(ctx, run, plan, settings, staged);
  const validation = await validateStep(run, plan, touched);
  const made = await proposeStep(ctx, run, plan, touched, validation);
  if (!made) {
    tracker.end('diff', 'No differences.');
    await releaseRunLease(run, false, 'restored as it was: nothing to change');
    tracker.finish('unchanged', 'Nothing to consolidate: the result is identical to the live memory files.');
    return;
  }
  tracker.status.proposalId = made.proposalId;
  tracker.end('diff', `${made.files} file(s) differ.`);
  // The lease is settled before the end state is announced, so the last event says how it was left.
  await leaveLeaseForReview(ctx, run, made.proposalId);
  tracker.finish(
    'proposed',
    validation.ok ? 'Ready for review.' : 'Ready for review, but the result must be fixed before it can be applied.',
  );
}

async function execute(ctx: RunContext, run: Active, home: HomeInfo, version: MemoryVersion, settings: EngineSettings): Promise<void> {
  const { tracker, controller } = run;
  try {
    await pipeline(ctx, run, home, version, settings);
  } catch (error) {
    await releaseRunLease(run, false, 'restored as it was');
    if (isAbort(error, controller.signal)) tracker.finish('cancelled', CANCELLED);
    else tracker.finish('failed', error instanceof Error ? error.message : String(error), error);
  } finally {
    // The proposal holds every proposed content, so staging is never needed after the run (a heavy root is 4,000+ files);
    // the run's folder may exist before the copy began (its owner record), so it goes whatever the run reached.
    await removeStagingDir(stagingRunDir(ctx.options.dataDir, tracker.status.id)).catch((error: unknown) => {
      tracker.log(
        `The staging copy could not be removed (${error instanceof Error ? error.message : String(error)}); the next start removes it.`,
      );
    });
    tracker.status.stagingDir = null;
  }
}

/** One run per version at a time; a result of ours still under review gives its lease up to the new run. */
async function clearTheWay(ctx: RunContext, version: MemoryVersion): Promise<void> {
  for (const other of ctx.runs.values()) {
    if (
      other.tracker.status.version === version &&
      (other.tracker.status.state === 'running' || other.tracker.status.state === 'cancelling')
    ) {
      throw new StudioFailure('Busy', `A ${version} consolidation is already running (${other.tracker.status.id}).`, {
        hint: 'Wait for it or cancel it first.',
      });
    }
  }
  // A result of ours still under review holds the lease: a new run supersedes that hold (its proposal stays, and
  // its Apply claims the lease again), instead of being refused by our own lock.
  for (const [proposalId, held] of ctx.byProposal) {
    if (held.tracker.status.version !== version) continue;
    ctx.byProposal.delete(proposalId);
    await releaseRunLease(held, false, 'released: a newer run started; Apply claims the lock again');
  }
}

/** Checks, claims Codex's lease and starts a run in the background; resolves with its first status. */
async function startRun(ctx: RunContext, version: MemoryVersion, engine?: EngineName, model?: string): Promise<RunStatus> {
  const { options, now } = ctx;
  const settings = await options.settings();
  if (model) checkModelName(model);
  const chosen = engine ?? settings.engine;
  const effective: EngineSettings = model
    ? { ...settings, codex: { ...settings.codex, model }, openai: { ...settings.openai, model } }
    : settings;
  const home = await options.home();
  const root = home.roots.find((r) => r.version === version && r.exists);
  if (!root)
    throw new StudioFailure('NotFound', `${home.codexHome} has no ${version} memory folder to consolidate.`, {
      hint: 'Pick the other version, or let Codex create its memory first.',
    });
  await clearTheWay(ctx, version);
  // Claimed before anything is read or copied: a live Codex lease refuses the run with nothing done.
  const lease = await holdLease(options.dataDir, root.dbPath, version, options.coordination.leases, now);
  const id = `c-${randomBytes(6).toString('hex')}`;
  const modelName = chosen === 'builtin' ? null : chosen === 'codex' ? effective.codex.model : effective.openai.model;
  const tracker = new RunTracker(id, version, chosen, modelName, options.emit, now());
  tracker.status.lease = lease.lease
    ? { held: true, leaseUntil: lease.leaseUntil(), note: 'held for this run' }
    : { held: false, leaseUntil: null, note: 'no memory DB: nobody to coordinate with' };
  const run: Active = { tracker, controller: new AbortController(), done: Promise.resolve(), lease };
  ctx.runs.set(id, run);
  run.done = execute(ctx, run, home, version, effective);
  return tracker.snapshot();
}

export function createRunManager(options: RunManagerOptions): RunManager {
  const ctx: RunContext = { options, now: options.now ?? Date.now, runs: new Map(), byProposal: new Map() };
  const { runs, byProposal } = ctx;
  const stopListening = options.coordination.settled.on((proposalId, outcome) => {
    const run = byProposal.get(proposalId);
    if (!run) return;
    byProposal.delete(proposalId);
    void releaseRunLease(
      run,
      outcome === 'applied',
      outcome === 'applied'
        ? 'released after Apply (left pending: Codex folds the change in at its next consolidation)'
        : 'released: the proposal was rejected',
    );
  });
  let swept = false;
  const find = (id: string, hint?: string): Active => {
    const run = runs.get(id);
    if (!run) throw new StudioFailure('NotFound', `There is no consolidation run ${id} in this session.`, { hint });
    return run;
  };

  return {
    async start(version, engine, model) {
      if (!swept) {
        swept = true;
        await sweepStaging(ctx.options.dataDir, new Set(runs.keys()), ctx.now());
      }
      return startRun(ctx, version, engine, model);
    },
    async settled(id) {
      const run = find(id);
      await run.done;
      return run.tracker.snapshot();
    },
    status: (id) => find(id, 'Runs are kept while the app is open.').tracker.snapshot(),
    list() {
      return [...runs.values()].map((r) => r.tracker.snapshot()).sort((a, b) => b.startedAt - a.startedAt);
    },
    async cancel(id) {
      const run = find(id);
      if (run.tracker.status.state === 'running') {
        run.tracker.status.state = 'cancelling';
        run.tracker.progress('Cancelling…', undefined, true);
        run.controller.abort();
        await run.done;
      }
      return run.tracker.snapshot();
    },
    async dispose() {
      stopListening();
      for (const run of runs.values()) run.controller.abort();
      await Promise.all([...runs.values()].map((r) => r.done));
      await Promise.all([...runs.values()].map((r) => releaseRunLease(r, false, 'released: Memory Studio closed')));
    },
  };
}
