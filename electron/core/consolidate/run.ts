// Consolidation runs: select, stage, engine, validate, diff under Codex's lease, cancellable in every phase.
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { EngineName, EngineSettings, RunStatus } from '../../../shared/consolidate';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { FILES } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { rejectProposal } from '../review';
import { poolAvailable, runTask } from '../workers/pool';
import type { Coordination } from '../service/coordination';
import type { StudioDb } from '../studio-db';
import { diffSnapshots, snapshotStaging, type SnapshotDiff } from './engines/staging-snapshot';
import { REVIEW_HOLD_MS, holdLease, type LeaseHold } from './lease-hold';
import { type EngineStepOptions, runEngineStep } from './run-engine';
import { RunTracker } from './run-status';
import { selectAndStage } from './off-thread-steps';
import type { StageResult } from './types';
import { validateStagedOffThread } from './validate-off-thread';

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

const STALE_STAGING_MS = 24 * 60 * 60 * 1000;

const CANCELLED = 'Cancelled; your memory files were not touched and Codex\u2019s lock is as it was.';

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === 'AbortError');
}

export function createRunManager(options: RunManagerOptions): RunManager {
  const runs = new Map<string, Active>();
  const now = options.now ?? Date.now;
  const byProposal = new Map<string, Active>();
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

  async function releaseRunLease(run: Active, changed: boolean, note: string): Promise<void> {
    if (!run.lease) return;
    const lease = run.lease;
    run.lease = null;
    await lease.release(changed).catch(() => undefined);
    run.tracker.status.lease = { held: false, leaseUntil: null, note };
    run.tracker.progress(run.tracker.status.message, undefined, true);
  }

  async function pipeline(run: Active, home: HomeInfo, version: MemoryVersion, settings: EngineSettings): Promise<void> {
    const { tracker, controller } = run;
    const signal = controller.signal;
    const root = home.roots.find((r) => r.version === version && r.exists);
    if (!root) throw new StudioFailure('NotFound', `${home.codexHome} has no ${version} memory folder.`);
    tracker.begin('select', 'Selecting inputs as Codex does…');
    const stagingDir = join(options.dataDir, 'staging', tracker.status.id, basename(root.path));
    tracker.status.stagingDir = stagingDir;
    // Only the builtin engine (our own code, which writes two artifacts by name) may share the summaries' inodes.
    const linkRolloutSummaries = tracker.status.engine === 'builtin' && !options.engineOptions.engines?.builtin;
    const onSelected = (detail: string, notes: readonly string[]) => {
      for (const note of notes) tracker.log(note);
      tracker.end('select', detail);
      tracker.begin('stage', 'Copying the memory folder into staging…');
    };
    const progress = (message: string, fraction?: number) => tracker.progress(message, fraction);
    const input = { home, version, nowSec: Math.floor(now() / 1000), liveRoot: root.path, stagingDir, linkRolloutSummaries };
    // Codex's DBs are read synchronously and the selection is megabytes of text: both steps on a worker.
    const staged = poolAvailable()
      ? await runTask('prepare-staging', input, {
          signal,
          onEvent: (e) =>
            e.type === 'selected' ? onSelected(e.detail, e.notes) : e.type === 'progress' ? progress(e.message, e.fraction) : undefined,
        })
      : await selectAndStage(input, { signal, onSelected, progress });
    for (const note of staged.notes) tracker.log(note);
    tracker.end(
      'stage',
      `Staged; sync added ${staged.synced.added.length}, removed ${staged.synced.removed.length}, rewrote ${staged.synced.rewritten.length} file(s).`,
    );
    signal.throwIfAborted();
    run.lease?.confirm();
    const beforeEngine = await snapshotStaging(stagingDir);

    tracker.begin('engine', `Running the ${tracker.status.engine} engine…`);
    const engineResult = await runEngineStep(
      { ...options.engineOptions, settings },
      { version, stagingRoot: stagingDir, engine: tracker.status.engine, signal, tracker },
    );
    tracker.status.model = engineResult.model;
    tracker.end('engine', engineResult.message);
    signal.throwIfAborted();
    run.lease?.confirm();

    // What the run changed in staging: the sync's files and whatever the engine wrote or removed (by size and mtime).
    const touched = touchedPaths(staged, diffSnapshots(beforeEngine, await snapshotStaging(stagingDir)));
    tracker.begin('validate', 'Checking the result with Codex\u2019s own validators and lint…');
    const validation = await validateStagedOffThread(stagingDir, version, { only: touched });
    tracker.status.validation = validation;
    const errors = validation.diagnostics.filter((d) => d.severity === 'error').length;
    tracker.end(
      'validate',
      validation.ok
        ? 'The result passes Codex\u2019s checks.'
        : `The result fails ${errors} check(s); it cannot be applied until fixed (edit it in the review).`,
    );
    signal.throwIfAborted();

    tracker.begin('diff', 'Comparing staging with the live folder…');
    // Reading both sides, the hunks and storing megabytes of text in the Studio DB: all on a worker.
    const made = await runTask('result-proposal', {
      dataDir: options.dataDir,
      stagingDir,
      liveRoot: root.path,
      version,
      only: [...touched],
      validation,
      title: `Consolidation (${tracker.status.engine}) of ${version} memory`,
      note: validation.ok
        ? `Made by the ${tracker.status.engine} engine in ${stagingDir}.`
        : `Made by the ${tracker.status.engine} engine; it FAILS ${errors} validation check(s) and cannot be applied until fixed.`,
    });
    run.lease?.confirm();
    if (!made) {
      tracker.end('diff', 'No differences.');
      await releaseRunLease(run, false, 'restored as it was: nothing to change');
      tracker.finish('unchanged', 'Nothing to consolidate: the result is identical to the live memory files.');
      return;
    }
    const proposal = { id: made.proposalId };
    const changes = { length: made.files };
    if (signal.aborted) {
      // Cancelled while the proposal was being stored: it must not outlive the cancel.
      rejectProposal(options.studioDb(), proposal.id, 'The consolidation run was cancelled.');
      options.coordination.settled.announce(proposal.id, 'rejected');
      signal.throwIfAborted();
    }
    tracker.status.proposalId = proposal.id;
    tracker.end('diff', `${changes.length} file(s) differ.`);
    // The lease is settled before the end state is announced, so the last event says how it was left.
    if (run.lease && options.holdForReview) {
      byProposal.set(proposal.id, run);
      run.lease.holdForReview(REVIEW_HOLD_MS, () => {
        byProposal.delete(proposal.id);
        void releaseRunLease(run, false, 'released after 30 minutes of review; Apply claims it again');
      });
      tracker.status.lease = {
        held: true,
        leaseUntil: run.lease.leaseUntil(),
        note: 'held while the proposal is reviewed (at most 30 minutes)',
      };
    } else {
      await releaseRunLease(run, false, 'released: the proposal waits for review; Apply claims the lock again');
    }
    tracker.finish(
      'proposed',
      validation.ok ? 'Ready for review.' : 'Ready for review, but the result must be fixed before it can be applied.',
    );
  }

  async function execute(run: Active, home: HomeInfo, version: MemoryVersion, settings: EngineSettings): Promise<void> {
    const { tracker, controller } = run;
    try {
      await pipeline(run, home, version, settings);
    } catch (error) {
      await releaseRunLease(run, false, 'restored as it was');
      if (isAbort(error, controller.signal)) tracker.finish('cancelled', CANCELLED);
      else tracker.finish('failed', error instanceof Error ? error.message : String(error), error);
    } finally {
      // The proposal holds every proposed content, so staging is never needed after the run (a heavy root is 4,000+ files).
      if (tracker.status.stagingDir) {
        await rm(join(options.dataDir, 'staging', tracker.status.id), { recursive: true, force: true }).catch(() => undefined);
        tracker.status.stagingDir = null;
      }
    }
  }

  let swept = false;
  /** Staging left by a run that crashed (the process died mid-run): removed once a day old, never a live run's. */
  async function sweepStaging(): Promise<void> {
    if (swept) return;
    swept = true;
    const dir = join(options.dataDir, 'staging');
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const info = await stat(join(dir, name)).catch(() => null);
      if (info && !runs.has(name) && now() - info.mtimeMs > STALE_STAGING_MS)
        await rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
    }
  }

  return {
    async start(version, engine, model) {
      await sweepStaging();
      const settings = await options.settings();
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
      for (const other of runs.values()) {
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
      for (const [proposalId, held] of byProposal) {
        if (held.tracker.status.version !== version) continue;
        byProposal.delete(proposalId);
        await releaseRunLease(held, false, 'released: a newer run started; Apply claims the lock again');
      }
      // Claimed before anything is read or copied: a live Codex lease refuses the run with nothing done.
      const lease = await holdLease(options.dataDir, root.dbPath, version, options.coordination.leases, now);
      const id = `c-${randomBytes(6).toString('hex')}`;
      const modelName = chosen === 'builtin' ? null : chosen === 'codex' ? effective.codex.model : effective.openai.model;
      const tracker = new RunTracker(id, version, chosen, modelName, options.emit, now());
      tracker.status.lease = lease.lease
        ? { held: true, leaseUntil: lease.leaseUntil(), note: 'held for this run' }
        : { held: false, leaseUntil: null, note: 'no memory DB: nobody to coordinate with' };
      const run: Active = { tracker, controller: new AbortController(), done: Promise.resolve(), lease };
      runs.set(id, run);
      run.done = execute(run, home, version, effective);
      return tracker.snapshot();
    },
    async settled(id) {
      const run = runs.get(id);
      if (!run) throw new StudioFailure('NotFound', `There is no consolidation run ${id} in this session.`);
      await run.done;
      return run.tracker.snapshot();
    },
    status(id) {
      const run = runs.get(id);
      if (!run)
        throw new StudioFailure('NotFound', `There is no consolidation run ${id} in this session.`, {
          hint: 'Runs are kept while the app is open.',
        });
      return run.tracker.snapshot();
    },
    list() {
      return [...runs.values()].map((r) => r.tracker.snapshot()).sort((a, b) => b.startedAt - a.startedAt);
    },
    async cancel(id) {
      const run = runs.get(id);
      if (!run) throw new StudioFailure('NotFound', `There is no consolidation run ${id} in this session.`);
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
