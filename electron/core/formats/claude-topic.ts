// Parser for a Claude Code topic memory file: front matter in the flat or the nested `metadata:` layout, and the body.
import { group } from '../platform/indexed';
import type { FrontMatter } from '../../../shared/formats';
import type { Body, ParseContext } from './context';
import { fieldText, readFrontMatter } from './front-matter';
import { lastContentLine } from './markdown';

export const CLAUDE_TOPIC_TYPES = ['user', 'feedback', 'project', 'reference'] as const;

function nestedText(fields: FrontMatter, key: string): string | null {
  const meta = fields.metadata;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return null;
  const v = Object.prototype.hasOwnProperty.call(meta, key) ? meta[key] : undefined;
  return typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : null;
}

function checkTopic(ctx: ParseContext, line: number, name: string | null, description: string | null, type: string | null): void {
  if (type === null) {
    ctx.diags.warning('claude/topic-type', line, line, `The front matter has no "type:" (${CLAUDE_TOPIC_TYPES.join(', ')}).`);
  } else if (!(CLAUDE_TOPIC_TYPES as readonly string[]).includes(type)) {
    ctx.diags.warning('claude/topic-type', line, line, `"${type}" is not a Claude Code memory type (${CLAUDE_TOPIC_TYPES.join(', ')}).`);
  }
  const missing = [name === null ? 'name' : null, description === null ? 'description' : null].filter((k) => k !== null);
  if (missing.length > 0)
    ctx.diags.info('claude/topic-fields', line, line, `The front matter has no ${missing.map((k) => `"${k}:"`).join(' or ')}.`);
}

export function parseClaudeTopic(ctx: ParseContext): Body<'claude_memory_topic'> {
  const fm = readFrontMatter(ctx.lines);
  const fields = fm.closed ? fm.fields : {};
  if (!fm.range)
    ctx.diags.warning(
      'claude/front-matter',
      1,
      1,
      'A Claude Code memory file starts with front matter between "---" lines (name, description, type).',
    );
  else if (!fm.closed)
    ctx.diags.warning('claude/front-matter', fm.range.line, fm.range.endLine, 'The front matter is never closed with "---".');
  for (const p of fm.closed ? fm.problems : []) ctx.diags.warning('claude/front-matter', p.line, p.line, p.message);
  const nested = typeof fields.metadata === 'object' && !Array.isArray(fields.metadata);
  const name = fieldText(fields, 'name');
  const description = fieldText(fields, 'description');
  const type = fieldText(fields, 'type') ?? nestedText(fields, 'type');
  if (fm.range && fm.closed) checkTopic(ctx, fm.range.line, name, description, type);
  const bodyStart = fm.range && fm.closed ? fm.range.endLine + 1 : 1;
  const links: Array<{ target: string; line: number }> = [];
  for (const [i, text] of ctx.lines.entries()) {
    if (i < bodyStart - 1) continue;
    for (const m of text.matchAll(/\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g)) links.push({ target: group(m, 1).trim(), line: i + 1 });
  }
  return {
    kind: 'claude_memory_topic',
    frontMatter: fields,
    frontMatterRange: fm.range,
    layout: !fm.closed ? 'none' : nested ? 'nested' : 'flat',
    name,
    description,
    type,
    body: bodyStart <= ctx.lines.length ? { line: bodyStart, endLine: lastContentLine(ctx.lines, bodyStart, ctx.lines.length) } : null,
    links,
  };
}
