// The builtin engine's pure core: staged inputs in, memory_summary.md (and MEMORY.md for v1) plus a report out.
import type { MemoryVersion } from '../../../../../shared/domain';
import { DEFAULT_PROFILE_PREFIX, existingBlocks, existingSummary, itemText } from './existing';
import { renderMemoryMd } from './memory-md';
import { buildModel, cmp, normKey, ranked, type Model } from './model';
import { noteFact } from './parse';
import { renderFitting, type Level, type SummarySource } from './summary';
import { scopeViews } from './summary-scopes';
import type { BuiltinOutput, ImportInput, StagedInputs } from './types';

export { readStagedInputs } from './read';
export type { BuiltinOutput, BuiltinReport, StagedInputs } from './types';

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

/** Rebuilds the consolidated files from `input`; deterministic and idempotent on its own output. */
export function buildConsolidation(input: StagedInputs, version: MemoryVersion = input.version): BuiltinOutput {
  const model = buildModel(input);
  const allPrefs = model.entries.flatMap((e) => e.preferences);
  const allTips = model.entries.flatMap((e) => e.knowledge);
  const notes = input.notes.slice().sort((a, b) => cmp(b.file, a.file));
  const noteFacts = [...new Map(notes.map((n) => noteFact(n.text)).filter((f) => f !== '').map((f) => [normKey(f), f] as const)).values()];
  const derived = new Set([...allPrefs, ...allTips, ...noteFacts].map(normKey));
  const existing = existingSummary(input.summary, derived);
  const keptKeys = new Set([...existing.preferences, ...existing.tips].map((i) => normKey(itemText(i))));
  const src: SummarySource = {
    version,
    profile: existing.profile ?? defaultProfile(model),
    keptPreferences: existing.preferences,
    derivedPreferences: ranked(allPrefs, 12, keptKeys),
    noteFacts,
    keptTips: existing.tips,
    derivedTips: ranked(allTips, 8, new Set([...keptKeys, ...allPrefs.map(normKey)])),
    scopes: scopeViews(model.entries),
    extras: extras(input, model),
  };
  const summary = renderFitting(src);
  const files = new Map<string, string>([['memory_summary.md', summary.text]]);
  const warnings: string[] = [];
  if (summary.profileClipped) warnings.push('The User Profile was shortened so that the summary fits the budget.');
  let memoryMdBytes: number | null = null;
  let keptBlocks = 0;
  if (version === 'v1') {
    const memory = renderMemoryMd({
      entries: model.entries,
      notes: input.notes,
      imports: input.imports.map((i) => ({ input: i, scope: importScope(i, model) })),
      extensions: input.extensions,
      existing: existingBlocks(input.memoryMd),
      skills: new Set(input.skills),
    });
    files.set('MEMORY.md', memory.text);
    memoryMdBytes = Buffer.byteLength(memory.text, 'utf8');
    keptBlocks = memory.keptBlocks;
  }
  const counts = countEntries(summary.text);
  return {
    files,
    report: {
      version,
      rollouts: model.entries.length,
      scopes: new Set(model.entries.map((e) => e.scope)).size,
      recentEntries: counts.recent,
      olderEntries: counts.older,
      notes: input.notes.length,
      imports: input.imports.length,
      keptPreferences: existing.preferences.length,
      keptTips: existing.tips.length,
      keptProfile: existing.profile !== null,
      keptBlocks,
      compactionLevel: summary.level,
      summaryBytes: Buffer.byteLength(summary.text, 'utf8'),
      memoryMdBytes,
      warnings,
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
