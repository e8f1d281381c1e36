// Parser for extensions/<ext>/instructions.md (the file that makes an extension active): title and outline.
import { group } from '../platform/indexed';
import type { Body, ParseContext } from './context';
import { reportUnclosedFences } from './context';
import { buildOutline, firstHeading } from './markdown';

export function parseExtensionInstructions(ctx: ParseContext): Body<'extension_instructions'> {
  const scan = ctx.fences();
  reportUnclosedFences(ctx, scan);
  const m = ctx.rel ? /^extensions\/([^/]+)\/instructions\.md$/.exec(ctx.rel) : null;
  if (ctx.lines.every((l) => l.trim() === '')) {
    ctx.diags.warning(
      'format/empty-file',
      1,
      1,
      'The instructions are empty: the extension still counts as active, but the consolidation agent gets no guidance for its resources.',
    );
  }
  return {
    kind: 'extension_instructions',
    extension: m ? group(m, 1) : null,
    title: firstHeading(ctx.lines, scan.mask, 1),
    sections: buildOutline(ctx.lines, scan.mask),
  };
}
