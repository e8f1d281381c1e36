// Fallback for files no parser knows: a heading outline when it looks like Markdown, and why it is unknown.
import type { Body, ParseContext } from './context';
import { buildOutline } from './markdown';

export function parseUnknown(ctx: ParseContext, reason: string): Body<'unknown'> {
  const markdown = ctx.fileName === null || /\.(md|markdown|mdc|txt)$/i.test(ctx.fileName);
  return { kind: 'unknown', reason, sections: markdown ? buildOutline(ctx.lines, ctx.fences().mask) : [] };
}
