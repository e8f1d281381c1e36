// Builds `memory_summary.md` for v1 (rich index) and v2 (pointer lines, under 10,000 bytes).
import { isoDate } from './ids';
import { threadSentence } from './summaries';
import type { TaskTemplate, ThreadPlan } from './types';

export const V2_SUMMARY_LIMIT = 10_000;

const PROFILE = [
  'Dana is a full-stack developer who works mostly from the Codex CLI on Linux (zsh, tmux, Wayland).',
  'Main repositories live under /home/dana/src: invoice-svc (Python/FastAPI billing service), webapp',
  '(TypeScript/React front end), tiles-rs (Rust map tile renderer), infra (Terraform on AWS), data-pipeline',
  '(Airflow ingestion with a Japanese partner) and dotfiles. Dana reviews diffs carefully, prefers small',
  'focused changes, asks for explanations before edits and writes product copy in German and English.',
].join(' ');

/** Topic label for a template: its title without the ticket placeholder. */
export function topicOf(task: TaskTemplate): string {
  return task.title
    .replace(/\s*\(#\{n\}\)/, '')
    .replace(/\.\{n\}/, '.x')
    .replace(/\{n\}/, '');
}

interface ProjectGroup {
  name: string;
  threads: ThreadPlan[];
}

function byProject(threads: readonly ThreadPlan[]): ProjectGroup[] {
  const map = new Map<string, ThreadPlan[]>();
  for (const t of threads) {
    const list = map.get(t.project.name) ?? [];
    list.push(t);
    map.set(t.project.name, list);
  }
  const groups = Array.from(map, ([name, list]) => ({
    name,
    threads: list.sort((a, b) => b.updatedMs - a.updatedMs || (a.id < b.id ? 1 : -1)),
  }));
  return groups.sort((a, b) => (b.threads[0]?.updatedMs ?? 0) - (a.threads[0]?.updatedMs ?? 0));
}

/** The `n` most recent memory days (UTC dates with at least one thread), across all projects. */
function recentDays(threads: readonly ThreadPlan[], n: number): Set<string> {
  const days = Array.from(new Set(threads.map((t) => isoDate(t.updatedMs))))
    .sort()
    .reverse();
  return new Set(days.slice(0, n));
}

/** Split a project's threads (newest first) into the recent-window days and the older rest. */
function splitRecent(threads: readonly ThreadPlan[], window: Set<string>): { recent: Map<string, ThreadPlan[]>; older: ThreadPlan[] } {
  const recent = new Map<string, ThreadPlan[]>();
  const older: ThreadPlan[] = [];
  for (const t of threads) {
    const day = isoDate(t.updatedMs);
    if (!window.has(day)) {
      older.push(t);
      continue;
    }
    const list = recent.get(day) ?? [];
    list.push(t);
    recent.set(day, list);
  }
  return { recent, older };
}

/** One thread per template, keeping the first (newest). */
function distinctTasks(threads: readonly ThreadPlan[]): ThreadPlan[] {
  const seen = new Set<string>();
  return threads.filter((t) => (seen.has(t.task.key) ? false : (seen.add(t.task.key), true)));
}

function ranked(threads: readonly ThreadPlan[], pick: (t: TaskTemplate) => string, limit: number): string[] {
  const counts = new Map<string, number>();
  for (const t of threads) counts.set(pick(t.task), (counts.get(pick(t.task)) ?? 0) + 1);
  return Array.from(counts)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([text]) => text);
}

export interface SummaryInputs {
  threads: readonly ThreadPlan[];
  /** Facts derived from ad-hoc notes; rendered with the `[ad-hoc note]` tag. */
  noteFacts: readonly string[];
  /** Name of the imported Claude Code project, if any (routed under Older Memory Topics). */
  importedProject: { name: string; keywords: string[] } | null;
}

/** v1 `memory_summary.md`: first line `v1`, four sections, `###` project / `####` day groups, older topics. */
export function buildSummaryV1(input: SummaryInputs): string {
  const out: string[] = ['v1', '', '## User Profile', '', PROFILE, '', '## User preferences', ''];
  for (const p of ranked(input.threads, (k) => k.preference, 8)) out.push(`- ${p}`);
  for (const f of input.noteFacts) out.push(`- ${f} [ad-hoc note]`);
  out.push('', '## General Tips', '');
  for (const k of ranked(input.threads, (k) => k.knowledge, 6)) out.push(`- ${k}`);
  out.push('', "## What's in Memory", '');
  const older: Array<[string, ThreadPlan[]]> = [];
  const window = recentDays(input.threads, 3);
  for (const group of byProject(input.threads)) {
    const split = splitRecent(group.threads, window);
    if (split.recent.size === 0) {
      older.push([group.name, distinctTasks(split.older).slice(0, 6)]);
      continue;
    }
    out.push(`### ${group.name}`, '');
    for (const [day, list] of split.recent) {
      out.push(`#### ${day}`, '');
      for (const t of distinctTasks(list)) {
        out.push(
          `- ${topicOf(t.task)}: ${t.task.keywords.join(', ')}`,
          `  - desc: ${threadSentence(t)} (rollout_summaries/${t.stem}.md)`,
          `  - learnings: ${t.task.knowledge}`,
        );
      }
      out.push('');
    }
    if (split.older.length > 0) older.push([group.name, distinctTasks(split.older).slice(0, 6)]);
  }
  out.push('### Older Memory Topics', '');
  for (const [name, list] of older) {
    out.push(`#### ${name}`, '');
    for (const t of list) {
      out.push(
        `- ${topicOf(t.task)}: ${t.task.keywords.slice(0, 3).join(', ')}`,
        `  - desc: ${threadSentence(t)} (last seen ${isoDate(t.updatedMs)})`,
      );
    }
    out.push('');
  }
  if (input.importedProject) {
    const p = input.importedProject;
    out.push(
      `#### ${p.name} (imported from Claude Code)`,
      '',
      `- imported project conventions: ${p.keywords.join(', ')}`,
      `  - desc: undated; see the "${p.name} conventions imported from Claude Code" block in MEMORY.md`,
      '',
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function pointer(t: ThreadPlan): string[] {
  const sentence = threadSentence(t).replace(/\.$/, '');
  const sub = t.gitBranch !== null ? `  - branch: ${t.gitBranch}` : `  - command: \`${t.task.command}\``;
  return [`- rollout_summaries/${t.stem}.md — ${sentence}; thread_id=${t.id}`, sub];
}

function renderV2(input: SummaryInputs, days: number, perDay: number, olderPerProject: number): string {
  const out: string[] = ['v1', '## User Profile', PROFILE, '## User preferences'];
  for (const p of ranked(input.threads, (k) => k.preference, 5)) out.push(`- ${p}`);
  for (const f of input.noteFacts) out.push(`- ${f} [ad-hoc note]`);
  out.push('## General Tips');
  for (const k of ranked(input.threads, (k) => k.knowledge, 4)) out.push(`- ${k}`);
  out.push("## What's in Memory");
  const older: Array<[string, ThreadPlan[]]> = [];
  const window = recentDays(input.threads, days);
  for (const group of byProject(input.threads)) {
    const split = splitRecent(group.threads, window);
    if (olderPerProject > 0 && split.older.length > 0) older.push([group.name, split.older.slice(0, olderPerProject)]);
    if (split.recent.size === 0) continue;
    out.push(`### ${group.name}`);
    for (const [day, list] of split.recent) {
      out.push(`#### ${day}`);
      for (const t of list.slice(0, perDay)) out.push(...pointer(t));
    }
  }
  out.push('### Older Memory Topics');
  for (const [name, list] of older) {
    out.push(`#### ${name}`);
    for (const t of list) out.push(...pointer(t));
  }
  return `${out.join('\n')}\n`;
}

/** v2 `memory_summary.md`: valid per `is_valid_v2_summary` (first line `v1`, four headings, < 10,000 bytes). */
export function buildSummaryV2(input: SummaryInputs): string {
  const attempts: Array<[number, number, number]> = [
    [3, 2, 2],
    [2, 2, 2],
    [2, 1, 1],
    [1, 1, 1],
    [1, 1, 0],
  ];
  let text = '';
  for (const [days, perDay, olderN] of attempts) {
    text = renderV2(input, days, perDay, olderN);
    if (Buffer.byteLength(text, 'utf8') < V2_SUMMARY_LIMIT - 500) return text;
  }
  if (Buffer.byteLength(text, 'utf8') >= V2_SUMMARY_LIMIT) throw new Error('v2 memory summary does not fit in 10,000 bytes');
  return text;
}
