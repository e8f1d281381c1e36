// Parser for the v1 MEMORY.md handbook: task-group blocks, tasks with their file bullets and keywords, block sections.
import { group } from '../platform/indexed';
import type { MemoryBlock, MemoryBlockSection, MemoryRefFile, MemoryTask } from '../../../shared/formats';
import { referencedPath, type ReferencedKind } from '../codex/references';
import type { Body, ParseContext } from './context';
import { hasOwn, reportUnclosedFences, setOwn } from './context';
import { checkBlock } from './memory-md-checks';
import { bulletOf, headingOf, isBlank } from './markdown';
import { checkDashBullets, checkNoBold } from './style';

const TASK_GROUP = /^Task Group:\s*(.*)$/;
const TASK = /^Task\s+(\d+)\s*:\s*(.*)$/;
const SKILL_REF = /skills\/[^\s/`'"()[\]]+\/SKILL\.md/g;

type Mode = 'header' | 'task' | 'rollout' | 'extension' | 'keywords' | 'section' | 'other';

interface State {
  blocks: MemoryBlock[];
  block: MemoryBlock | null;
  task: MemoryTask | null;
  section: MemoryBlockSection | null;
  mode: Mode;
  keywordBullets: number;
  preambleReported: boolean;
}

/** `- <file> (k=v, k=v, <note>)`: fields are the leading `key=value` parts, the note is everything after them. */
export function parseRefBullet(text: string, line: number, kind: ReferencedKind = 'rollout-summary'): MemoryRefFile {
  const trimmed = text.trim();
  const open = trimmed.indexOf(' (');
  if (open < 0 || !trimmed.endsWith(')'))
    return { file: trimmed, path: referencedPath(trimmed, kind), fields: {}, note: '', line, endLine: line };
  const fields: Record<string, string> = {};
  const noteParts: string[] = [];
  for (const part of trimmed.slice(open + 2, -1).split(', ')) {
    const m = /^([A-Za-z_][\w-]*)=(.*)$/s.exec(part);
    if (m && noteParts.length === 0 && !hasOwn(fields, group(m, 1))) setOwn(fields, group(m, 1), group(m, 2));
    else noteParts.push(part);
  }
  const file = trimmed.slice(0, open).trim();
  return { file, path: referencedPath(file, kind), fields, note: noteParts.join(', ').trim(), line, endLine: line };
}

function parseAppliesTo(raw: string, line: number): MemoryBlock['appliesTo'] {
  const cwd = /(?:^|;\s*)cwd=(.*?)(?=;\s*reuse_rule=|$)/.exec(raw);
  const reuse = /(?:^|;\s*)reuse_rule=(.*)$/.exec(raw);
  return { cwd: cwd ? group(cwd, 1).trim() : null, reuseRule: reuse ? group(reuse, 1).trim() : null, raw, line };
}

function startBlock(st: State, title: string, line: number): void {
  st.block = {
    title: title.trim(),
    line,
    endLine: line,
    scope: null,
    appliesTo: null,
    tasks: [],
    keywords: [],
    sections: [],
    skillRefs: [],
  };
  st.blocks.push(st.block);
  st.task = null;
  st.section = null;
  st.mode = 'header';
}

function onLevel2(ctx: ParseContext, st: State, block: MemoryBlock, title: string, line: number): void {
  const task = TASK.exec(title.trim());
  st.section = null;
  st.task = null;
  if (task || /^Task\b/i.test(title.trim())) {
    if (!task) ctx.diags.warning('template/task-heading', line, line, `"## ${title}" should read "## Task <n>: <description, outcome>".`);
    if (block.sections.length > 0)
      ctx.diags.warning(
        'template/section-order',
        line,
        line,
        'Task sections come first in a block, before "## User preferences", "## Reusable knowledge" and "## Failures and how to do differently".',
      );
    st.task = {
      number: task ? Number(task[1]) : null,
      title: task ? group(task, 2).trim() : title.trim(),
      line,
      endLine: line,
      rolloutSummaryFiles: [],
      extensionResourceFiles: [],
      keywords: [],
    };
    block.tasks.push(st.task);
    st.mode = 'task';
    st.keywordBullets = 0;
    return;
  }
  st.section = { title: title.trim(), line, endLine: line, bullets: [] };
  block.sections.push(st.section);
  st.mode = 'section';
}

function onLevel3(ctx: ParseContext, st: State, title: string, line: number): void {
  const name = title.trim();
  if (st.task && (name === 'rollout_summary_files' || name === 'extension_resource_files' || name === 'keywords')) {
    st.mode = name === 'rollout_summary_files' ? 'rollout' : name === 'extension_resource_files' ? 'extension' : 'keywords';
    return;
  }
  ctx.diags.info(
    'template/unknown-section',
    line,
    line,
    `"### ${name}" is not part of the MEMORY.md template (tasks have "### rollout_summary_files" or "### extension_resource_files", and "### keywords").`,
  );
  st.mode = st.task ? 'other' : st.mode;
}

function onHeadingLine(ctx: ParseContext, st: State, level: number, title: string, line: number): void {
  if (level === 1) {
    const taskGroup = TASK_GROUP.exec(title.trim());
    if (taskGroup) return startBlock(st, group(taskGroup, 1), line);
    ctx.diags.warning(
      'template/block-heading',
      line,
      line,
      `"# ${title}" is not a block heading; MEMORY.md blocks start with "# Task Group: <name>".`,
    );
    return;
  }
  if (!st.block) return;
  if (level === 2) onLevel2(ctx, st, st.block, title, line);
  else if (level === 3) onLevel3(ctx, st, title, line);
}

function onBullet(ctx: ParseContext, st: State, text: string, line: number): void {
  const task = st.task;
  if (task && (st.mode === 'rollout' || st.mode === 'extension')) {
    const ref = parseRefBullet(text, line, st.mode === 'rollout' ? 'rollout-summary' : 'extension-resource');
    const prefix = st.mode === 'rollout' ? 'rollout_summaries/' : 'extensions/';
    if (!ref.file.startsWith(prefix) || !ref.file.endsWith('.md')) {
      ctx.diags.warning(
        'template/file-bullet',
        line,
        line,
        `Expected "- ${prefix}<file>.md (${st.mode === 'rollout' ? 'cwd=…, rollout_path=…, updated_at=…, thread_id=…, <note>' : 'cwd=…, source=…'})".`,
      );
    }
    (st.mode === 'rollout' ? task.rolloutSummaryFiles : task.extensionResourceFiles).push(ref);
  } else if (task && st.mode === 'keywords') {
    st.keywordBullets++;
    if (st.keywordBullets === 2)
      ctx.diags.warning('template/keywords-format', line, line, '"### keywords" holds a single comma-separated bullet line.');
    task.keywords.push(
      ...text
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== ''),
    );
  } else if (st.section) {
    const taskRefs = Array.from(text.matchAll(/\[Task\s+(\d+)\]/g), (m) => Number(m[1]));
    st.section.bullets.push({ text: text.trim(), taskRefs, line, endLine: line });
    for (const m of text.matchAll(SKILL_REF)) if (st.block && !st.block.skillRefs.includes(m[0])) st.block.skillRefs.push(m[0]);
  }
}

function onText(ctx: ParseContext, st: State, text: string, line: number): void {
  const block = st.block;
  if (!block) {
    if (!st.preambleReported)
      ctx.diags.warning('template/content-before-block', line, line, 'Text before the first "# Task Group:" heading belongs to no block.');
    st.preambleReported = true;
    return;
  }
  if (st.mode === 'header') {
    const scope = /^scope:\s*(.*)$/.exec(text.trim());
    const applies = /^applies_to:\s*(.*)$/.exec(text.trim());
    if (scope && block.scope === null) block.scope = group(scope, 1).trim();
    else if (applies && block.appliesTo === null) block.appliesTo = parseAppliesTo(group(applies, 1).trim(), line);
    return;
  }
  // A continuation line of the last bullet.
  const bullets = st.section?.bullets;
  const last = bullets && bullets[bullets.length - 1];
  if (last && /^\s/.test(text)) last.endLine = line;
}

function touch(st: State, line: number): void {
  if (st.block) st.block.endLine = line;
  if (st.task) st.task.endLine = line;
  if (st.section) st.section.endLine = line;
}

export function parseMemoryMd(ctx: ParseContext): Body<'memory_md'> {
  const scan = ctx.fences(/^# Task Group:/);
  reportUnclosedFences(ctx, scan);
  const st: State = { blocks: [], block: null, task: null, section: null, mode: 'header', keywordBullets: 0, preambleReported: false };
  for (const [i, text] of ctx.lines.entries()) {
    const line = i + 1;
    if (scan.mask[i]) {
      touch(st, line);
      continue;
    }
    if (isBlank(text)) continue;
    const h = headingOf(text);
    const b = h ? null : bulletOf(text);
    if (h) onHeadingLine(ctx, st, h.level, h.title, line);
    else if (b && b.indent < 2) onBullet(ctx, st, b.text, line);
    else onText(ctx, st, text, line);
    touch(st, line);
  }
  for (const block of st.blocks) {
    block.keywords = [...new Set(block.tasks.flatMap((t) => t.keywords))];
    checkBlock(ctx, block);
  }
  checkDashBullets(ctx, scan.mask);
  checkNoBold(ctx, scan.mask);
  return { kind: 'memory_md', blocks: st.blocks };
}
