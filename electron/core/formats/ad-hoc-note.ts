// Parser for extensions/ad_hoc/notes/<ts>-<slug>.md: Codex's file-name rule, the note's title and outline.
import { group } from '../platform/indexed';
import type { Body, ParseContext } from './context';
import { reportUnclosedFences } from './context';
import { buildOutline, firstHeading } from './markdown';
import { AD_HOC_NOTE_NAME_MAX, AD_HOC_NOTE_NAME_MIN, isValidAdHocNoteName } from './names';

const LOOSE_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-(.*?)(?:\.md)?$/;

export function parseAdHocNote(ctx: ParseContext): Body<'ad_hoc_note'> {
  const scan = ctx.fences();
  reportUnclosedFences(ctx, scan);
  const name = ctx.fileName;
  const loose = name ? LOOSE_NAME.exec(name) : null;
  const nameValid = name !== null && isValidAdHocNoteName(name);
  if (name !== null && !nameValid) {
    const rule = `YYYY-MM-DDTHH-MM-SS-<slug>.md, the slug in lowercase ASCII letters, digits and hyphens starting with a letter or digit (at most 80), ${AD_HOC_NOTE_NAME_MIN}–${AD_HOC_NOTE_NAME_MAX} characters in all`;
    ctx.diags.warning('codex/ad-hoc-note-name', 1, 1, `"${name}" is not a name Codex's memories.add_ad_hoc_note tool accepts (${rule}).`);
  }
  if (ctx.lines.every((l) => l.trim() === '')) {
    ctx.diags.warning(
      'format/empty-note',
      1,
      1,
      'The note is empty; Codex requires note text and consolidates nothing from an empty note.',
    );
  }
  return {
    kind: 'ad_hoc_note',
    fileName: name,
    timestamp: loose ? group(loose, 1) : null,
    slug: loose ? group(loose, 2) : null,
    nameValid,
    title: firstHeading(ctx.lines, scan.mask, 1),
    sections: buildOutline(ctx.lines, scan.mask),
  };
}
