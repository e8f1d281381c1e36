// The builtin engine's pure core: staged inputs in, memory_summary.md (and MEMORY.md for v1) plus a report out.
import { itemAt } from '../../../platform/indexed';
import type { MemoryVersion } from '../../../../../shared/domain';
import { DEFAULT_PROFILE_PREFIX, existingBlocks, existingSummary, itemText, type ExistingSummary } from './existing';
import { renderMemoryMd } from './memory-md';
import { mergeMemoryMd } from './memory-md-merge';
import { buildModel, cmp, normKey, ranked, type Model } from './model';
import { clipWords, noteFact } from './parse';
import { presence } from './memory-md-merge';
import { inputWarnings, redactOutputs } from './redact';
import { LEVELS, renderFitting, type Level, type SummarySource } from './summary';
import { mergeSummary, type SummaryMergeResult } from './summary-merge';
import { scopeViews } from './summary-scopes';
import type { BuiltinOutput, ImportInput, StagedInputs } from './types';

export { readStagedInputs } from './read';
export type { BuiltinOutput, BuiltinReport, StagedInputs } from './types';

/** The consolidation template's limit for the User Profile. */
const PROFILE_MAX_WORDS = 350;

function defaultProfile(model: Model): string {
  const names = [...new Set(model.entries.map((e) => e.scope))];
  const projects =
    names.length > 0 ? ` Memory covers ${names.length} project${names.length === 1 ? '' : 's'}: ${names.slice(0, 12).join(', ')}.` : '';
  return `${DEFAULT_PROFILE_PREFIX} Write a short description of yourself here; later runs keep it.${projects}`;
}

function importScope(input: ImportInput, model: Model): string {
  return input.cwd === null ? `imported ${input.key}` : (model.scopes.get(input.cwd) ?? input.cwd);
}

function importLines(input: ImportInput, level: Level, v1: boolean): string[] {
  const cwd = input.cwd ?? 'unknown';
  const ref = (f: string) => `${f} (cwd=${cwd}, source=external_agent_import)`;
  if (!v1) return input.files.slice(0, Math.max(1, level.importFiles)).map((f) => `- ${ref(f)}`);
  const topics = input.topics.length > 0 ? input.topics.slice(0, level.importFiles + 2).join(', ') : input.key;
  return [`- imported Claude Code memory (undated): ${topics.replace(/:(\s)/g, ' -$1')}`, `  - desc: ${ref(itemAt(input.files, 0))}`];
}

function extras(input: StagedInputs, model: Model): SummarySource['extras'] {
  const v1 = input.version === 'v1';
  const imports = input.imports.map((i) => ({
    heading: `${importScope(i, model)} (imported from Claude Code)`,
    files: i.files,
    lines: (level: Level) => importLines(i, level, v1),
  }));
  const exts = input.extensions.map((x) => ({
    heading: `${x.name} extension`,
    files: x.files,
    lines: (level: Level) => x.files.slice(0, Math.max(1, level.importFiles)).map((f) => `- ${f} (source=${x.name})`),
  }));
  return [...imports, ...exts];
}

interface SummaryPlan {
  src: SummarySource;
  existing: ExistingSummary;
}

/** What the summary is built from: kept user-authored parts, ranked signals from the inputs, note facts, scopes. */
function planSummary(input: StagedInputs, model: Model, version: MemoryVersion): SummaryPlan {
  const allPrefs = model.entries.flatMap((e) => e.preferences);
  const allTips = model.entries.flatMap((e) => e.knowledge);
  const notes = input.notes.slice().sort((a, b) => cmp(b.file, a.file));
  const noteFacts = [
    ...new Map(
      notes
        .map((n) => noteFact(n.text))
        .filter((f) => f !== '')
        .map((f) => [normKey(f), f] as const),
    ).values(),
  ];
  const existing = existingSummary(input.summary, new Set([...allPrefs, ...allTips, ...noteFacts].map(normKey)));
  const keptKeys = new Set([...existing.preferences, ...existing.tips].map((i) => normKey(itemText(i))));
  const src: SummarySource = {
    version,
    profile: existing.profile === null ? defaultProfile(model) : clipWords(existing.profile, PROFILE_MAX_WORDS),
    keptPreferences: existing.preferences,
    derivedPreferences: ranked(allPrefs, 12, keptKeys),
    noteFacts,
    keptTips: existing.tips,
    derivedTips: ranked(allTips, 8, new Set([...keptKeys, ...allPrefs.map(normKey)])),
    scopes: scopeViews(model.entries),
    extras: extras(input, model),
  };
  return { src, existing };
}

/**
 * MEMORY.md: merged into the existing file block by block when it has task groups (what no input affects stays
 * byte for byte), rendered whole otherwise.
 */
function memoryMdOf(input: StagedInputs, model: Model): { text: string; keptBlocks: number } {
  const imports = input.imports.map((i) => ({ input: i, scope: importScope(i, model) }));
  const skills = new Set(input.skills);
  if (input.memoryMd !== null && BLOCK_HEADER_LINE.test(input.memoryMd)) {
    return mergeMemoryMd({
      existing: input.memoryMd,
      entries: model.entries,
      skippedRollouts: input.skipped,
      notes: input.notes,
      imports,
      extensions: input.extensions,
      skills,
    });
  }
  return renderMemoryMd({
    entries: model.entries,
    notes: input.notes,
    imports,
    extensions: input.extensions,
    existing: existingBlocks(input.memoryMd),
    skills,
  });
}

const BLOCK_HEADER_LINE = /^#\s+Task Group:/m;

function skippedWarnings(input: StagedInputs): string[] {
  return input.skipped.map((f) => `rollout_summaries/${f} has no "thread_id:" header; it was left out.`);
}

function warningsOf(input: StagedInputs, existing: ExistingSummary, profileClipped: boolean): string[] {
  const warnings = skippedWarnings(input);
  if (existing.profile !== null && clipWords(existing.profile, PROFILE_MAX_WORDS) !== existing.profile) {
    warnings.push(`The User Profile was cut to the template's ${PROFILE_MAX_WORDS} words.`);
  }
  for (const title of existing.dropped)
    warnings.push(`The "## ${title}" section of the old memory_summary.md is not part of Codex's template and was not carried over.`);
  if (profileClipped) warnings.push('The User Profile was shortened so that the summary fits the budget.');
  return warnings;
}

interface SummaryOutcome {
  text: string;
  level: number;
  profileClipped: boolean;
  merged: SummaryMergeResult | null;
  notes: string[];
}

/**
 * memory_summary.md: merged into the existing file when it has an index to merge into (what no input affects stays
 * byte for byte), rebuilt from the inputs otherwise (Codex's template regenerates a file that is not its `v1` schema).
 */
function summaryOf(input: StagedInputs, model: Model, plan: SummaryPlan): SummaryOutcome {
  const { src } = plan;
  const top = LEVELS[0];
  if (input.summary !== null) {
    const allPrefs = model.entries.flatMap((e) => e.preferences);
    const preferences = ranked(allPrefs, top.prefs, new Set());
    const merged = mergeSummary({
      existing: input.summary,
      version: src.version,
      entries: model.entries,
      scopes: src.scopes,
      changes: input.workspaceChanges,
      present: presence({
        entries: model.entries,
        skippedRollouts: input.skipped,
        notes: input.notes,
        imports: input.imports.map((i) => ({ input: i, scope: '' })),
        extensions: input.extensions,
      }),
      defaultProfile: defaultProfile(model),
      preferences,
      tips: ranked(
        model.entries.flatMap((e) => e.knowledge),
        top.tips,
        new Set(allPrefs.map(normKey)),
      ),
      notes: input.notes.map((n) => ({ path: n.path, file: n.file, fact: noteFact(n.text) })),
      extras: src.extras.map((x) => ({ heading: x.heading, files: x.files, lines: x.lines(top) })),
      profileMaxWords: PROFILE_MAX_WORDS,
    });
    if (typeof merged !== 'string')
      return { text: merged.text, level: 0, profileClipped: merged.profileClipped, merged, notes: mergeNotes(merged) };
    if (merged === 'over-budget') {
      const rebuilt = renderFitting(src);
      return {
        ...rebuilt,
        merged: null,
        notes: ["memory_summary.md was rebuilt: it does not fit Codex's budget even with every entry of What's in Memory left out."],
      };
    }
  }
  return { ...renderFitting(src), merged: null, notes: [] };
}

function mergeNotes(m: SummaryMergeResult): string[] {
  const notes: string[] = [];
  if (m.profileClipped) notes.push(`The User Profile was cut to the template's ${PROFILE_MAX_WORDS} words.`);
  if (m.trimmed > 0)
    notes.push(
      `To fit Codex's budget, the ${m.trimmed} oldest entr${m.trimmed === 1 ? 'y' : 'ies'} of "What's in Memory" in memory_summary.md ${m.trimmed === 1 ? 'was' : 'were'} left out (whole entries; the rest is unchanged).`,
    );
  return notes;
}

/** Builds the consolidated files from `input`, every secret redacted; deterministic and idempotent on its own output. */
export function buildConsolidation(input: StagedInputs, version: MemoryVersion = input.version): BuiltinOutput {
  const model = buildModel(input);
  const plan = planSummary(input, model, version);
  const { src, existing } = plan;
  const summary = summaryOf(input, model, plan);
  const built = new Map<string, string>([['memory_summary.md', summary.text]]);
  const memory = version === 'v1' ? memoryMdOf(input, model) : null;
  if (memory) built.set('MEMORY.md', memory.text);
  const { files, warnings: redacted } = redactOutputs(built);
  const summaryText = files.get('memory_summary.md') as string;
  const memoryText = files.get('MEMORY.md') ?? null;
  const counts = countEntries(summaryText);
  const m = summary.merged;
  return {
    files,
    report: {
      version,
      rollouts: model.entries.length,
      scopes: src.scopes.length,
      recentEntries: counts.recent,
      olderEntries: counts.older,
      notes: input.notes.length,
      imports: input.imports.length,
      keptPreferences: existing.preferences.length,
      keptTips: existing.tips.length,
      keptProfile: existing.profile !== null,
      keptBlocks: memory?.keptBlocks ?? 0,
      summary: m
        ? { mode: 'merged', kept: m.kept, added: m.added, removed: m.removed, trimmed: m.trimmed }
        : { mode: 'rebuilt', kept: 0, added: 0, removed: 0, trimmed: 0 },
      compactionLevel: summary.level,
      summaryBytes: Buffer.byteLength(summaryText, 'utf8'),
      memoryMdBytes: memoryText === null ? null : Buffer.byteLength(memoryText, 'utf8'),
      warnings: [
        ...(m ? skippedWarnings(input) : warningsOf(input, existing, summary.profileClipped)),
        ...summary.notes,
        ...inputWarnings(input.redactedInputs),
        ...redacted,
      ],
    },
  };
}

/** Top-level entries under "What's in Memory", before and after "### Older Memory Topics". */
function countEntries(text: string): { recent: number; older: number } {
  const lines = text.split(/\r?\n/);
  const wim = lines.indexOf("## What's in Memory");
  const older = lines.indexOf('### Older Memory Topics');
  const count = (from: number, to: number) => lines.slice(from, to).filter((l) => l.startsWith('- ')).length;
  return wim < 0
    ? { recent: 0, older: 0 }
    : { recent: count(wim, older < 0 ? lines.length : older), older: older < 0 ? 0 : count(older, lines.length) };
}
