// Light, fast parsers for the builtin engine's inputs: rollout summaries, raw memories, notes and import topics.
import { group, itemAt } from '../../../platform/indexed';
import type { RawThreadInput, RolloutInput, RolloutTask } from './types';

const HEADER_LINE = /^([a-z_][a-z0-9_]*): ?(.*)$/;
const TASK_HEADING = /^#{2,3}\s+Task\s+\d+\s*:\s*(.*)$/;
const LABELS: Record<string, keyof Pick<RolloutTask, 'preferences' | 'knowledge' | 'failures'>> = {
  'preference signals:': 'preferences',
  'reusable knowledge:': 'knowledge',
  'failures and how to do differently:': 'failures',
};

/** LF line endings, no byte-order mark. */
export function normalizeText(text: string): string {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
}

/** One line of text: whitespace collapsed and trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cut `text` to at most `max` UTF-16 units at a word boundary (never inside a surrogate pair), with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  const cut = text.slice(0, end);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/** At most `max` words (whitespace collapsed, ` …` appended when cut); stable when applied again. */
export function clipWords(text: string, max: number): string {
  const words = text.trim().split(/\s+/);
  return words.length > max ? `${words.slice(0, max).join(' ')} …` : text;
}

/** Milliseconds of an RFC 3339 time, 0 when unparsable. */
export function timeOf(text: string): number {
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : 0;
}

/** `YYYY-MM-DD` (UTC) of a time, `undated` for 0. */
export function dayOf(ms: number): string {
  return ms > 0 ? new Date(ms).toISOString().slice(0, 10) : 'undated';
}

function readHeader(lines: string[]): { fields: Map<string, string>; end: number } {
  const fields = new Map<string, string>();
  let i = 0;
  for (; i < lines.length; i++) {
    const m = HEADER_LINE.exec(itemAt(lines, i));
    if (!m) break;
    const key = group(m, 1);
    if (!fields.has(key)) fields.set(key, group(m, 2).trim());
  }
  return { fields, end: i };
}

function newTask(title: string): RolloutTask {
  return { title: oneLine(title), outcome: null, preferences: [], knowledge: [], failures: [] };
}

/** `## Task n:` sections with `Outcome:` and the labelled bullet lists (v1 layout; v2 text usually has none). */
function readTasks(lines: string[], from: number): RolloutTask[] {
  const tasks: RolloutTask[] = [];
  let task: RolloutTask | null = null;
  let list: RolloutTask['preferences'] | null = null;
  for (const text of lines.slice(from)) {
    const line = text.trim();
    const heading = line.startsWith('#') ? TASK_HEADING.exec(line) : null;
    if (heading) {
      tasks.push((task = newTask(group(heading, 1))));
      list = null;
      continue;
    }
    if (!task) continue;
    const label = line.endsWith(':') ? LABELS[line.toLowerCase()] : undefined;
    if (label) list = task[label];
    else if (line.startsWith('- ') && list) list.push(oneLine(line.slice(2)));
    else if (/^outcome:/i.test(line) && task.outcome === null) task.outcome = oneLine(line.slice(8)).toLowerCase() || null;
    else if (line !== '' && !line.startsWith('- ')) list = null;
  }
  return tasks;
}

/** The summary's one sentence: its `# ` title, else its first non-empty, non-heading line. */
function sentenceOf(lines: string[], from: number): string {
  let fallback = '';
  for (const text of lines.slice(from)) {
    const line = text.trim();
    if (line === '') continue;
    const title = /^#\s+(.*)$/.exec(line);
    if (title) return oneLine(group(title, 1));
    if (fallback === '' && !line.startsWith('#')) fallback = oneLine(line.replace(/^[-*\d.]+\s+/, ''));
  }
  return fallback;
}

/** Parses a rollout summary file; null when it lacks Codex's `thread_id:` header. */
export function parseRollout(file: string, text: string): RolloutInput | null {
  const lines = normalizeText(text).split('\n');
  const { fields, end } = readHeader(lines);
  const threadId = fields.get('thread_id');
  if (!threadId) return null;
  const updatedAt = fields.get('updated_at') ?? '';
  return {
    file,
    threadId,
    updatedAt,
    updatedMs: timeOf(updatedAt),
    rolloutPath: fields.get('rollout_path') ?? '',
    cwd: (fields.get('cwd') ?? '').replace(/[\\/]+$/, ''),
    gitBranch: fields.get('git_branch') || null,
    sentence: sentenceOf(lines, end),
    tasks: readTasks(lines, end),
  };
}

function frontMatterOf(lines: string[], from: number, to: number): Map<string, string> {
  const fields = new Map<string, string>();
  let i = from;
  while (i < to && itemAt(lines, i).trim() === '') i++;
  if (i >= to || itemAt(lines, i).trim() !== '---') return fields;
  for (i++; i < to && itemAt(lines, i).trim() !== '---'; i++) {
    const m = HEADER_LINE.exec(itemAt(lines, i).trim());
    if (m && !fields.has(group(m, 1))) fields.set(group(m, 1), group(m, 2).trim());
  }
  return fields;
}

/** The front matter of every thread in `raw_memories.md`, by thread id. */
export function parseRawMemories(text: string): Map<string, RawThreadInput> {
  const lines = normalizeText(text).split('\n');
  const starts: Array<[number, string]> = [];
  lines.forEach((line, i) => {
    const m = /^## Thread `([^`]+)`\s*$/.exec(line);
    if (m) starts.push([i, group(m, 1)]);
  });
  const out = new Map<string, RawThreadInput>();
  starts.forEach(([start, threadId], k) => {
    const end = starts[k + 1]?.[0] ?? lines.length;
    let i = start + 1;
    while (i < end && HEADER_LINE.test(itemAt(lines, i))) i++;
    const fm = frontMatterOf(lines, i, end);
    const value = (key: string): string | null => fm.get(key) || null;
    const keywords = (fm.get('keywords') ?? '')
      .split(',')
      .map((k) => oneLine(k))
      .filter((k) => k !== '');
    if (!out.has(threadId)) {
      out.set(threadId, {
        threadId,
        description: value('description'),
        task: value('task'),
        taskGroup: value('task_group'),
        taskOutcome: value('task_outcome'),
        cwd: value('cwd'),
        keywords,
      });
    }
  });
  return out;
}

/** A fact from a note: its title as a label, then its body lines joined (markdown markers removed). */
export function noteFact(text: string, max = 240): string {
  const lines = normalizeText(text)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const title = lines.find((l) => /^#{1,6}\s/.test(l));
  const body = lines.filter((l) => !/^#{1,6}\s/.test(l) && !/^(```|---)/.test(l)).map((l) => l.replace(/^([-*+]|\d+[.)])\s+/, ''));
  const label = title ? oneLine(title.replace(/^#+\s*/, '')) : '';
  const content = oneLine(body.join(' ')) || label;
  const fact = label && content !== label ? `${label}: ${content}` : content;
  return clip(fact.replace(/\[ad-hoc note\]/gi, '').trim(), max);
}

/** `name` / `description` of an imported topic file's front matter, or the first heading. */
export function importTopicOf(text: string): string | null {
  const lines = normalizeText(text).split('\n');
  const fm = frontMatterOf(lines, 0, lines.length);
  const name = fm.get('name') || fm.get('description');
  if (name) return oneLine(name);
  const heading = lines.find((l) => /^#\s/.test(l));
  return heading ? oneLine(heading.slice(2)) : null;
}

export type WorkspaceLabel = 'A' | 'M' | 'D';

/**
 * The `## Status` bullets of `phase2_workspace_diff.md` (`- A path`, `- M path`, `- D path`, or `- none`): what changed
 * in the memory folder since Codex's last consolidation baseline, by root-relative path.
 */
export function parseWorkspaceStatus(text: string): Map<string, WorkspaceLabel> {
  const lines = normalizeText(text).split('\n');
  const out = new Map<string, WorkspaceLabel>();
  const start = lines.findIndex((l) => l.trim() === '## Status');
  if (start < 0) return out;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,6}\s/.test(line)) break;
    const m = /^- ([AMD]) (.+)$/.exec(line);
    const label = m?.[1];
    // The pattern admits only these three labels; the check states it for the type.
    if (m && (label === 'A' || label === 'M' || label === 'D')) out.set(group(m, 2), label);
  }
  return out;
}
