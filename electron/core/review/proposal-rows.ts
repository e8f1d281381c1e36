// SQL for proposals in the Studio DB: rows in, typed proposals out (no file system, no decisions logic).
import type { MemoryVersion } from '../../../shared/domain';
import type {
  DbChange,
  DecisionMap,
  EditMap,
  FileChange,
  FileTarget,
  FileTexts,
  HunkDecision,
  Hunk,
  Proposal,
  ProposalFile,
  ProposalFileStatus,
  ProposalSource,
  ProposalStatus,
  ProposalSummary,
} from '../../../shared/review';
import { versionOfDb } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import type { StudioDb } from '../studio-db';
import { type MaskedLines, maskedLinesJson } from './stored-texts';

export interface ProposalRow {
  id: string;
  title: string;
  source: ProposalSource;
  created_at: number;
  status: ProposalStatus;
  applied_at: number | null;
  note: string | null;
  /** `agent` proposals: the MCP client's name and version, and when a person first opened it. */
  agent_name?: string | null;
  agent_version?: string | null;
  agent_seen_at?: number | null;
}

export interface FileRow {
  proposal_id: string;
  ord: number;
  version: MemoryVersion;
  root: string;
  rel_path: string;
  target: FileTarget;
  base_sha256: string | null;
  base_content: string | null;
  proposed_content: string | null;
  hunks_json: string;
  added: number;
  removed: number;
  status: ProposalFileStatus;
  rebased_at: number | null;
  merge_base_sha256: string | null;
  merge_base_content: string | null;
  ours_content: string | null;
  /** JSON of `MaskedLines` (stored-texts.ts), or null when no stored text of the file holds a masked secret. */
  masked_lines: string | null;
}

/** A file's decisions and the hand-written text of its `edit` resolutions. */
export interface FileDecisionRows {
  decisions: DecisionMap;
  edits: EditMap;
}

/** A file as stored, ready to insert (contents masked, hunks computed between the masked texts). */
export interface StoredFile {
  ord: number;
  version: MemoryVersion;
  target: FileTarget;
  root: string;
  relPath: string;
  baseSha256: string | null;
  baseContent: string | null;
  proposedContent: string | null;
  hunks: Hunk[];
  maskedLines: MaskedLines;
}

export function insertProposal(db: StudioDb, row: ProposalRow, files: StoredFile[], dbChanges: DbChange[]): void {
  db.stmt(
    'INSERT INTO proposals (id, title, source, created_at, status, applied_at, note, agent_name, agent_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(
    row.id,
    row.title,
    row.source,
    row.created_at,
    row.status,
    row.applied_at,
    row.note,
    row.agent_name ?? null,
    row.agent_version ?? null,
  );
  for (const file of files) insertFile(db, row.id, file);
  const change = db.stmt(
    'INSERT INTO proposal_db_changes (proposal_id, ord, db, description, sql_kind, params_json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const c of dbChanges) change.run(row.id, c.ord, c.db, c.description, c.sqlKind, JSON.stringify(c.params ?? null));
}

function insertFile(db: StudioDb, proposalId: string, file: StoredFile): void {
  const { added, removed } = countLines(file.hunks);
  db.stmt(
    `INSERT INTO proposal_files (proposal_id, ord, version, target, root, rel_path, base_sha256, base_content, proposed_content, hunks_json, added, removed, status, masked_lines)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
  ).run(
    proposalId,
    file.ord,
    file.version,
    file.target,
    file.root,
    file.relPath,
    file.baseSha256,
    file.baseContent,
    file.proposedContent,
    JSON.stringify(file.hunks),
    added,
    removed,
    maskedLinesJson(file.maskedLines),
  );
}

/** What a three-way rebase leaves of one file: the disk as its base, the merged proposal, its hunks and carried decisions. */
export interface RebasedFile extends StoredFile {
  rebasedAt: number;
  mergeBaseSha256: string | null;
  mergeBaseContent: string | null;
  oursContent: string | null;
  carried: FileDecisionRows;
}

/** Stores a rebased file and replaces its decisions with the ones the rebase carried over (the rest start undecided). */
export function replaceRebased(db: StudioDb, proposalId: string, file: RebasedFile): void {
  const { added, removed } = countLines(file.hunks);
  db.stmt(
    `UPDATE proposal_files SET base_sha256 = ?, base_content = ?, proposed_content = ?, hunks_json = ?, added = ?, removed = ?,
       rebased_at = ?, merge_base_sha256 = ?, merge_base_content = ?, ours_content = ?, masked_lines = ? WHERE proposal_id = ? AND ord = ?`,
  ).run(
    file.baseSha256,
    file.baseContent,
    file.proposedContent,
    JSON.stringify(file.hunks),
    added,
    removed,
    file.rebasedAt,
    file.mergeBaseSha256,
    file.mergeBaseContent,
    file.oursContent,
    maskedLinesJson(file.maskedLines),
    proposalId,
    file.ord,
  );
  db.stmt('DELETE FROM hunk_decisions WHERE proposal_id = ? AND ord = ?').run(proposalId, file.ord);
  for (const [hunkId, decision] of Object.entries(file.carried.decisions))
    upsertDecision(db, proposalId, file.ord, hunkId, decision, file.carried.edits[hunkId]);
}

export function upsertDecision(
  db: StudioDb,
  proposalId: string,
  ord: number,
  hunkId: string,
  decision: HunkDecision,
  editText: string | undefined,
): void {
  db.stmt(
    `INSERT INTO hunk_decisions (proposal_id, ord, hunk_id, decision, edit_text) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (proposal_id, ord, hunk_id) DO UPDATE SET decision = excluded.decision, edit_text = excluded.edit_text`,
  ).run(proposalId, ord, hunkId, decision, decision === 'edit' ? (editText ?? '') : null);
}

function countLines(hunks: readonly Hunk[]): { added: number; removed: number } {
  return hunks.reduce((sum, h) => ({ added: sum.added + h.added, removed: sum.removed + h.removed }), { added: 0, removed: 0 });
}

export function loadProposalRow(db: StudioDb, id: string): ProposalRow {
  const row = db.stmt<[string], ProposalRow>('SELECT * FROM proposals WHERE id = ?').get(id);
  if (!row)
    throw new StudioFailure('NotFound', `There is no proposal ${id}.`, {
      hint: 'It may have been made in another data folder (--data-dir); `memory-studio proposals` (or the Review tab) lists the ids.',
    });
  return row;
}

export function loadFileRows(db: StudioDb, id: string): FileRow[] {
  return db.stmt<[string], FileRow>('SELECT * FROM proposal_files WHERE proposal_id = ? ORDER BY ord').all(id);
}

/** One file's row, texts included (undefined when the proposal has no file `ord`). */
export function loadFileRow(db: StudioDb, id: string, ord: number): FileRow | undefined {
  return db.stmt<[string, number], FileRow>('SELECT * FROM proposal_files WHERE proposal_id = ? AND ord = ?').get(id, ord);
}

/** A file row without its texts (what a proposal's answer carries), with `change` worked out by SQLite. */
export type LeanFileRow = Omit<FileRow, 'base_content' | 'proposed_content' | 'merge_base_content' | 'ours_content' | 'masked_lines'> & {
  change: FileChange;
};

// Equal texts (two absent ones too) are unchanged, no base is a create, no proposed text a delete, anything else a
// modify. The texts are compared only when there is no hunk (equal texts give none), so a proposal of megabytes is
// answered without reading them.
const LEAN_FILE_COLUMNS = `proposal_id, ord, version, target, root, rel_path, base_sha256, hunks_json, added, removed, status, rebased_at, merge_base_sha256,
  CASE WHEN base_content IS NULL AND proposed_content IS NULL THEN 'unchanged' WHEN base_content IS NULL THEN 'create'
    WHEN proposed_content IS NULL THEN 'delete' WHEN hunks_json = '[]' AND base_content = proposed_content THEN 'unchanged'
    ELSE 'modify' END AS change`;

/** A proposal's files in order, without their texts. */
export function loadLeanFileRows(db: StudioDb, id: string): LeanFileRow[] {
  return db.stmt<[string], LeanFileRow>(`SELECT ${LEAN_FILE_COLUMNS} FROM proposal_files WHERE proposal_id = ? ORDER BY ord`).all(id);
}

/** One file's base and proposed content. */
export function loadFileTexts(db: StudioDb, id: string, ord: number): FileTexts {
  loadProposalRow(db, id);
  const row = db
    .stmt<[string, number], { base_content: string | null; proposed_content: string | null }>(
      'SELECT base_content, proposed_content FROM proposal_files WHERE proposal_id = ? AND ord = ?',
    )
    .get(id, ord);
  if (!row)
    throw new StudioFailure('NotFound', `Proposal ${id} has no file number ${ord}.`, { hint: 'Show the proposal again to see its files.' });
  return { baseContent: row.base_content, proposedContent: row.proposed_content };
}

export function loadDecisions(db: StudioDb, id: string): Map<number, FileDecisionRows> {
  const rows = db
    .stmt<[string], { ord: number; hunk_id: string; decision: HunkDecision; edit_text: string | null }>(
      'SELECT ord, hunk_id, decision, edit_text FROM hunk_decisions WHERE proposal_id = ?',
    )
    .all(id);
  const byFile = new Map<number, FileDecisionRows>();
  for (const row of rows) {
    let file = byFile.get(row.ord);
    if (!file) byFile.set(row.ord, (file = { decisions: {}, edits: {} }));
    file.decisions[row.hunk_id] = row.decision;
    if (row.edit_text !== null) file.edits[row.hunk_id] = row.edit_text;
  }
  return byFile;
}

/**
 * The pending proposal holding a DB change of this kind on this DB whose params have these top-level values (a repair
 * already proposed for the same job), or null.
 */
export function pendingWithDbChange(db: StudioDb, change: { db: string; sqlKind: string; match: Record<string, string> }): string | null {
  const entries = Object.entries(change.match);
  const where = entries.map(() => ' AND json_extract(c.params_json, ?) = ?').join('');
  const row = db.raw
    .prepare(
      `SELECT p.id FROM proposals p JOIN proposal_db_changes c ON c.proposal_id = p.id
       WHERE p.status = 'pending' AND c.db = ? AND c.sql_kind = ?${where} ORDER BY p.created_at DESC LIMIT 1`,
    )
    .get(change.db, change.sqlKind, ...entries.flatMap(([key, value]) => [`$.${key}`, value])) as { id: string } | undefined;
  return row?.id ?? null;
}

export function loadDbChanges(db: StudioDb, id: string): DbChange[] {
  const rows = db
    .stmt<[string], { ord: number; db: DbChange['db']; description: string; sql_kind: string; params_json: string }>(
      'SELECT ord, db, description, sql_kind, params_json FROM proposal_db_changes WHERE proposal_id = ? ORDER BY ord',
    )
    .all(id);
  return rows.map((r) => ({
    ord: r.ord,
    db: r.db,
    version: versionOfDb(r.db),
    description: r.description,
    sqlKind: r.sql_kind,
    params: JSON.parse(r.params_json) as unknown,
  }));
}

/**
 * A file of a rejected proposal is rejected: reject changes only the proposal's row (`rejectProposal`), since
 * rewriting a file's row rewrites its texts, so the file's stored status may still say pending.
 */
export function toProposalFile(row: LeanFileRow, { decisions, edits }: FileDecisionRows, proposal: ProposalStatus): ProposalFile {
  return {
    ord: row.ord,
    version: row.version,
    target: row.target,
    root: row.root,
    relPath: row.rel_path,
    baseSha256: row.base_sha256,
    change: row.change,
    status: proposal === 'rejected' ? 'rejected' : row.status,
    hunks: JSON.parse(row.hunks_json) as Hunk[],
    decisions,
    edits,
    added: row.added,
    removed: row.removed,
    rebase: row.rebased_at === null ? null : { at: row.rebased_at, mergeBaseSha256: row.merge_base_sha256 },
  };
}

export function toSummary(row: ProposalRow, stats: { fileCount: number; added: number; removed: number }): ProposalSummary {
  return {
    id: row.id,
    title: row.title,
    source: row.source,
    agent: row.agent_name ? { name: row.agent_name, version: row.agent_version ?? null, seen: row.agent_seen_at != null } : null,
    createdAt: row.created_at,
    status: row.status,
    appliedAt: row.applied_at,
    note: row.note,
    ...stats,
  };
}

/** The whole proposal: files with hunks and decisions (their texts are `loadFileTexts`), and its DB changes. */
export function loadProposal(db: StudioDb, id: string): Proposal {
  const row = loadProposalRow(db, id);
  const decisions = loadDecisions(db, id);
  const files = loadLeanFileRows(db, id).map((f) => toProposalFile(f, decisions.get(f.ord) ?? { decisions: {}, edits: {} }, row.status));
  const stats = {
    fileCount: files.length,
    added: files.reduce((n, f) => n + f.added, 0),
    removed: files.reduce((n, f) => n + f.removed, 0),
  };
  return { ...toSummary(row, stats), files, dbChanges: loadDbChanges(db, id) };
}

/** Refuses to change a proposal that is no longer pending (applied, rejected or superseded). */
export function requirePending(row: ProposalRow): void {
  if (row.status !== 'pending') {
    throw new StudioFailure('Conflict', `Proposal ${row.id} ("${row.title}") is already ${row.status}; it cannot be changed.`, {
      hint: row.status === 'applied' ? 'To undo it, revert its history entry: that makes a new proposal.' : 'Make a new proposal instead.',
    });
  }
}
