// Style rules of the consolidation template shared by memory_summary.md and MEMORY.md (dash bullets, no bold).
import { group } from '../platform/indexed';
import type { ParseContext } from './context';

/** `template/dash-bullets`: the template allows only `-` bullets; fix rewrites the marker. */
export function checkDashBullets(ctx: ParseContext, mask: Uint8Array): void {
  const { lines } = ctx;
  for (const [i, text] of lines.entries()) {
    if (mask[i]) continue;
    const m = /^([ \t]*)[*+]([ \t]+)(?=\S)/.exec(text);
    if (!m) continue;
    const fixed = `${group(m, 1)}-${group(m, 2)}${text.slice(m[0].length)}`;
    ctx.diags.warning('template/dash-bullets', i + 1, i + 1, 'Bullets must use "-" (the consolidation template says: never "*").', {
      description: 'Use "-" as the bullet marker',
      edits: [{ line: i + 1, endLine: i + 1, text: fixed }],
    });
  }
}

/** `template/no-bold`: the template forbids bold text; fix removes the `**` markers. */
export function checkNoBold(ctx: ParseContext, mask: Uint8Array): void {
  const { lines } = ctx;
  for (const [i, text] of lines.entries()) {
    if (mask[i]) continue;
    if (!text.includes('**')) continue;
    const withoutCode = text.replace(/`[^`]*`/g, (s) => ' '.repeat(s.length));
    if (!/\*\*[^*\s][^*]*\*\*/.test(withoutCode)) continue;
    let fixed = '';
    let last = 0;
    for (const m of withoutCode.matchAll(/\*\*([^*\s][^*]*)\*\*/g)) {
      const at = m.index ?? 0;
      fixed += text.slice(last, at) + text.slice(at + 2, at + m[0].length - 2);
      last = at + m[0].length;
    }
    fixed += text.slice(last);
    ctx.diags.info('template/no-bold', i + 1, i + 1, 'The consolidation template asks for no bold text in memory files.', {
      description: 'Remove the bold markers',
      edits: [{ line: i + 1, endLine: i + 1, text: fixed }],
    });
  }
}
