// Every doctor fix as a reviewed proposal: merge a duplicate cluster, retire an entry, promote into AGENTS.md, forget repeats.
import type { DoctorFile, DoctorReport, Finding, FixAction } from '../../../shared/doctor';
import { FIX_ID } from '../../../shared/doctor';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { MemoryMdParsed, MemorySummaryParsed, TextEdit } from '../../../shared/formats';
import type { Proposal } from '../../../shared/review';
import { StudioFailure } from '../errors';
import { applyTextEdits } from '../formats';
import { planForgetMany } from '../forget';
import { createProposal, sha256Text, type ProposalFileInput } from '../review';
import type { StudioDb } from '../studio-db';
import { listMemoryRoot, readMemoryFile } from '../workspace';
import { resolveSummaryCwds } from './analyze';
import { clusterId, duplicateClusters } from './duplicates';
import { entriesOf, type EntryModel, type ParsedMemoryFile } from './entries';
import { lineRemovalEdits, mergeSummaryEdits, mergeTaskGroupEdits, removalEdits } from './fix-edits';
import { quote } from './finding-ids';
import { promotedBullets, promotedText, promotionTarget, sizeNote } from './promote';
import { runDoctor, type DoctorRun } from './report';

export interface FixContext {
  db: StudioDb;
  home: HomeInfo;
  now?: number;
  usage?: DoctorRun['usage'];
}

interface FileState extends ParsedMemoryFile {
  version: MemoryVersion;
  root: string;
  models: EntryModel[];
}

/**
 * The file as it is now, cut into entries. `cwds` (entry id -> cwd) carries the report's project folders over; a
 * summary entry not in it learns its folder from its rollout summaries' headers, as the report does.
 */
export async function readFileState(home: HomeInfo, version: MemoryVersion, file: DoctorFile, cwds?: ReadonlyMap<string, string | null>): Promise<FileState> {
  const root = home.roots.find((r) => r.version === version && r.exists);
  if (!root) throw new StudioFailure('NotFound', `${home.codexHome} has no ${version} memory folder any more.`);
  const { content } = await readMemoryFile(root.path, version, file);
  const { parsed, entries } = entriesOf(version, file, content);
  for (const model of entries) if (cwds?.has(model.entry.id)) model.entry.cwd = cwds.get(model.entry.id) ?? null;
  if (file === 'memory_summary.md' && !cwds) await resolveSummaryCwds({ path: root.path, files: (await listMemoryRoot(root.path, version)).files, models: entries }, []);
  return { version, root: root.path, file, text: content, parsed, models: entries };
}

const gone = (what: string, home: HomeInfo) =>
  new StudioFailure('NotFound', `${what} is not in the doctor's report of ${home.codexHome} any more: the memory it was about changed, or the fix was applied.`, {
    hint: 'Run the doctor again (memory-studio doctor) for the current findings and their ids.',
  });

function modelsById(state: FileState, ids: readonly string[], home: HomeInfo): EntryModel[] {
  return ids.map((id) => state.models.find((m) => m.entry.id === id) ?? (() => { throw gone(`Entry ${id}`, home); })());
}

/** The memory file as the fix leaves it, proposed against exactly the text it was computed from. */
function memoryFile(state: FileState, edits: readonly TextEdit[]): ProposalFileInput {
  return { version: state.version, root: state.root, relPath: state.file, proposedContent: applyTextEdits(state.text, edits), expectedBaseSha256: sha256Text(state.text) };
}

function clusterOf(state: FileState, finding: Finding, home: HomeInfo): { kept: EntryModel; members: EntryModel[] } {
  for (const c of duplicateClusters(state.models)) {
    const members = c.members.map((m) => m.judged.model);
    if (clusterId(c.kept.model, members) === finding.id) return { kept: c.kept.model, members };
  }
  throw gone(`Finding ${finding.id}`, home);
}

async function promotion(ctx: FixContext, state: FileState, models: readonly EntryModel[], removed: readonly EntryModel[], project: string | undefined): Promise<{ files: ProposalFileInput[]; note: string; title: string }> {
  const first = models[0] as EntryModel;
  if (first.entry.kind === 'raw-memory') {
    throw new StudioFailure('Invalid', "Raw memories are rebuilt from Codex's DB at every consolidation, so they cannot be promoted.", { hint: 'Promote the MEMORY.md task group or the summary entry that holds the same learning.' });
  }
  const dir = project ?? first.entry.cwd;
  if (!dir) {
    throw new StudioFailure('Invalid', `${quote(first.entry.title, 60)} applies to no project folder, so there is no AGENTS.md to promote it into.`, { hint: 'Choose the project folder (memory-studio promote … --project DIR, or pick one in the Doctor view).' });
  }
  const target = await promotionTarget(dir, ctx.home.roots.map((r) => r.path));
  const today = new Date(ctx.now ?? Date.now()).toISOString().slice(0, 10);
  const text = promotedText(target, first.entry, promotedBullets(models), today);
  const project_: ProposalFileInput = { version: state.version, target: 'project', root: target.dir, relPath: target.name, proposedContent: text, expectedBaseSha256: target.base === null ? null : sha256Text(target.base) };
  const note = [`Moves ${quote(first.entry.title, 60)} from ${state.version} ${state.file} into ${target.dir}/${target.name}: the rule is added there and the memory ${removed.length === 1 ? 'entry is' : `entries (${removed.length}) are`} removed, in one proposal. Reverting it restores both.`, sizeNote(target, text)].filter(Boolean).join(' ');
  return { files: [memoryFile(state, removalEdits(state.models, new Set(removed.map((m) => m.entry.id)))), project_], note, title: `Doctor: promote ${quote(first.entry.title, 60)} to ${target.dir}/${target.name}` };
}

async function forgetRepeats(ctx: FixContext, kept: EntryModel, members: readonly EntryModel[]): Promise<Proposal> {
  const { plans, skipped } = await planForgetMany(ctx.home, members.flatMap((m) => m.entry.threadIds));
  if (plans.length === 0) throw new StudioFailure('Invalid', `None of the ${members.length} repeated sessions can be forgotten: ${skipped[0]?.error.message ?? 'Codex knows none of them.'}`);
  const note = `Forgets ${plans.length} session${plans.length === 1 ? '' : 's'} whose raw memory repeats ${quote(kept.entry.title, 60)}, as Codex's own forget does; the first one stays.${skipped.length > 0 ? ` ${skipped.length} were skipped (${skipped[0]?.error.message})` : ''}`;
  return createProposal(ctx.db, { title: `Doctor: forget ${plans.length} repeats of ${quote(kept.entry.title, 60)}`, source: 'doctor', files: [], dbChanges: plans.flatMap((p) => p.changes), note, now: ctx.now });
}

async function duplicateFix(ctx: FixContext, finding: Finding, action: FixAction, project: string | undefined, cwds: ReadonlyMap<string, string | null>): Promise<Proposal> {
  const state = await readFileState(ctx.home, finding.version, finding.file, cwds);
  const { kept, members } = clusterOf(state, finding, ctx.home);
  if (action === 'forget') return forgetRepeats(ctx, kept, members);
  if (action === 'promote') {
    const p = await promotion(ctx, state, [kept, ...members], [kept, ...members], project);
    return createProposal(ctx.db, { ...p, source: 'doctor', now: ctx.now });
  }
  const edits = state.parsed.kind === 'memory_md' ? mergeTaskGroupEdits(state.parsed as MemoryMdParsed, state.models, kept, members) : state.parsed.kind === 'memory_summary' && kept.entry.kind === 'summary-entry' ? mergeSummaryEdits(state.parsed as MemorySummaryParsed, state.models, kept, members) : removalEdits(state.models, new Set(members.map((m) => m.entry.id)));
  const note = `${finding.message} The merge keeps line ${kept.entry.line} and carries over what only the others have; each hunk can be rejected on its own.`;
  return createProposal(ctx.db, { title: `Doctor: merge ${members.length + 1} copies of ${quote(kept.entry.title, 60)} (${state.version} ${state.file})`, source: 'doctor', files: [memoryFile(state, edits)], note, now: ctx.now });
}

async function retireFix(ctx: FixContext, finding: Finding): Promise<Proposal> {
  const state = await readFileState(ctx.home, finding.version, finding.file);
  const evidence = finding.evidence;
  let edits: TextEdit[];
  let what: string;
  if (evidence.kind === 'agents-overlap') {
    const [model] = modelsById(state, finding.entryIds, ctx.home) as [EntryModel];
    const lines = evidence.matches.map((m) => m.memoryLine);
    edits = lines.includes(model.entry.line) ? removalEdits(state.models, new Set([model.entry.id])) : lineRemovalEdits(lines);
    what = `what ${evidence.ruleFile} already says (${quote(model.entry.title, 50)})`;
  } else if (evidence.kind === 'oversize') {
    const whole = evidence.cut.filter((c) => !c.partial).map((c) => c.entryId);
    edits = removalEdits(state.models, new Set(modelsById(state, whole, ctx.home).map((m) => m.entry.id)));
    what = `the ${whole.length} entries Codex cuts from ${state.file}`;
  } else {
    const [model] = modelsById(state, finding.entryIds, ctx.home) as [EntryModel];
    edits = removalEdits(state.models, new Set([model.entry.id]));
    what = `stale ${quote(model.entry.title, 60)} (${state.version} ${state.file})`;
  }
  return createProposal(ctx.db, { title: `Doctor: retire ${what}`, source: 'doctor', files: [memoryFile(state, edits)], note: finding.message, now: ctx.now });
}

/** The finding as the doctor reports it now (it runs again): NotFound when the memory it was about changed. */
export async function findFinding(ctx: FixContext, findingId: string, options: DoctorRun = {}, report?: DoctorReport): Promise<Finding> {
  const current = report ?? (await runDoctor(ctx.home, { ...options, now: ctx.now ?? options.now, usage: ctx.usage ?? options.usage }));
  const finding = current.findings.find((f) => f.id === findingId);
  if (!finding) throw gone(`Finding ${findingId}`, ctx.home);
  return finding;
}

/** `doctor --fix ID`: the doctor runs again (the finding must still be there), then the fix becomes a pending proposal. */
export async function proposeFix(ctx: FixContext, fixId: string, options: DoctorRun & { project?: string } = {}): Promise<Proposal> {
  if (!FIX_ID.test(fixId)) throw new StudioFailure('Invalid', `"${fixId}" is not a fix id.`, { hint: 'Fix ids look like dup-1a2b3c4d5e6f.merge; the doctor lists them with each finding.' });
  const [findingId, action] = fixId.split('.') as [string, FixAction];
  const report = await runDoctor(ctx.home, { ...options, now: ctx.now ?? options.now, usage: ctx.usage ?? options.usage });
  const finding = await findFinding(ctx, findingId, options, report);
  if (!finding.fixes.some((f) => f.id === fixId)) {
    throw new StudioFailure('Invalid', `Finding ${findingId} offers no "${action}" fix; it offers ${finding.fixes.map((f) => f.id).join(', ') || 'none'}.`);
  }
  if (finding.kind === 'duplicate') return duplicateFix(ctx, finding, action, options.project, new Map(report.entries.map((e) => [e.id, e.cwd])));
  return retireFix(ctx, finding);
}

export interface PromoteInput {
  version: MemoryVersion;
  file: DoctorFile;
  /** The entry's id (from the doctor's report), or the line it starts on. */
  entryId?: string;
  line?: number;
  project?: string;
}

/** `promote`: one entry into its project's AGENTS.md, the entry removed from memory in the same proposal. */
export async function proposePromotion(ctx: FixContext, input: PromoteInput): Promise<Proposal> {
  const state = await readFileState(ctx.home, input.version, input.file);
  const model = state.models.find((m) => (input.entryId ? m.entry.id === input.entryId : m.entry.line <= (input.line ?? 0) && (input.line ?? 0) <= m.entry.endLine));
  if (!model) {
    throw new StudioFailure('NotFound', input.entryId ? `${input.version} ${input.file} has no entry ${input.entryId} now.` : `${input.version} ${input.file} has no entry at line ${input.line}.`, {
      hint: 'Give the line of a task group, summary entry or bullet (the doctor and the Files view show them), or run the doctor again for current entry ids.',
    });
  }
  const p = await promotion(ctx, state, [model], [model], input.project);
  return createProposal(ctx.db, { ...p, source: 'doctor', now: ctx.now });
}
