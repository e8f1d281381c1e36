// A hunk as rows to draw: line numbers per side, the sign apart from the text, and the words that changed in a changed line.
import { diffWordsWithSpace } from 'diff';
import type { Hunk } from '../../../shared/review';

export interface Segment {
  text: string;
  changed: boolean;
}

export interface DiffRow {
  sign: ' ' | '-' | '+';
  oldNo: number | null;
  newNo: number | null;
  /** The line without its sign; `segments` when a word-level highlight applies. */
  text: string;
  segments: Segment[] | null;
  /** The line had no newline at its end (the unified diff's `\` marker). */
  noEol: boolean;
  /** What core found on the line when it holds a secret ("an AWS access key id"), else null. */
  secret: string | null;
}

/** Lines longer than this are highlighted whole: a word diff of a huge line costs more than it tells. */
const WORD_DIFF_MAX = 2000;

/** The words two versions of a line share or not; null when they share too little for a highlight to help. */
function wordSegments(before: string, after: string): [Segment[], Segment[]] | null {
  if (before.length > WORD_DIFF_MAX || after.length > WORD_DIFF_MAX) return null;
  const parts = diffWordsWithSpace(before, after);
  const same = parts.filter((p) => !p.added && !p.removed).reduce((n, p) => n + p.value.length, 0);
  if (same < 0.3 * Math.max(before.length, after.length)) return null;
  const left: Segment[] = [];
  const right: Segment[] = [];
  for (const p of parts) {
    if (!p.added) left.push({ text: p.value, changed: p.removed === true });
    if (!p.removed) right.push({ text: p.value, changed: p.added === true });
  }
  return [left, right];
}

/** Pairs each run of removed lines with the added lines right after it, line by line, for the word highlight. */
function pairRuns(rows: DiffRow[]): void {
  for (let i = 0; i < rows.length;) {
    if (rows[i]?.sign !== '-') {
      i++;
      continue;
    }
    let j = i;
    while (rows[j]?.sign === '-') j++;
    let k = j;
    while (rows[k]?.sign === '+') k++;
    for (let n = 0; n < Math.min(j - i, k - j); n++) {
      const del = rows[i + n] as DiffRow;
      const add = rows[j + n] as DiffRow;
      const segments = wordSegments(del.text, add.text);
      if (segments) [del.segments, add.segments] = segments;
    }
    i = k;
  }
}

/** The rows of `hunk`, the first `limit` of them (a long hunk shows its start until asked for the rest). */
export function diffRows(hunk: Hunk, limit = Infinity): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldNo = hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart;
  let newNo = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
  const secrets = new Map((hunk.secrets ?? []).map((s) => [s.index, s.label]));
  for (const [index, line] of hunk.lines.entries()) {
    if (line.startsWith('\\')) {
      const last = rows[rows.length - 1];
      if (last) last.noEol = true;
      continue;
    }
    if (rows.length >= limit) break;
    const sign = (line[0] ?? ' ') as DiffRow['sign'];
    const text = line.slice(1);
    rows.push({
      sign,
      oldNo: sign === '+' ? null : oldNo++,
      newNo: sign === '-' ? null : newNo++,
      text,
      segments: null,
      noEol: false,
      secret: secrets.get(index) ?? null,
    });
  }
  pairRuns(rows);
  return rows;
}

/** Rows a hunk has (without the `\` markers). */
export const rowCount = (hunk: Hunk): number => hunk.lines.reduce((n, l) => (l.startsWith('\\') ? n : n + 1), 0);
