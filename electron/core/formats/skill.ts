// Parser for skills/<name>/SKILL.md: YAML-subset front matter (name, description, …), body range and outline.
import { group } from '../platform/indexed';
import type { Body, ParseContext } from './context';
import { reportUnclosedFences } from './context';
import { fieldText, readFrontMatter } from './front-matter';
import { buildOutline, lastContentLine } from './markdown';

/** Front-matter keys the consolidation template names for skills. */
export const SKILL_KEYS = [
  'name',
  'description',
  'argument-hint',
  'disable-model-invocation',
  'user-invocable',
  'allowed-tools',
  'context',
  'agent',
  'model',
] as const;
export const SKILL_NAME = /^[a-z0-9-]{1,64}$/;
export const SKILL_BODY_MAX_LINES = 500;

function folderOf(rel: string | null): string | null {
  const m = rel ? /^skills\/([^/]+)\/SKILL\.md$/.exec(rel) : null;
  return m ? group(m, 1) : null;
}

function checkFields(ctx: ParseContext, name: string | null, description: string | null, folder: string | null, line: number): void {
  if (name === null || name === '') {
    ctx.diags.warning(
      'format/skill-name',
      line,
      line,
      'The front matter has no "name:" (lowercase letters, digits and hyphens, at most 64 characters).',
    );
  } else if (!SKILL_NAME.test(name)) {
    ctx.diags.warning(
      'format/skill-name',
      line,
      line,
      `The skill name "${name}" must be lowercase letters, digits and hyphens, at most 64 characters.`,
    );
  } else if (folder !== null && folder !== name) {
    ctx.diags.warning('format/skill-name', line, line, `The skill is named "${name}" but lives in the folder "skills/${folder}/".`);
  }
  if (description === null || description.trim() === '') {
    ctx.diags.warning(
      'format/skill-description',
      line,
      line,
      'The front matter has no "description:"; it is what tells the agent when to use the skill.',
    );
  }
}

export function parseSkill(ctx: ParseContext): Body<'skill'> {
  const scan = ctx.fences();
  reportUnclosedFences(ctx, scan);
  const fm = readFrontMatter(ctx.lines);
  const folder = folderOf(ctx.rel);
  if (!fm.range) {
    ctx.diags.error('format/front-matter', 1, 1, 'SKILL.md must start with YAML front matter between "---" lines (name, description).');
  } else if (!fm.closed) {
    ctx.diags.error('format/front-matter', fm.range.line, fm.range.endLine, 'The front matter is never closed with "---".');
  }
  for (const p of fm.problems) if (fm.closed) ctx.diags.warning('format/front-matter', p.line, p.line, p.message);
  const name = fieldText(fm.fields, 'name');
  const description = fieldText(fm.fields, 'description');
  if (fm.range && fm.closed) {
    checkFields(ctx, name, description, folder, fm.range.line);
    for (const key of Object.keys(fm.fields)) {
      if (!(SKILL_KEYS as readonly string[]).includes(key))
        ctx.diags.info(
          'format/skill-unknown-key',
          fm.range.line,
          fm.range.endLine,
          `"${key}" is not a skill front-matter key the template names (${SKILL_KEYS.join(', ')}).`,
        );
    }
  }
  const bodyStart = fm.range && fm.closed ? fm.range.endLine + 1 : 1;
  const body = bodyStart <= ctx.lines.length ? { line: bodyStart, endLine: lastContentLine(ctx.lines, bodyStart, ctx.lines.length) } : null;
  if (body && body.endLine - body.line + 1 > SKILL_BODY_MAX_LINES) {
    ctx.diags.info(
      'format/skill-length',
      body.line,
      body.endLine,
      `The skill body has ${body.endLine - body.line + 1} lines; the template asks to keep SKILL.md under ${SKILL_BODY_MAX_LINES} lines.`,
    );
  }
  return {
    kind: 'skill',
    folder,
    frontMatter: fm.closed ? fm.fields : {},
    frontMatterRange: fm.range,
    name,
    description,
    body,
    sections: buildOutline(ctx.lines, scan.mask, bodyStart),
  };
}
