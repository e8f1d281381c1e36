// The builtin engine's view of the inputs: one entry per rollout summary with its project scope, day, topic and lessons.
import { group } from '../../../platform/indexed';
import { clip, dayOf, oneLine } from './parse';
import type { RawThreadInput, RolloutInput, StagedInputs } from './types';

export const OUTCOMES = ['success', 'partial', 'fail', 'uncertain'] as const;
const STOPWORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'from',
  'into',
  'that',
  'this',
  'when',
  'then',
  'than',
  'was',
  'were',
  'are',
  'not',
  'but',
  'all',
  'its',
  'our',
  'your',
  'after',
  'before',
  'about',
  'instead',
]);

export interface Entry {
  rollout: RolloutInput;
  scope: string;
  day: string;
  /** Short topic label (task title without ticket numbers), safe before a `: `. */
  topic: string;
  /** Task description for MEMORY.md (`## Task n: <title>, <outcome>`). */
  title: string;
  keywords: string[];
  group: string;
  outcome: string;
  /** The one sentence, without a trailing period. */
  sentence: string;
  preferences: string[];
  knowledge: string[];
  failures: string[];
}

/** Newest first; ties by thread id, then file name. */
export function newestFirst(a: Entry, b: Entry): number {
  const ra = a.rollout;
  const rb = b.rollout;
  return rb.updatedMs - ra.updatedMs || cmp(ra.threadId, rb.threadId) || cmp(ra.file, rb.file);
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const keyCache = new Map<string, string>();
const KEY_CACHE_MAX = 100_000;

/** Dedupe key of a bullet: case, whitespace, task refs, the note tag and trailing punctuation ignored (memoised). */
export function normKey(text: string): string {
  let key = keyCache.get(text);
  if (key !== undefined) return key;
  key = text
    .replace(/\[(?:Task\s+\d+|ad-hoc note)\]/gi, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s.;,]+$/, '')
    .trim()
    .toLowerCase();
  if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
  keyCache.set(text, key);
  return key;
}

/** The project name of a cwd: its last path segment (as the project lens's `projectName` reads it). */
export function projectName(cwd: string): string {
  const trimmed = cwd.replace(/[\\/]+$/, '');
  const name = trimmed.split(/[\\/]/).pop() ?? '';
  return name === '' ? trimmed : name;
}

/** Text safe as a summary topic label or heading: one line, no `: ` (the topic separator). */
export function safeLabel(text: string): string {
  return oneLine(text)
    .replace(/:(\s|$)/g, ' -$1')
    .trim();
}

/** Scope name per cwd: the last path segment, or the whole cwd when two cwds share that segment. */
export function scopeNames(cwds: Iterable<string>): Map<string, string> {
  const unique = [...new Set(cwds)].sort(cmp);
  const counts = new Map<string, number>();
  for (const cwd of unique) {
    const name = projectName(cwd);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  for (const cwd of unique) {
    const name = cwd === '' ? 'unknown project' : projectName(cwd);
    out.set(cwd, (counts.get(name) ?? 0) > 1 ? cwd : name);
  }
  return out;
}

/** Up to five distinct words of `text` worth searching for (three letters or more, no stopwords). */
export function keywordsFrom(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9][a-z0-9_.-]{2,}/g) ?? [];
  return [...new Set(words.filter((w) => !STOPWORDS.has(w)))].slice(0, 5);
}

/** The rollout slug Codex put in the file name (`<ts>-<hash4>-<slug>.md`), underscores as spaces; '' when none. */
export function slugOf(file: string): string {
  const m = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9A-Za-z]{4}-(.+)\.md$/.exec(file);
  return m ? oneLine(group(m, 1).replace(/_+/g, ' ')) : '';
}

function entryOf(r: RolloutInput, raw: RawThreadInput | undefined, scope: string): Entry {
  const first = r.tasks[0];
  const slug = slugOf(r.file);
  const title = oneLine(raw?.task ?? first?.title ?? '') || slug || clip(r.sentence.replace(/\.$/, ''), 80) || r.file.replace(/\.md$/, '');
  const topic = safeLabel(title.replace(/\s*\(#\d+\)/g, '').replace(/\s+#\d+\b/g, '')) || scope;
  const rawOutcome = (first?.outcome ?? raw?.taskOutcome ?? '').toLowerCase();
  const outcome = (OUTCOMES as readonly string[]).includes(rawOutcome) ? rawOutcome : 'uncertain';
  const keywords = raw && raw.keywords.length > 0 ? raw.keywords : keywordsFrom(topic);
  return {
    rollout: r,
    scope,
    day: dayOf(r.updatedMs),
    topic,
    title,
    keywords: keywords.length > 0 ? keywords : [scope],
    group: oneLine(raw?.taskGroup ?? '') || `${scope} sessions`,
    outcome,
    sentence: oneLine(r.sentence).replace(/\.$/, '') || title,
    preferences: r.tasks.flatMap((t) => t.preferences),
    knowledge: r.tasks.flatMap((t) => t.knowledge),
    failures: r.tasks.flatMap((t) => t.failures),
  };
}

export interface Model {
  entries: Entry[];
  /** Scope name of every cwd seen (rollouts and imports). */
  scopes: Map<string, string>;
}

/** Entries newest first, one per rollout summary file. */
export function buildModel(input: StagedInputs): Model {
  const scopes = scopeNames([...input.rollouts.map((r) => r.cwd), ...input.imports.flatMap((i) => (i.cwd === null ? [] : [i.cwd]))]);
  const entries = input.rollouts
    .map((r) => entryOf(r, input.raw.get(r.threadId), scopes.get(r.cwd) ?? 'unknown project'))
    .sort(newestFirst);
  return { entries, scopes };
}

/** Distinct texts ranked by how many entries carry them (then alphabetically), capped at `limit`. */
export function ranked(texts: readonly string[], limit: number, exclude: ReadonlySet<string>): string[] {
  const counts = new Map<string, { text: string; n: number }>();
  for (const text of texts) {
    const key = normKey(text);
    if (key === '' || exclude.has(key)) continue;
    const c = counts.get(key);
    if (c) c.n++;
    else counts.set(key, { text, n: 1 });
  }
  return [...counts.values()]
    .sort((a, b) => b.n - a.n || cmp(a.text, b.text))
    .slice(0, limit)
    .map((c) => c.text);
}
