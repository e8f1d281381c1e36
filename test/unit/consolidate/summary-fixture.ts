// Changing one input of a staged memory folder the way Codex's sync does, and reading which summary lines changed.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { computeHunks } from '../../../electron/core/review/hunks';

const REF = /rollout_summaries\/([^\s()`'",;[\]<>]+?\.md)/g;

/** The lines of the summary entry that names `file`: its bullet and the indented lines under it. */
export function entryOf(summary: string, file: string): string[] {
  const lines = summary.split('\n');
  let start = lines.findIndex((l) => l.includes(file));
  while (start > 0 && !/^- /.test(lines[start] as string)) start--;
  let end = start + 1;
  while (end < lines.length && /^\s+\S/.test(lines[end] as string)) end++;
  return lines.slice(start, end);
}

/** Non-blank lines the diff removes and adds, `####` day headings apart. */
export function changedLines(before: string, after: string): { removed: string[]; added: string[]; headings: string[] } {
  const lines = computeHunks(before, after).flatMap((h) => h.lines);
  const pick = (sign: string) => lines.filter((l) => l.startsWith(sign) && l.slice(1).trim() !== '').map((l) => l.slice(1));
  const isHeading = (l: string) => /^#### /.test(l);
  return {
    removed: pick('-').filter((l) => !isHeading(l)),
    added: pick('+').filter((l) => !isHeading(l)),
    headings: [...pick('-'), ...pick('+')].filter(isHeading),
  };
}

/**
 * In staging: drops the rollout summary the summary names first (its newest entry), adds a new thread copied from the
 * one it names second (an hour after the newest input).
 */
export async function addAndDropOne(staging: string, summary: string): Promise<{ added: string; dropped: string }> {
  const refs = [...new Set(Array.from(summary.matchAll(REF), (m) => m[1] as string))];
  const [dropped, template] = refs as [string, string];
  await rm(join(staging, 'rollout_summaries', dropped));
  const text = await readFile(join(staging, 'rollout_summaries', template), 'utf8');
  const newest = Math.max(...Array.from(summary.matchAll(REF), (m) => Date.parse(`${(m[1] as string).slice(0, 10)}T23:00:00Z`)));
  const updated = new Date(newest + 3_600_000).toISOString().replace('.000Z', '+00:00');
  const added = template.replace(/^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-[0-9A-Za-z]{4}-/, '$1-NeW1-');
  const id = (/^thread_id: (\S+)$/m.exec(text) as RegExpExecArray)[1] as string;
  const body = text
    .replace(`thread_id: ${id}`, `thread_id: ${id.slice(0, -12)}ffffffffffff`)
    .replace(/^updated_at: .*$/m, `updated_at: ${updated}`);
  await writeFile(join(staging, 'rollout_summaries', added), body, 'utf8');
  return { added, dropped };
}
