// What a doctor fix changes, worked out from the files as they are now: parsing, clustering and the edits run as a task
// of the shared worker pool (a heavy MEMORY.md takes about half a second), the proposal itself is made by the caller.
import type { DoctorFile, Finding, FixAction } from '../../../shared/doctor';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { TextEdit } from '../../../shared/formats';
import { StudioFailure } from '../platform/errors';
import { applyTextEdits } from '../formats';
import { sha256Text, type ProposalFileInput } from '../review';
import { listMemoryRoot, readMemoryFile } from '../codex/workspace';
import { resolveSummaryCwds } from './analyze';
import { clusterId, duplicateClusters } from './duplicates';
import { entriesOf, type EntryModel, type ParsedMemoryFile } from '../review/blocks/entries';
import { lineRemovalEdits, mergeSummaryEdits, mergeTaskGroupEdits, removalEdits } from './fix-edits';
import { quote } from './finding-ids';
import { promotedBullets, promotedText, promotionTarget, sizeNote } from './promote';

export interface PromoteInput {
  version: MemoryVersion;
  file: DoctorFile;
  /** The entry's id (from the doctor's report), or the line it starts on. */
  entryId?: string;
  line?: number;
  project?: string;
}

export type FixPlanInput =
  | {
      kind: 'fix';
      home: HomeInfo;
      finding: Finding;
      action: FixAction;
      project?: string;
      cwds: Array<[string, string | null]>;
      now: number;
    }
  | { kind: 'promote'; home: HomeInfo; promote: PromoteInput; now: number };

type ProposalPlan = { kind: 'proposal'; title: string; note: string; files: ProposalFileInput[] };
/** A proposal's files, or (raw memories) the sessions to forget, which the caller plans against Codex's DBs. */
export type FixPlan = ProposalPlan | { kind: 'forget'; keptTitle: string; memberCount: number; threadIds: string[] };

interface FileState extends ParsedMemoryFile {
  version: MemoryVersion;
  root: string;
  models: EntryModel[];
}

/**
 * The file as it is now, cut into entries. `cwds` (entry id -> cwd) carries the report's project folders over; a
 * summary entry not in it learns its folder from its rollout summaries' headers, as the report does.
 */
export async function readFileState(
  home: HomeInfo,
  version: MemoryVersion,
  file: DoctorFile,
  cwds?: ReadonlyMap<string, string | null>,
): Promise<FileState> {
  const root = home.roots.find((r) => r.version === version && r.exists);
  if (!root) throw new StudioFailure('NotFound', `${home.codexHome} has no ${version} memory folder any more.`);
  const { content } = await readMemoryFile(root.path, version, file);
  const { parsed, entries } = entriesOf(version, file, content);
  for (const model of entries) if (cwds?.has(model.entry.id)) model.entry.cwd = cwds.get(model.entry.id) ?? null;
  if (file === 'memory_summary.md' && !cwds)
    await resolveSummaryCwds({ path: root.path, files: (await listMemoryRoot(root.path, version)).files, models: entries }, []);
  return { version, root: root.path, file, text: content, parsed, models: entries };
}

export const gone = (what: string, home: HomeInfo) =>
  new StudioFailure(
    'NotFound',
    `${what} is not in the doctor's report of ${home.codexHome} any more: the memory it was about changed, or the fix was applied.`,
    {
      hint: 'Run the doctor again (memory-studio doctor) for the current findings and their ids.',
    },
  );

function modelsById(state: FileState, ids: readonly string[], home: HomeInfo): EntryModel[] {
  return ids.map(
    (id) =>
      state.models.find((m) => m.entry.id === id) ??
      (() => {
        throw gone(`Entry ${id}`, home);
      })(),
  );
}

/** The memory file as the fix leaves it, proposed against exactly the text it was computed from. */
function memoryFile(state: FileState, edits: readonly TextEdit[]): ProposalFileInput {
  return {
    version: state.version,
    root: state.root,
    relPath: state.file,
    proposedContent: applyTextEdits(state.text, edits),
    expectedBaseSha256: sha256Text(state.text),
  };
}

function clusterOf(state: FileState, finding: Finding, home: HomeInfo): { kept: EntryModel; members: EntryModel[] } {
  for (const c of duplicateClusters(state.models)) {
    const members = c.members.map((m) => m.judged.model);
    if (clusterId(c.kept.model, members) === finding.id) return { kept: c.kept.model, members };
  }
  throw gone(`Finding ${finding.id}`, home);
}

async function promotion(
  home: HomeInfo,
  now: number,
  state: FileState,
  models: readonly [EntryModel, ...EntryModel[]],
  removed: readonly EntryModel[],
  project: string | undefined,
): Promise<ProposalPlan> {
  const [first] = models;
  if (first.entry.kind === 'raw-memory') {
    throw new StudioFailure('Invalid', "Raw memories are rebuilt from Codex's DB at every consolidation, so they cannot be promoted.", {
      hint: 'Promote the MEMORY.md task group or the summary entry that holds the same learning.',
    });
  }
  const dir = project ?? first.entry.cwd;
  if (!dir) {
    throw new StudioFailure(
      'Invalid',
      `${quote(first.entry.title, 60)} applies to no project folder, so there is no AGENTS.md to promote it into.`,
      { hint: 'Choose the project folder (memory-studio promote … --project DIR, or pick one in the Doctor view).' },
    );
  }
  const target = await promotionTarget(
    dir,
    home.roots.map((r) => r.path),
  );
  const today = new Date(now).toISOString().slice(0, 10);
  const text = promotedText(target, first.entry, promotedBullets(models), today);
  const project_: ProposalFileInput = {
    version: state.version,
    target: 'project',
    root: target.dir,
    relPath: target.name,
    proposedContent: text,
    expectedBaseSha256: target.base === null ? null : sha256Text(target.base),
  };
  const note = [
    `Moves ${quote(first.entry.title, 60)} from ${state.version} ${state.file} into ${target.dir}/${target.name}: the rule is added there and the memory ${removed.length === 1 ? 'entry is' : `entries (${removed.length}) are`} removed, in one proposal. Reverting it restores both.`,
    sizeNote(target, text),
  ]
    .filter(Boolean)
    .join(' ');
  return {
    kind: 'proposal',
    files: [memoryFile(state, removalEdits(state.models, new Set(removed.map((m) => m.entry.id)))), project_],
    note,
    title: `Doctor: promote ${quote(first.entry.title, 60)} to ${target.dir}/${target.name}`,
  };
}

async function duplicatePlan(input: FixPlanInput & { kind: 'fix' }): Promise<FixPlan> {
  const { home, finding, action, project } = input;
  const cwds = new Map(input.cwds);
  const state = await readFileState(home, finding.version, finding.file, cwds);
  const { kept, members } = clusterOf(state, finding, home);
  if (action === 'forget')
    return {
      kind: 'forget',
      keptTitle: kept.entry.title,
      memberCount: members.length,
      threadIds: members.flatMap((m) => m.entry.threadIds),
    };
  if (action === 'promote') {
    return promotion(home, input.now, state, [kept, ...members], [kept, ...members], project);
  }
  const edits =
    state.parsed.kind === 'memory_md'
      ? mergeTaskGroupEdits(state.parsed, state.models, kept, members)
      : state.parsed.kind === 'memory_summary' && kept.entry.kind === 'summary-entry'
        ? mergeSummaryEdits(state.parsed, state.models, kept, members)
        : removalEdits(state.models, new Set(members.map((m) => m.entry.id)));
  const note = `${finding.message} The merge keeps line ${kept.entry.line} and carries over what only the others have; each hunk can be rejected on its own.`;
  return {
    kind: 'proposal',
    title: `Doctor: merge ${members.length + 1} copies of ${quote(kept.entry.title, 60)} (${state.version} ${state.file})`,
    files: [memoryFile(state, edits)],
    note,
  };
}

async function retirePlan(home: HomeInfo, finding: Finding): Promise<FixPlan> {
  const state = await readFileState(home, finding.version, finding.file);
  const evidence = finding.evidence;
  let edits: TextEdit[];
  let what: string;
  if (evidence.kind === 'agents-overlap') {
    const [model] = modelsById(state, finding.entryIds, home) as [EntryModel];
    const lines = evidence.matches.map((m) => m.memoryLine);
    edits = lines.includes(model.entry.line) ? removalEdits(state.models, new Set([model.entry.id])) : lineRemovalEdits(lines);
    what = `what ${evidence.ruleFile} already says (${quote(model.entry.title, 50)})`;
  } else if (evidence.kind === 'oversize') {
    const whole = evidence.cut.filter((c) => !c.partial).map((c) => c.entryId);
    edits = removalEdits(state.models, new Set(modelsById(state, whole, home).map((m) => m.entry.id)));
    what = `the ${whole.length} entries Codex cuts from ${state.file}`;
  } else {
    const [model] = modelsById(state, finding.entryIds, home) as [EntryModel];
    edits = removalEdits(state.models, new Set([model.entry.id]));
    what = `stale ${quote(model.entry.title, 60)} (${state.version} ${state.file})`;
  }
  return { kind: 'proposal', title: `Doctor: retire ${what}`, files: [memoryFile(state, edits)], note: finding.message };
}

async function promotePlan(home: HomeInfo, now: number, input: PromoteInput): Promise<FixPlan> {
  const state = await readFileState(home, input.version, input.file);
  const model = state.models.find((m) =>
    input.entryId ? m.entry.id === input.entryId : m.entry.line <= (input.line ?? 0) && (input.line ?? 0) <= m.entry.endLine,
  );
  if (!model) {
    throw new StudioFailure(
      'NotFound',
      input.entryId
        ? `${input.version} ${input.file} has no entry ${input.entryId} now.`
        : `${input.version} ${input.file} has no entry at line ${input.line}.`,
      {
        hint: 'Give the line of a task group, summary entry or bullet (the doctor and the Files view show them), or run the doctor again for current entry ids.',
      },
    );
  }
  return promotion(home, now, state, [model], [model], input.project);
}

/** The pool task: a fix of a finding the caller has just found in a fresh report, or a promotion of one entry. */
export async function fixPlanTask(input: FixPlanInput): Promise<FixPlan> {
  if (input.kind === 'promote') return promotePlan(input.home, input.now, input.promote);
  if (input.finding.kind === 'duplicate') return duplicatePlan(input);
  return retirePlan(input.home, input.finding);
}
