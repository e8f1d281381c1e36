// The builtin engine's pure core: staged inputs in, memory_summary.md (and MEMORY.md for v1) plus a report out.
import type { MemoryVersion } from '../../../../../shared/domain';
import { DEFAULT_PROFILE_PREFIX, existingBlocks, existingSummary, itemText, type ExistingSummary } from './existing';
import { renderMemoryMd } from './memory-md';
import { mergeMemoryMd } from './memory-md-merge';
import { buildModel, cmp, normKey, ranked, type Model } from './model';
import { clipWords, noteFact } from './parse';
import { renderFitting, type Level, type SummarySource } from './summary';
import { scopeViews } from './summary-scopes';
import type { BuiltinOutput, ImportInput, StagedInputs } from './types';

export { readStagedInputs } from './read';
export type { BuiltinOutput, BuiltinReport, StagedInputs } from './types';

/** The consolidation template's limit for the User Profile. */
const PROFILE_MAX_WORDS = 350;

function defaultProfile(model: Model): string {
  const names = [...new Set(model.entries.map((e) => e.scope))];
  const projects = names.length > 0 ? ` Memory covers ${names.length} project${names.length === 1 ? '' : 's'}: ${names.slice(0, 12).join(', ')}.` : '';
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
  return [`- imported Claude Code memory (undated): ${topics.replace(/:(\s)/g, ' -$1')}`, `  - desc: ${ref(input.files[0] as string)}`];
}

function extras(input: StagedInputs, model: Model): SummarySource['extras'] {
  const v1 = input.version === 'v1';
  const imports = input.imports.map((i) => ({ heading: `${importScope(i, model)} (imported from Claude Code)`, lines: (level: Level) => importLines(i, level, v1) }));
  const exts = input.extensions.map((x) => ({
    heading: `${x.name} extension`,
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
  const noteFacts = [...new Map(notes.map((n) => noteFact(n.text)).filter((f) => f !== '').map((f) => [normKey(f), f] as const)).values()];
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
    return mergeMemoryMd({ existing: input.memoryMd, entries: model.entries, skippedRollouts: input.skipped, notes: input.notes, imports, extensions: input.extensions, skills });
  }
  return renderMemoryMd({ entries: model.entries, notes: input.notes, imports, extensions: input.extensions, existing: existingBlocks(input.memoryMd), skills });
}

const BLOCK_HEADER_LINE = /^#\s+Task Group:/m;

function warningsOf(input: StagedInputs, existing: ExistingSummary, profileClipped: boolean): string[] {
  const warnings = input.skipped.map((f) => `rollout_summaries/${f} has no "thread_id:" header; it was left out.`);
  if (existing.profile !== null && clipWords(existing.profile, PROFILE_MAX_WORDS) !== existing.profile) {
    warnings.push(`The User Profile was cut to the template's ${PROFILE_MAX_WORDS} words.`);
  }
  for (const title of existing.dropped) warnings.push(`The "## ${title}" section of the old memory_summary.md is not part of Codex's template and was not carried over.`);
  if (profileClipped) warnings.push('The User Profile was shortened so that the summary fits the budget.');
  return warnings;
}

/** Rebuilds the consolidated files from `input`; deterministic and idempotent on its own output. */
export function buildConsolidation(input: StagedInputs, version: MemoryVersion = input.version): BuiltinOutput {
  const model = buildModel(input);
  const { src, existing } = planSummary(input, model, version);
  const summary = renderFitting(src);
  const files = new Map<string, string>([['memory_summary.md', summary.text]]);
  const memory = version === 'v1' ? memoryMdOf(input, model) : null;
  if (memory) files.set('MEMORY.md', memory.text);
  const counts = countEntries(summary.text);
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
      compactionLevel: summary.level,
      summaryBytes: Buffer.byteLength(summary.text, 'utf8'),
      memoryMdBytes: memory ? Buffer.byteLength(memory.text, 'utf8') : null,
      warnings: warningsOf(input, existing, summary.profileClipped),
    },
  };
}

/** Top-level entries under "What's in Memory", before and after "### Older Memory Topics". */
function countEntries(text: string): { recent: number; older: number } {
  const lines = text.split('\n');
  const wim = lines.indexOf("## What's in Memory");
  const older = lines.indexOf('### Older Memory Topics');
  const count = (from: number, to: number) => lines.slice(from, to).filter((l) => l.startsWith('- ')).length;
  return wim < 0 ? { recent: 0, older: 0 } : { recent: count(wim, older < 0 ? lines.length : older), older: older < 0 ? 0 : count(older, lines.length) };
}
