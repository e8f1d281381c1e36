// Migration 7's data step: every text an older Studio DB kept in clear (proposals, decisions, history) masked in place.
import type Database from 'better-sqlite3';
import { maskForStorage, maskTextForStorage } from '../lint/mask-at-rest';
import { lineSecretsJson } from '../review/stored-texts';

interface Conflictish {
  base?: { text?: string[] };
  theirs?: { text?: string[] };
  ours?: { text?: string[] };
}
interface HunkLike {
  lines?: string[];
  conflict?: Conflictish;
}

/**
 * The strings to replace in a hunk's display lines: each secret value, and each line of a multi-line one (a hunk shows
 * a private key line by line). Lines this short are common words, never chased.
 */
function needles(values: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const value of values) {
    out.add(value);
    for (const line of value.split('\n')) if (line.replace(/\r$/, '').trim().length >= 8) out.add(line.replace(/\r$/, ''));
  }
  return [...out].sort((a, b) => b.length - a.length);
}

function maskString(text: string, found: readonly string[]): string {
  let out = text;
  for (const needle of found) if (out.includes(needle)) out = out.split(needle).join(`${Array.from(needle).slice(0, 4).join('')}****`);
  return maskTextForStorage(out);
}

/** The hunks as stored, with every line and every conflict side's text masked (ids and ranges unchanged). */
export function maskHunksJson(json: string, values: Iterable<string>): string {
  const found = needles(values);
  const hunks = JSON.parse(json) as HunkLike[];
  const mask = (lines: string[] | undefined) => lines?.map((line) => maskString(line, found));
  for (const hunk of hunks) {
    hunk.lines = mask(hunk.lines);
    for (const side of [hunk.conflict?.base, hunk.conflict?.theirs, hunk.conflict?.ours]) if (side?.text) side.text = mask(side.text);
  }
  return JSON.stringify(hunks);
}

interface FileRow {
  rowid: number;
  base_content: string | null;
  proposed_content: string | null;
  merge_base_content: string | null;
  ours_content: string | null;
  hunks_json: string;
}

function maskProposalFiles(db: Database.Database): void {
  const ids = db.prepare('SELECT rowid FROM proposal_files').pluck().all() as number[];
  const read = db.prepare(
    'SELECT rowid, base_content, proposed_content, merge_base_content, ours_content, hunks_json FROM proposal_files WHERE rowid = ?',
  );
  const write = db.prepare(
    `UPDATE proposal_files SET base_content = ?, proposed_content = ?, merge_base_content = ?, ours_content = ?, hunks_json = ?,
       masked_lines = ? WHERE rowid = ?`,
  );
  for (const id of ids) {
    const row = read.get(id) as FileRow;
    const masked = maskForStorage([row.base_content, row.proposed_content, row.merge_base_content, row.ours_content]);
    const values = new Set(masked.values.flatMap((v) => [...v]));
    const hunks = maskHunksJson(row.hunks_json, values);
    const [base, proposed, mergeBase, ours] = masked.kinds;
    if (values.size === 0 && hunks === row.hunks_json) continue;
    const [b, p, m, o] = masked.texts;
    write.run(b, p, m, o, hunks, lineSecretsJson({ base, proposed, mergeBase, ours }), row.rowid);
  }
}

function maskHistoryFiles(db: Database.Database): void {
  const ids = db.prepare('SELECT rowid FROM history_files').pluck().all() as number[];
  const read = db.prepare('SELECT before_content, after_content FROM history_files WHERE rowid = ?');
  const write = db.prepare(
    'UPDATE history_files SET before_content = ?, after_content = ?, masked_lines = ?, secrets_removed = ? WHERE rowid = ?',
  );
  for (const id of ids) {
    const row = read.get(id) as { before_content: string | null; after_content: string | null };
    const masked = maskForStorage([row.before_content, row.after_content]);
    const [before, after] = masked.values as [Set<string>, Set<string>];
    if (before.size === 0 && after.size === 0) continue;
    const lines = lineSecretsJson({ before: masked.kinds[0], after: masked.kinds[1] });
    write.run(masked.texts[0] ?? null, masked.texts[1] ?? null, lines, [...before].filter((v) => !after.has(v)).length, id);
  }
}

/** One short text column of a table, masked row by row where it holds a secret. */
function maskColumn(db: Database.Database, table: string, column: string): void {
  const rows = db.prepare(`SELECT rowid AS id, ${column} AS text FROM ${table} WHERE ${column} IS NOT NULL`).all() as {
    id: number;
    text: string;
  }[];
  const write = db.prepare(`UPDATE ${table} SET ${column} = ? WHERE rowid = ?`);
  for (const row of rows) {
    const masked = maskTextForStorage(row.text);
    if (masked !== row.text) write.run(masked, row.id);
  }
}

/**
 * Masks, inside the migration's transaction, every text older builds stored whole: proposal files (their four texts and
 * hunks), `edit` resolutions, history's before/after, titles, notes, summaries and DB-change descriptions. The real
 * SHA-256s stay (Apply and rebase check the disk against them). The caller then rewrites the file (VACUUM) and empties
 * the WAL, so the old pages are gone from the disk too.
 */
export function maskStoredTexts(db: Database.Database): void {
  maskProposalFiles(db);
  maskHistoryFiles(db);
  maskColumn(db, 'hunk_decisions', 'edit_text');
  maskColumn(db, 'proposals', 'title');
  maskColumn(db, 'proposals', 'note');
  maskColumn(db, 'proposal_db_changes', 'description');
  maskColumn(db, 'history', 'summary');
}
