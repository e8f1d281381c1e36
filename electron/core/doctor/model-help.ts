// Optional model help for a finding, through the openai engine's settings: "explain", and "merge with the model".
import { group } from '../platform/indexed';
import type { DoctorExplanation, Finding } from '../../../shared/doctor';
import type { EngineSettings } from '../../../shared/consolidate';
import type { Proposal } from '../../../shared/review';
import { chatComplete } from '../consolidate/engines/openai';
import { StudioFailure } from '../platform/errors';
import { createProposal, sha256Text } from '../review';
import { applyTextEdits } from '../formats';
import { maskSecretsInText } from '../lint/mask-secrets';
import { entriesOf, type EntryModel } from '../review/blocks/entries';
import { removalEdits } from './fix-edits';
import { quote } from './finding-ids';
import { findFinding, readFileState, type FixContext } from './fixes';
import type { DoctorRun } from './report';

export interface ModelDeps {
  settings: EngineSettings;
  apiKey: string | null;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** What the model is shown of one entry: its own lines, numbered, clipped (a 5 MB handbook never leaves whole). */
const ENTRY_CHARS = 6000;
const MEMBERS_SHOWN = 6;

function entryText(model: EntryModel): string {
  const text = model.lines.map((l) => `${l.line}: ${l.text}`).join('\n');
  return text.length > ENTRY_CHARS ? `${text.slice(0, ENTRY_CHARS)}\n… (cut)` : text;
}

function evidenceText(finding: Finding, models: readonly EntryModel[]): string {
  const e = finding.evidence;
  const parts = [`Finding: ${finding.title}`, finding.message];
  if (e.kind === 'agents-overlap')
    for (const m of e.matches) parts.push(`Memory line ${m.memoryLine}: ${m.memoryText}\nRule ${e.ruleFile}:${m.ruleLine}: ${m.ruleText}`);
  if (e.kind === 'stale') parts.push(`Why stale: ${JSON.stringify(e.reasons)}`);
  if (e.kind === 'oversize') parts.push(`Cut entries: ${e.cut.map((c) => `${c.title} (lines ${c.line}-${c.endLine})`).join('; ')}`);
  for (const [i, m] of models.slice(0, MEMBERS_SHOWN + 1).entries())
    parts.push(`--- Entry ${i + 1} (${finding.file}) ---\n${entryText(m)}`);
  return parts.join('\n\n');
}

const run = (deps: ModelDeps) => ({
  settings: deps.settings,
  apiKey: deps.apiKey,
  env: deps.env,
  signal: deps.signal ?? new AbortController().signal,
  progress: () => undefined,
  log: () => undefined,
});

const EXPLAIN =
  `You review the long-term memory Codex CLI keeps for a developer (${'Markdown files written by its consolidation'}). ` +
  'A health check flagged something. In at most six sentences of plain text, say what the entries are about, whether the finding is right, ' +
  'and which fix you would pick (merge, retire, promote to AGENTS.md, or leave it), and why. Name lines by number. No Markdown headings.';

/** "Explain": the model's reading of one finding, with the entries it names. Nothing is changed. */
export async function explainFinding(
  ctx: FixContext,
  deps: ModelDeps,
  findingId: string,
  options: DoctorRun = {},
): Promise<DoctorExplanation> {
  const finding = await findFinding(ctx, findingId, options);
  const state = await readFileState(ctx.home, finding.version, finding.file);
  const models = finding.entryIds.map((id) => state.models.find((m) => m.entry.id === id)).filter((m): m is EntryModel => !!m);
  const answer = await chatComplete(run(deps), [
    { role: 'system', content: EXPLAIN },
    // An explanation needs no secret: the model sees them masked as the CLI prints them (a merge needs the real text).
    { role: 'user', content: maskSecretsInText(evidenceText(finding, models)) },
  ]);
  return { findingId, model: deps.settings.openai.model, text: answer.text.trim() };
}

const MERGE = (file: string) =>
  `You merge near-duplicate entries of Codex CLI's memory file ${file} into one. Answer with exactly one entry in the same Markdown format as the inputs ` +
  '(for MEMORY.md one "# Task Group:" block with its scope and applies_to lines, its tasks with ### rollout_summary_files and ### keywords, then its sections; ' +
  'for memory_summary.md one bullet with its indented sub-bullets). Keep every distinct fact, preference, rollout_summaries/ pointer, thread_id, date and keyword; ' +
  'drop only repetition. Use "-" bullets and no bold. Answer with the entry alone: no commentary, no code fence, no line numbers.';

function stripFence(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(trimmed);
  return (fenced ? group(fenced, 1) : trimmed).replace(/\r\n/g, '\n');
}

/** "Merge with the model": its merged entry replaces the kept one and the copies go, as a proposal to review. */
export async function modelMergeFinding(ctx: FixContext, deps: ModelDeps, findingId: string, options: DoctorRun = {}): Promise<Proposal> {
  const finding = await findFinding(ctx, findingId, options);
  if (finding.kind !== 'duplicate' || finding.evidence.kind !== 'duplicate' || !finding.modelMergeable) {
    throw new StudioFailure(
      'Invalid',
      `Only a duplicate cluster of MEMORY.md or memory_summary.md can be merged by the model; ${findingId} is ${finding.kind === 'duplicate' ? 'in raw_memories.md, which Codex rebuilds' : `a ${finding.kind} finding`}.`,
    );
  }
  const state = await readFileState(ctx.home, finding.version, finding.file);
  const models = finding.entryIds.map((id) => state.models.find((m) => m.entry.id === id)).filter((m): m is EntryModel => !!m);
  const [kept, ...members] = models as [EntryModel, ...EntryModel[]];
  if (!kept || members.length === 0)
    throw new StudioFailure('NotFound', `The entries of ${findingId} changed since the doctor ran; run it again.`);
  const answer = await chatComplete(run(deps), [
    { role: 'system', content: MERGE(finding.file) },
    { role: 'user', content: models.map((m, i) => `--- Entry ${i + 1} ---\n${m.lines.map((l) => l.text).join('\n')}`).join('\n\n') },
  ]);
  const merged = stripFence(answer.text);
  const check = entriesOf(
    finding.version,
    finding.file,
    `${finding.file === 'memory_summary.md' ? "## What's in Memory\n### scope\n" : ''}${merged}\n`,
  ).entries;
  if (check.length !== 1 || check[0]?.entry.kind !== kept.entry.kind) {
    throw new StudioFailure(
      'Invalid',
      `The answer of ${deps.settings.openai.model} is not one ${finding.file === 'MEMORY.md' ? 'task group' : 'summary entry'} (it has ${check.length} entries); nothing was proposed.`,
      { hint: 'Use the offline merge, or try again.' },
    );
  }
  const edits = [
    { line: kept.start + 1, endLine: kept.entry.endLine, text: merged },
    ...removalEdits(state.models, new Set(members.map((m) => m.entry.id))),
  ];
  const proposedContent = applyTextEdits(state.text, edits);
  return createProposal(ctx.db, {
    title: `Doctor: merge ${models.length} copies of ${quote(kept.entry.title, 60)} with ${deps.settings.openai.model}`,
    source: 'doctor',
    files: [{ version: state.version, root: state.root, relPath: state.file, proposedContent, expectedBaseSha256: sha256Text(state.text) }],
    note: `${deps.settings.openai.model} wrote the merged entry at line ${kept.entry.line}; the other ${members.length} are removed. Check that nothing was lost before applying.`,
    now: ctx.now,
  });
}
