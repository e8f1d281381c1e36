// Stage-1 outputs (rollout summaries and raw memories) and the files Codex renders from them.
import { fill } from './catalog';
import { rfc3339 } from './ids';
import type { Outcome, ThreadPlan } from './types';

const outcomeNotes: Record<Outcome, string> = {
  success: 'the fix was verified by the user',
  partial: 'the main issue was fixed; a follow-up remains open',
  fail: 'the attempt did not fix the issue; the user took over',
  uncertain: 'the change was made but not verified before the session ended',
};

/** One sentence for the thread, used in summaries and pointers. */
export function threadSentence(t: ThreadPlan): string {
  const summary = fill(t.task.summary, t.ticket);
  const bare = summary.replace(/\.$/, '');
  switch (t.outcome) {
    case 'success':
      return summary;
    case 'partial':
      return `${bare}; a follow-up remains open.`;
    case 'fail':
      return `Attempted without success: ${bare.charAt(0).toLowerCase()}${bare.slice(1)}.`;
    case 'uncertain':
      return `${bare} (not verified).`;
  }
}

export function outcomeNote(outcome: Outcome): string {
  return outcomeNotes[outcome];
}

/** The v1 `rollout_summary` column: the stage-1 model's structured summary. */
export function rolloutSummaryV1(t: ThreadPlan, heavy: boolean): string {
  const k = t.task;
  const lines: string[] = [
    `# ${threadSentence(t)}`,
    '',
    `Rollout context: ${k.context} Ticket #${t.ticket}.`,
    '',
    `## Task 1: ${fill(k.title, t.ticket)}`,
    `Outcome: ${t.outcome}`,
    '',
    'Preference signals:',
    `- ${k.preference}`,
    '',
    'Key steps:',
    ...k.steps.map((s, i) => `- ${s} [${i + 1}]`),
    '',
    'Failures and how to do differently:',
    `- ${k.failure}`,
    '',
    'Reusable knowledge:',
    `- ${k.knowledge}`,
  ];
  if (heavy) lines.push(`- outcome note: ${outcomeNote(t.outcome)}; keywords: ${k.keywords.join(', ')}`);
  lines.push('', 'References:', `- [1] \`${k.command}\` -> \`${k.output}\``);
  k.steps.slice(1).forEach((s, i) => lines.push(`- [${i + 2}] ${s}`));
  return lines.join('\n');
}

/** The v2 `rollout_summary` column: a free-form, faithful task history (capped at 9,000 bytes by Codex). */
export function rolloutSummaryV2(t: ThreadPlan): string {
  const k = t.task;
  const lines: string[] = [
    `# ${threadSentence(t)}`,
    '',
    '## What happened',
    `1. The user asked: "${fill(k.ask, t.ticket)}"`,
    ...k.steps.map((s, i) => `${i + 2}. Codex ${s}.`),
    `${k.steps.length + 2}. The user added: "${k.followUp}"`,
    '',
    '## Outcome',
    `${t.outcome}: ${outcomeNote(t.outcome)}.`,
    '',
    '## Worth remembering',
    `- ${k.knowledge}`,
    `- ${k.preference}`,
    `- evidence: \`${k.command}\` printed \`${k.output}\``,
  ];
  if (t.gitBranch) lines.push(`- branch: ${t.gitBranch}`);
  return lines.join('\n');
}

/** The v1 `raw_memory` column: YAML-like front matter plus one task block. */
export function rawMemory(t: ThreadPlan): string {
  const k = t.task;
  const title = fill(k.title, t.ticket);
  return [
    '---',
    `description: ${threadSentence(t)} User signal: ${k.preference.split(' -> ')[0]}`,
    `task: ${title}`,
    `task_group: ${k.group}`,
    `task_outcome: ${t.outcome}`,
    `cwd: ${t.project.cwd}`,
    `keywords: ${k.keywords.join(', ')}`,
    '---',
    '',
    `### Task 1: ${title}`,
    `task: ${title}`,
    `task_group: ${k.group}`,
    `task_outcome: ${t.outcome}`,
    '',
    'Preference signals:',
    `- ${k.preference}`,
    '',
    'Reusable knowledge:',
    `- ${k.knowledge}`,
    '',
    'Failures and how to do differently:',
    `- ${k.failure}`,
    '',
    'References:',
    `- \`${k.command}\``,
    '',
  ].join('\n');
}

/** `rollout_summaries/<stem>.md` exactly as `write_rollout_summary_for_thread` renders it. */
export function rolloutSummaryFile(t: ThreadPlan, summary: string): string {
  let body = `thread_id: ${t.id}\n`;
  body += `updated_at: ${rfc3339(t.sourceUpdatedAt)}\n`;
  body += `rollout_path: ${t.rolloutPath}\n`;
  body += `cwd: ${t.project.cwd}\n`;
  if (t.gitBranch !== null) body += `git_branch: ${t.gitBranch}\n`;
  return `${body}\n${summary}\n`;
}

/** `raw_memories.md` as `rebuild_raw_memories_file` renders it (rows in thread_id ascending order). */
export function rawMemoriesFile(rows: ReadonlyArray<{ thread: ThreadPlan; rawMemory: string }>): string {
  const parts: string[] = ['# Raw Memories\n\n'];
  if (rows.length === 0) {
    parts.push('No raw memories yet.\n');
    return parts.join('');
  }
  parts.push('Merged stage-1 raw memories (stable ascending thread-id order):\n\n');
  const sorted = rows.slice().sort((a, b) => (a.thread.id < b.thread.id ? -1 : a.thread.id > b.thread.id ? 1 : 0));
  for (const { thread: t, rawMemory: raw } of sorted) {
    parts.push(
      `## Thread \`${t.id}\`\n`,
      `updated_at: ${rfc3339(t.sourceUpdatedAt)}\n`,
      `cwd: ${t.project.cwd}\n`,
      `rollout_path: ${t.rolloutPath}\n`,
      `rollout_summary_file: ${t.stem}.md\n`,
      '\n',
      raw.trim(),
      '\n\n',
    );
  }
  return parts.join('');
}

/** 1-based inclusive line range of the first line equal to `heading` through the line before the next blank. */
export function sectionRange(text: string, heading: string): [number, number] | null {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return null;
  let end = start;
  while (end + 1 < lines.length && (lines[end + 1] ?? '') !== '') end++;
  return [start + 1, end + 1];
}
