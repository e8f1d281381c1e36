// Builds the v1 `MEMORY.md` handbook (task-group blocks) and records each thread's line range for citations.
import { itemAt } from '../platform/indexed';
import { fill } from './catalog';
import { isoDate, rfc3339 } from './ids';
import { outcomeNote } from './summaries';
import type { ThreadPlan } from './types';

/** A consolidated skill and the task group it belongs to. */
export interface SkillRef {
  name: string;
  group: string;
}

/** The imported (Claude Code) project whose block uses `### extension_resource_files`. */
export interface ImportedProject {
  cwd: string;
  projectName: string;
  resourceFiles: string[];
  keywords: string[];
  preferences: string[];
  knowledge: string[];
}

export interface MemoryMdResult {
  text: string;
  /** 1-based inclusive line range of each thread's `## Task` section. */
  taskLines: Map<string, [number, number]>;
  blockTitles: string[];
}

const BLOCK_SIZE = 8;

interface Block {
  title: string;
  threads: ThreadPlan[];
}

function newestFirst(a: ThreadPlan, b: ThreadPlan): number {
  return b.updatedMs - a.updatedMs || (a.id < b.id ? 1 : -1);
}

function blocksFor(threads: readonly ThreadPlan[]): Block[] {
  const byGroup = new Map<string, ThreadPlan[]>();
  for (const t of threads) {
    const key = `${t.project.key}\u0000${t.task.group}`;
    const list = byGroup.get(key) ?? [];
    list.push(t);
    byGroup.set(key, list);
  }
  const blocks: Block[] = [];
  for (const list of byGroup.values()) {
    list.sort(newestFirst);
    for (let i = 0; i < list.length; i += BLOCK_SIZE) {
      const chunk = list.slice(i, i + BLOCK_SIZE);
      const first = itemAt(chunk, 0);
      const last = itemAt(chunk, chunk.length - 1);
      const title =
        i === 0 ? first.task.group : `${first.task.group}, earlier work ${isoDate(last.updatedMs)} to ${isoDate(first.updatedMs)}`;
      blocks.push({ title, threads: chunk });
    }
  }
  blocks.sort((a, b) => newestFirst(itemAt(a.threads, 0), itemAt(b.threads, 0)));
  return blocks;
}

/** Bullets shared by several tasks: the same text gets all task refs. */
function refBullets(entries: ReadonlyArray<readonly [string, number]>): string[] {
  const refs = new Map<string, number[]>();
  for (const [text, n] of entries) {
    const list = refs.get(text) ?? [];
    list.push(n);
    refs.set(text, list);
  }
  return Array.from(refs, ([text, ns]) => `- ${text} ${ns.map((n) => `[Task ${n}]`).join('')}`);
}

/** One task's three bullets; heavy homes make them long and task-specific so none merge. */
function taskBullets(t: ThreadPlan, heavy: boolean): { preference: string; knowledge: string; failure: string } {
  const k = t.task;
  if (!heavy) return { preference: k.preference, knowledge: k.knowledge, failure: `symptom: \`${k.output}\` -> ${k.failure}` };
  return {
    preference: `${k.preference} (ticket #${t.ticket}, ${isoDate(t.updatedMs)}; the user asked: "${fill(k.ask, t.ticket)}")`,
    knowledge: `${k.knowledge}; context of #${t.ticket}: ${k.context} Steps that worked: ${k.steps.join('; ')}; evidence: \`${k.command}\` -> \`${k.output}\``,
    failure: `symptom: \`${k.output}\` -> ${k.failure} (seen ${isoDate(t.updatedMs)}; follow-up: "${k.followUp}")`,
  };
}

/** The task group of a project memory imported from Claude Code: undated, cited by its extension resources. */
function importedGroup(title: string, imported: ImportedProject): string[] {
  return [
    `# Task Group: ${title}`,
    '',
    `scope: project memory imported from Claude Code for ${imported.projectName}; undated, not observed in Codex sessions`,
    `applies_to: cwd=${imported.cwd}; reuse_rule=verify against the repository before relying on it`,
    '',
    `## Task 1: imported Claude Code project memory for ${imported.projectName}, uncertain`,
    '',
    '### extension_resource_files',
    '',
    ...imported.resourceFiles.map((f) => `- ${f} (cwd=${imported.cwd}, source=external_agent_import)`),
    '',
    '### keywords',
    '',
    `- ${imported.keywords.join(', ')}`,
    '',
    '## User preferences',
    '',
    ...imported.preferences.map((p) => `- ${p} [Task 1]`),
    '',
    '## Reusable knowledge',
    '',
    ...imported.knowledge.map((p) => `- ${p} [Task 1]`),
  ];
}

/** Render `MEMORY.md`. Heavy homes keep one bullet per task instead of merging them (a very large handbook). */
export function buildMemoryMd(
  threads: readonly ThreadPlan[],
  skills: readonly SkillRef[],
  imported: ImportedProject | null,
  heavy: boolean,
): MemoryMdResult {
  const lines: string[] = [];
  const taskLines = new Map<string, [number, number]>();
  const blockTitles: string[] = [];
  const push = (...xs: string[]): void => {
    for (const x of xs) lines.push(x);
  };

  for (const block of blocksFor(threads)) {
    const head = itemAt(block.threads, 0);
    blockTitles.push(block.title);
    if (lines.length > 0) push('');
    push(
      `# Task Group: ${block.title}`,
      '',
      `scope: ${head.task.scope}`,
      `applies_to: cwd=${head.project.cwd}; reuse_rule=${head.task.reuseRule}`,
    );
    const prefs: Array<[string, number]> = [];
    const knowledge: Array<[string, number]> = [];
    const failures: Array<[string, number]> = [];
    block.threads.forEach((t, i) => {
      const n = i + 1;
      const k = t.task;
      push('', `## Task ${n}: ${fill(k.title, t.ticket)}, ${t.outcome}`);
      const start = lines.length;
      push('', '### rollout_summary_files', '');
      push(
        `- rollout_summaries/${t.stem}.md (cwd=${t.project.cwd}, rollout_path=${t.rolloutPath}, updated_at=${rfc3339(t.sourceUpdatedAt)}, thread_id=${t.id}, ${outcomeNote(t.outcome)})`,
      );
      push('', '### keywords', '', `- ${k.keywords.join(', ')}`);
      taskLines.set(t.id, [start, lines.length]);
      const bullets = taskBullets(t, heavy);
      prefs.push([bullets.preference, n]);
      knowledge.push([bullets.knowledge, n]);
      failures.push([bullets.failure, n]);
    });
    push('', '## User preferences', '', ...refBullets(prefs));
    push('', '## Reusable knowledge', '', ...refBullets(knowledge));
    for (const skill of skills) if (skill.group === head.task.group) push(`- Related skill: skills/${skill.name}/SKILL.md`);
    push('', '## Failures and how to do differently', '', ...refBullets(failures));
  }

  if (imported) {
    const title = `${imported.projectName} conventions imported from Claude Code`;
    blockTitles.push(title);
    if (lines.length > 0) push('');
    push(...importedGroup(title, imported));
  }
  return { text: `${lines.join('\n')}\n`, taskLines, blockTitles };
}
