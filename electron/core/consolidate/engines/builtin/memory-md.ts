// Renders the v1 MEMORY.md handbook: task-group blocks per project and group, ad-hoc notes, imports, extensions.
import { group, itemAt } from '../../../platform/indexed';
import { appendAll } from '../../../platform/append';
import type { ExistingBlock } from './existing';
import { cmp, keywordsFrom, newestFirst, normKey, type Entry } from './model';
import { noteFact, oneLine } from './parse';
import type { ExtensionInput, ImportInput, NoteInput } from './types';

/** Tasks per block; bigger groups continue in "<group>, earlier work <from> to <to>" blocks. */
export const BLOCK_SIZE = 10;
export const EARLIER = /, earlier work \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/;

export interface MemoryMdSource {
  entries: readonly Entry[];
  notes: readonly NoteInput[];
  imports: ReadonlyArray<{ input: ImportInput; scope: string }>;
  extensions: readonly ExtensionInput[];
  existing: readonly ExistingBlock[];
  /** Skills that exist in staging. */
  skills: ReadonlySet<string>;
}

export interface Block {
  title: string;
  cwd: string;
  scopeName: string;
  group: string;
  entries: Entry[];
}

export function blocksOf(entries: readonly Entry[]): Block[] {
  const groups = new Map<string, Entry[]>();
  for (const e of entries) {
    const key = `${e.rollout.cwd}\u0000${e.group}`;
    const list = groups.get(key);
    if (list) list.push(e);
    else groups.set(key, [e]);
  }
  const blocks: Block[] = [];
  for (const list of groups.values()) {
    list.sort(newestFirst);
    for (let i = 0; i < list.length; i += BLOCK_SIZE) {
      const chunk = list.slice(i, i + BLOCK_SIZE);
      const first = itemAt(chunk, 0);
      const last = itemAt(chunk, chunk.length - 1);
      const title = i === 0 ? first.group : `${first.group}, earlier work ${last.day} to ${first.day}`;
      blocks.push({ title, cwd: first.rollout.cwd, scopeName: first.scope, group: first.group, entries: chunk });
    }
  }
  return blocks.sort((a, b) => newestFirst(itemAt(a.entries, 0), itemAt(b.entries, 0)) || cmp(a.title, b.title));
}

/** Bullets with task refs; the same text from several tasks is written once with all refs. */
export function refBullets(items: ReadonlyArray<readonly [string, number]>): string[] {
  const refs = new Map<string, { text: string; tasks: number[] }>();
  for (const [text, n] of items) {
    const key = normKey(text);
    if (key === '') continue;
    const r = refs.get(key);
    if (!r) refs.set(key, { text, tasks: [n] });
    else if (!r.tasks.includes(n)) r.tasks.push(n);
  }
  return [...refs.values()].map((r) => `- ${r.text} ${r.tasks.map((n) => `[Task ${n}]`).join('')}`);
}

function section(title: string, lines: string[]): string[] {
  return lines.length > 0 ? ['', `## ${title}`, '', ...lines] : [];
}

export function taskLines(e: Entry, n: number): string[] {
  const r = e.rollout;
  const note = r.gitBranch ? `outcome ${e.outcome} on branch ${r.gitBranch}` : `outcome ${e.outcome}`;
  return [
    '',
    `## Task ${n}: ${e.title}, ${e.outcome}`,
    '',
    '### rollout_summary_files',
    '',
    `- rollout_summaries/${r.file} (cwd=${r.cwd}, rollout_path=${r.rolloutPath}, updated_at=${r.updatedAt}, thread_id=${r.threadId}, ${note})`,
    '',
    '### keywords',
    '',
    `- ${e.keywords.join(', ')}`,
  ];
}

export function renderBlock(b: Block, prior: ExistingBlock | undefined, skills: ReadonlySet<string>): string[] {
  const scope = prior?.scope ?? `${b.group} in ${b.scopeName}`;
  const reuse = prior?.reuseRule ?? `verify against the current ${b.scopeName} checkout before reusing`;
  const out = [`# Task Group: ${b.title}`, '', `scope: ${scope}`, `applies_to: cwd=${b.cwd || 'unknown'}; reuse_rule=${reuse}`];
  const prefs: Array<[string, number]> = [];
  const knowledge: Array<[string, number]> = [];
  const failures: Array<[string, number]> = [];
  b.entries.forEach((e, i) => {
    appendAll(out, taskLines(e, i + 1));
    for (const p of e.preferences) prefs.push([p, i + 1]);
    for (const k of e.knowledge) knowledge.push([k, i + 1]);
    for (const f of e.failures) failures.push([f, i + 1]);
  });
  const related = (prior?.skills ?? []).filter((s) => skills.has(s)).map((s) => `- Related skill: ${s}`);
  appendAll(out, section('User preferences', refBullets(prefs)));
  appendAll(out, section('Reusable knowledge', [...refBullets(knowledge), ...related]));
  appendAll(out, section('Failures and how to do differently', refBullets(failures)));
  return out;
}

function noteDate(file: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T/.exec(file);
  return m ? group(m, 1) : 'undated';
}

export function notesBlock(notes: readonly NoteInput[]): string[] {
  if (notes.length === 0) return [];
  const out = [
    '# Task Group: ad-hoc notes from the user',
    '',
    'scope: facts the user explicitly asked Codex to remember, forget or correct; authoritative over other memories',
    'applies_to: cwd=any; reuse_rule=always applies; a newer note overrides an older one',
  ];
  notes.forEach((note, i) => {
    const slug = note.file.replace(/\.md$/, '').replace(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-?/, '') || note.file;
    out.push('', `## Task ${i + 1}: ad-hoc note "${slug}" of ${noteDate(note.file)}, success`, '', '### extension_resource_files', '');
    out.push(
      `- ${note.path} (source=ad_hoc, written=${noteDate(note.file)})`,
      '',
      '### keywords',
      '',
      `- ${[...keywordsFrom(slug.replace(/-/g, ' ')), 'ad-hoc note'].join(', ')}`,
    );
  });
  out.push(
    ...section(
      'User preferences',
      notes.map((n, i) => `- ${noteFact(n.text) || 'empty note'} [ad-hoc note] [Task ${i + 1}]`),
    ),
  );
  return out;
}

export function importBlock(input: ImportInput, scope: string): string[] {
  const cwd = input.cwd ?? 'unknown';
  const keywords = [...input.topics, 'Claude Code import'].map((k) => oneLine(k.replace(/,/g, ' ')));
  return [
    `# Task Group: ${scope} memory imported from Claude Code`,
    '',
    `scope: project memory imported from Claude Code (${input.key}); undated, not observed in Codex sessions`,
    `applies_to: cwd=${cwd}; reuse_rule=verify against the repository before relying on it`,
    '',
    `## Task 1: imported Claude Code project memory for ${scope}, uncertain`,
    '',
    '### extension_resource_files',
    '',
    ...input.files.map((f) => `- ${f} (cwd=${cwd}, source=external_agent_import)`),
    '',
    '### keywords',
    '',
    `- ${keywords.join(', ')}`,
  ];
}

export function extensionBlock(ext: ExtensionInput): string[] {
  return [
    `# Task Group: ${ext.name} extension resources`,
    '',
    `scope: resources provided by the ${ext.name} memory extension`,
    `applies_to: cwd=any; reuse_rule=read the extension's instructions.md before relying on them`,
    '',
    `## Task 1: ${ext.name} extension resources, uncertain`,
    '',
    '### extension_resource_files',
    '',
    ...ext.files.map((f) => `- ${f} (source=${ext.name})`),
    '',
    '### keywords',
    '',
    `- ${ext.name}, extension resources`,
  ];
}

/** MEMORY.md: notes first (authoritative), then rollout blocks freshest first, imports, extensions, kept hand-written blocks. */
export function renderMemoryMd(src: MemoryMdSource): { text: string; keptBlocks: number } {
  const prior = new Map<string, ExistingBlock>();
  for (const b of src.existing) if (!prior.has(b.title)) prior.set(b.title, b);
  const blocks: string[][] = [notesBlock(src.notes)];
  for (const b of blocksOf(src.entries))
    blocks.push(renderBlock(b, prior.get(b.title) ?? prior.get(b.title.replace(EARLIER, '')), src.skills));
  for (const { input, scope } of src.imports) blocks.push(importBlock(input, scope));
  for (const ext of src.extensions) blocks.push(extensionBlock(ext));
  const kept = src.existing.filter((b) => !b.generated && b.text !== '');
  for (const b of kept) blocks.push(b.text.split('\n'));
  const text = blocks
    .filter((b) => b.length > 0)
    .map((b) => b.join('\n'))
    .join('\n\n');
  return { text: text === '' ? '' : `${text}\n`, keptBlocks: kept.length };
}
