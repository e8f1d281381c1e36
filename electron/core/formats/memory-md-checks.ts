// Block-level rules of the MEMORY.md template (header lines, tasks, section order, task refs, placeholder names).
import type { MemoryBlock } from '../../../shared/formats';
import type { ParseContext } from './context';

/** Block-level sections, in the order the template requires. */
export const BLOCK_SECTION_ORDER = ['User preferences', 'Reusable knowledge', 'Failures and how to do differently'];
const PLACEHOLDER = /^(?:<.*>|\[.*\]|\.\.\.|…|todo|tbd|placeholder|untitled|misc(?:ellaneous)?|general|other|task group|name|group name)$/i;

function checkHeader(ctx: ParseContext, block: MemoryBlock): void {
  if (block.scope === null) {
    ctx.diags.warning('template/block-header', block.line, block.line, `Block "${block.title}" has no "scope: …" line after its heading.`);
  }
  if (block.appliesTo === null) {
    ctx.diags.warning(
      'template/block-header',
      block.line,
      block.line,
      `Block "${block.title}" has no "applies_to: cwd=<…>; reuse_rule=<…>" line; the template makes it mandatory.`,
    );
  } else if (block.appliesTo.cwd === null || block.appliesTo.reuseRule === null) {
    const l = block.appliesTo.line;
    ctx.diags.warning(
      'template/applies-to',
      l,
      l,
      `"applies_to:" must read "cwd=<…>; reuse_rule=<…>"${block.appliesTo.cwd === null ? ' (no cwd=)' : ' (no reuse_rule=)'}.`,
    );
  }
  const title = block.title.trim();
  if (title === '' || PLACEHOLDER.test(title)) {
    ctx.diags.warning(
      'template/placeholder-group',
      block.line,
      block.line,
      `"${title}" is not a real task-group name; the template forbids placeholder names.`,
    );
  }
}

function checkTasks(ctx: ParseContext, block: MemoryBlock): void {
  if (block.tasks.length === 0) {
    ctx.diags.warning('template/block-tasks', block.line, block.line, `Block "${block.title}" has no "## Task <n>: …" section.`);
  }
  block.tasks.forEach((task, i) => {
    if (task.rolloutSummaryFiles.length === 0 && task.extensionResourceFiles.length === 0) {
      ctx.diags.warning(
        'template/task-sections',
        task.line,
        task.line,
        `Task ${task.number ?? '?'} lists no files: add "### rollout_summary_files" (or "### extension_resource_files" for imported memory) with one bullet per file.`,
      );
    }
    if (task.keywords.length === 0) {
      ctx.diags.warning('template/task-sections', task.line, task.line, `Task ${task.number ?? '?'} has no "### keywords" bullet.`);
    }
    if (task.number !== null && task.number !== i + 1) {
      ctx.diags.info(
        'template/task-numbering',
        task.line,
        task.line,
        `Task numbers in a block run 1, 2, 3…; this is task ${i + 1} of the block but says ${task.number}.`,
      );
    }
  });
}

function checkSections(ctx: ParseContext, block: MemoryBlock): void {
  let lastIndex = -1;
  let lastTitle = '';
  for (const section of block.sections) {
    const index = BLOCK_SECTION_ORDER.indexOf(section.title);
    if (index < 0) {
      ctx.diags.info(
        'template/unknown-section',
        section.line,
        section.line,
        `"## ${section.title}" is not a MEMORY.md block section (${BLOCK_SECTION_ORDER.join(', ')}).`,
      );
      continue;
    }
    if (index < lastIndex) {
      ctx.diags.warning(
        'template/section-order',
        section.line,
        section.line,
        `"## ${section.title}" comes after "## ${lastTitle}"; the template orders them ${BLOCK_SECTION_ORDER.map((t) => `"${t}"`).join(', ')}.`,
      );
    }
    if (index >= lastIndex) {
      lastIndex = index;
      lastTitle = section.title;
    }
  }
}

function checkTaskRefs(ctx: ParseContext, block: MemoryBlock): void {
  const numbers = new Set(block.tasks.map((t) => t.number));
  for (const section of block.sections) {
    for (const bullet of section.bullets) {
      const missing = bullet.taskRefs.filter((n) => !numbers.has(n));
      if (missing.length > 0) {
        ctx.diags.warning(
          'template/task-ref',
          bullet.line,
          bullet.line,
          `${missing.map((n) => `[Task ${n}]`).join('')} refers to no task of block "${block.title}".`,
        );
      }
    }
  }
}

/** Runs every block rule on one parsed block. */
export function checkBlock(ctx: ParseContext, block: MemoryBlock): void {
  checkHeader(ctx, block);
  checkTasks(ctx, block);
  checkSections(ctx, block);
  checkTaskRefs(ctx, block);
}
