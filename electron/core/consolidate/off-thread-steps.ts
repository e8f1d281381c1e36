// The consolidation steps that read or write SQLite synchronously, as pool tasks: Codex's phase-2 selection (a heavy
// memory DB is read for ~100 ms) and the proposal of the result (megabytes of base and proposed text stored and read back).
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { FILES } from '../codex/constants';
import { createProposal } from '../review';
import { openStudioDb } from '../studio-db';
import { join } from 'node:path';
import { selectPhase2Inputs } from './select';
import { stagedChanges, type StagedChange } from './staged-changes';
import { StudioFailure } from '../platform/errors';
import { dbProblemFailure } from '../codex-db/db-failure';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import type { TaskContext } from '../runtime/task-types';
import { stageRoot } from './stage';
import type { StageResult, Validation } from './types';

export interface PrepareInput {
  home: HomeInfo;
  version: MemoryVersion;
  nowSec: number;
  liveRoot: string;
  stagingDir: string;
  linkRolloutSummaries: boolean;
}

export interface PrepareHooks {
  signal: AbortSignal;
  /** The selection is known (its one-line account and notes): the run moves from "select" to "stage". */
  onSelected: (detail: string, notes: string[]) => void;
  progress: (message: string, fraction?: number) => void;
}

/**
 * Codex's phase-2 selection, then the staging copy synced to it. One step, so the selection's megabytes of stage-1
 * text never travel to the app's main thread: it gets the staging account only.
 */
export async function selectAndStage(input: PrepareInput, hooks: PrepareHooks): Promise<StageResult> {
  const { home, version } = input;
  const selection = await selectPhase2Inputs(home, version, input.nowSec);
  if (selection.blocked) {
    // An unreadable selection is not an empty one: staging it would propose deleting every rollout summary.
    const doing = `Codex's ${version} inputs cannot be read, so nothing was staged`;
    const after = 'Fix or wait for the DB (the Health view says what is wrong), then run again. Your memory files were not touched.';
    if (selection.blockedBy) throw dbProblemFailure(selection.blockedBy, doing, after);
    throw new StudioFailure('Unsupported', `${doing}: ${selection.blocked}`, { hint: after });
  }
  hooks.onSelected(
    `${selection.rows.length} of ${selection.eligible} eligible stage-1 outputs selected (limit ${selection.limit}).`,
    selection.notes,
  );
  hooks.signal.throwIfAborted();
  return stageRoot({
    liveRoot: input.liveRoot,
    stagingDir: input.stagingDir,
    version,
    selection,
    nowSec: input.nowSec,
    signal: hooks.signal,
    progress: hooks.progress,
    linkRolloutSummaries: input.linkRolloutSummaries,
  });
}

/** The pool task: the worker is ended to cancel it, so its own signal never fires. */
export function prepareTask(input: PrepareInput, context: TaskContext): Promise<StageResult> {
  return selectAndStage(input, {
    signal: new AbortController().signal,
    onSelected: (detail, notes) => context.emit({ type: 'selected', detail, notes }),
    progress: (message, fraction) => context.emit({ type: 'progress', message, fraction }),
  });
}

/** The artifacts present in staging with their content (for a proposal that must carry a broken one to fix). */
async function stagedArtifacts(stagingDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of [FILES.summary, FILES.memory]) {
    const text = await readRegularFile(join(stagingDir, name), name, NO_CAP).then(
      (file) => file.bytes.toString('utf8'),
      () => null,
    );
    if (text !== null) out.set(name, text);
  }
  return out;
}

/**
 * A result that fails validation because of an artifact the run left unchanged (a live summary that was already
 * broken) still has to be fixable in the review: that artifact joins the proposal, unchanged, so "Edit result" can
 * reach it.
 */
function withBrokenArtifacts(changes: StagedChange[], validation: Validation, staged: ReadonlyMap<string, string>): StagedChange[] {
  const broken = new Set(validation.diagnostics.filter((d) => d.severity === 'error').map((d) => d.path));
  const extra = [...staged]
    .filter(([path]) => broken.has(path) && !changes.some((c) => c.relPath === path))
    .map(([relPath, proposedContent]) => ({ relPath, proposedContent }));
  return extra.length === 0 || changes.length === 0 ? changes : [...changes, ...extra].sort((a, b) => (a.relPath < b.relPath ? -1 : 1));
}

export interface ResultProposalInput {
  dataDir: string;
  stagingDir: string;
  liveRoot: string;
  version: MemoryVersion;
  only: string[];
  validation: Validation;
  title: string;
  note: string;
}

/** Staging against the live folder as a pending proposal (its own Studio DB connection, closed after); null when equal. */
export async function resultProposalTask(input: ResultProposalInput): Promise<{ proposalId: string; files: number } | null> {
  const changes = withBrokenArtifacts(
    await stagedChanges(input.stagingDir, input.liveRoot, { only: new Set(input.only) }),
    input.validation,
    await stagedArtifacts(input.stagingDir),
  );
  if (changes.length === 0) return null;
  const db = openStudioDb(input.dataDir);
  try {
    const proposal = await createProposal(db, {
      title: input.title,
      source: 'consolidation',
      files: changes.map((c) => ({ version: input.version, root: input.liveRoot, relPath: c.relPath, proposedContent: c.proposedContent })),
      note: input.note,
    });
    return { proposalId: proposal.id, files: changes.length };
  } finally {
    db.close();
  }
}
