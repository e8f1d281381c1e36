// The task registry: every task the shared worker pool runs, by name, each handler loaded lazily in whichever thread
// runs it. Nothing in core imports this file: the worker thread loads it, and each host hands it to the pool
// (installTasks), so the pool and the areas that run tasks never reach up to the areas that implement them.
import { provideTaskRegistry } from '../runtime/pool';
import { spec, type TaskSpec } from '../runtime/task-types';
import type { EngineSettings } from '../../../shared/consolidate';
import type { BudgetReport } from '../../../shared/budget';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { ParsedFile } from '../../../shared/formats';
import type { ProjectLens } from '../../../shared/inspect';
import type { InputPreview } from '../../../shared/consolidate';
import type { PreviewOptions } from '../consolidate/preview';
import type { HealthReport } from '../../../shared/health';
import type { CoverageInput, CoverageReport } from '../../../shared/coverage';
import type { LintReport } from '../../../shared/lint';
import type { FileBlocks, Hunk } from '../../../shared/review';
import type { BlockFile, SecretLines } from '../review/review-hunks';
import type { SecretCandidate } from '../lint/secret-rules';
import type { PlannedLint } from '../../../shared/import';
import type { LintableWrite } from '../import/plan-lint';
import type { ThreeWay } from '../review/three-way';
import type { EngineResult, StageResult, Validation } from '../consolidate/types';
import type { PrepareInput, ResultProposalInput } from '../consolidate/off-thread-steps';
import type { ParseTaskInput } from '../formats/parse-task';
import type { Analysis, AnalyzeInput } from '../doctor/analyze';
import type { FixPlan, FixPlanInput } from '../doctor/fix-plans';
import type { GroupPlan, GroupPlanInput } from '../doctor/stale-group-plan';
import type { WatchStamps, WatchStampsInput } from '../codex/watch-stamps';
import type { SnapshotList, SnapshotListInput, SnapshotRead, SnapshotReadInput } from '../history/snapshot-read';
import type { FileSecret } from '../sync/bundle-secrets';
import type { StoreProposalInput } from '../review/store-proposal';
import type { IndexAnswersInput, IndexScanInput, IndexScanResult, IndexUpdateInput, IndexUpdateResult } from '../index-store/tasks';

export const TASKS = {
  parse: spec<ParseTaskInput, ParsedFile>(async () => (await import('../formats/parse-task.js')).parseTask, { fallback: true }),
  budget: spec<{ root: string; version: MemoryVersion; limitTokens?: number; cachePath?: string }, BudgetReport>(
    async () => (await import('./index-backed.js')).budgetTask,
    { fallback: true },
  ),
  'lint-root': spec<{ root: string; version: MemoryVersion; maxUnusedDays: number }, LintReport>(
    async () => (await import('../inspect/lint-task.js')).lintRootTask,
    { fallback: true },
  ),
  'secret-spans': spec<{ text: string }, SecretCandidate[]>(async () => (await import('../lint/mask-at-rest.js')).secretSpansTask, {
    fallback: true,
  }),
  'secret-spans-many': spec<{ texts: string[] }, SecretCandidate[][]>(
    async () => (await import('../lint/mask-at-rest.js')).secretSpansManyTask,
    { fallback: true, cooperative: true },
  ),
  'plan-lint': spec<{ writes: LintableWrite[] }, PlannedLint[]>(async () => (await import('../import/plan-lint.js')).planLintTask, {
    fallback: true,
    cooperative: true,
  }),
  'bundle-secrets': spec<{ files: Uint8Array[] }, (FileSecret | null)[]>(
    async () => (await import('../sync/bundle-secrets.js')).bundleSecretsTask,
    { fallback: true },
  ),
  // Not a fallback: a worker that stopped after its commit must not have the proposal stored a second time.
  'store-proposal': spec<StoreProposalInput, null>(async () => (await import('./store-proposal-task.js')).storeProposalTask),
  hunks: spec<{ base: string | null; proposed: string | null; file?: BlockFile; secrets?: SecretLines }, Hunk[]>(
    async () => (await import('../review/hunks-off-thread.js')).hunksTask,
    { fallback: true },
  ),
  blocks: spec<{ base: string | null; proposed: string | null; file: BlockFile; hunks: Hunk[] }, FileBlocks>(
    async () => (await import('../review/hunks-off-thread.js')).blocksTask,
    { fallback: true },
  ),
  'three-way': spec<{ base: string | null; theirs: string | null; ours: string | null; masked?: ReadonlyMap<string, string> }, ThreeWay>(
    async () => (await import('../review/three-way-off-thread.js')).threeWayTask,
    { fallback: true },
  ),
  projects: spec<{ root: string; version: MemoryVersion }, ProjectLens>(async () => (await import('../inspect/projects.js')).projectsTask, {
    fallback: true,
  }),
  preview: spec<{ home: HomeInfo; version: MemoryVersion; options: PreviewOptions }, InputPreview>(
    async () => (await import('../consolidate/preview.js')).previewTask,
    { fallback: true },
  ),
  health: spec<{ home: HomeInfo; cachePath?: string }, HealthReport>(async () => (await import('./index-backed.js')).healthTask, {
    fallback: true,
  }),
  // The coverage ledger reads Codex's DBs synchronously and one root's naming files: 0.3-0.8 s on a heavy home.
  coverage: spec<{ home: HomeInfo; input: CoverageInput; nowSec?: number }, CoverageReport>(
    async () => (await import('../coverage/build.js')).coverageTask,
    { fallback: true },
  ),
  validate: spec<{ stagingRoot: string; version: MemoryVersion; only?: string[]; liveRoot?: string }, Validation>(
    async () => (await import('../consolidate/validate.js')).validateTask,
    { fallback: true },
  ),
  'prepare-staging': spec<PrepareInput, StageResult>(async () => (await import('../consolidate/off-thread-steps.js')).prepareTask),
  'result-proposal': spec<ResultProposalInput, { proposalId: string; files: number } | null>(
    async () => (await import('../consolidate/off-thread-steps.js')).resultProposalTask,
  ),
  builtin: spec<{ stagingRoot: string; version: MemoryVersion; settings: EngineSettings; instructions: string }, EngineResult>(
    async () => (await import('../consolidate/builtin-off-thread.js')).builtinTask,
  ),
  // The doctor's read of every memory file (parsing, similarity, AGENTS.md overlap): seconds of CPU on a heavy home.
  'doctor-analyze': spec<AnalyzeInput, Analysis>(async () => (await import('../doctor/analyze.js')).analyzeHome, { fallback: true }),
  // A fix's edits from the file as it is now (MEMORY.md parsed and clustered again): about half a second on a heavy home.
  'doctor-fix-plan': spec<FixPlanInput, FixPlan>(async () => (await import('../doctor/fix-plans.js')).fixPlanTask, { fallback: true }),
  // A stale group's bulk retire: every file it touches parsed again, each entry's removal planned against it.
  'doctor-group-plan': spec<GroupPlanInput, GroupPlan>(async () => (await import('../doctor/stale-group-plan.js')).groupRetirePlan, {
    fallback: true,
  }),
  // The app watcher's starting stamps: every file of the roots stat'ed once (8,000 on a heavy home).
  'watch-stamps': spec<WatchStampsInput, WatchStamps>(async () => (await import('../codex/watch-stamps.js')).watchStampsTask, {
    fallback: true,
  }),
  // External history's snapshot of the roots (a heavy home: 8,000 files read and hashed), after the first answer.
  'history-snapshot-list': spec<SnapshotListInput, SnapshotList>(
    async () => (await import('../history/snapshot-read.js')).snapshotListTask,
    {
      fallback: true,
    },
  ),
  'history-snapshot-read': spec<SnapshotReadInput, SnapshotRead>(
    async () => (await import('../history/snapshot-read.js')).snapshotReadTask,
    {
      fallback: true,
    },
  ),
  'index-scan': spec<IndexScanInput, IndexScanResult>(async () => (await import('../index-store/tasks.js')).indexScanTask, {
    cooperative: true,
  }),
  'index-update': spec<IndexUpdateInput, IndexUpdateResult>(async () => (await import('../index-store/tasks.js')).indexUpdateTask, {
    cooperative: true,
  }),
  'index-answers': spec<IndexAnswersInput, void>(async () => (await import('../index-store/tasks.js')).indexAnswersTask, {
    cooperative: true,
  }),
};

export type TaskName = keyof typeof TASKS;
export type TaskInput<N extends TaskName> = (typeof TASKS)[N] extends TaskSpec<infer I, unknown> ? I : never;
export type TaskOutput<N extends TaskName> = (typeof TASKS)[N] extends TaskSpec<never, infer O> ? O : never;

export type TaskRegistry = typeof TASKS;

/** Hands the registry to the pool in this thread; every host calls it once before running anything. */
export function installTasks(): void {
  provideTaskRegistry(TASKS);
}
