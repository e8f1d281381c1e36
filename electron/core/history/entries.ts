// History: applied proposals and external changes with before/after content, per-file timelines, diffs and revert.
import type { MemoryVersion } from '../../../shared/domain';
import type {
  DbChange,
  DbChangeInput,
  FileTarget,
  HistoryDiff,
  HistoryEntry,
  HistoryEntryDiff,
  HistoryFile,
  HistoryKind,
  Proposal,
} from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import { loadProvenance } from '../studio-db/provenance';
import type { StudioDb } from '../studio-db';
import { newId, readDiskBase, sha256Text } from '../review/disk-base';
import { applyDecisions } from '../review/hunks';
import { maskForStorage, maskTextForStorage } from '../lint/mask-at-rest';
import { computeFileBlocksAsync, computeFileHunksAsync } from '../review/hunks-off-thread';
import { loadDbChanges, loadProposalRow, requirePending } from '../review/proposal-rows';
import { type LineSecrets, lineSecretsJson, parseLineSecrets, scanLargeTexts } from '../review/stored-texts';
import type { SecretCandidate } from '../lint/secret-rules';
import { createProposal, resultOf } from '../review/proposals';
import type { MaskedHistoryFile } from './masked-file';

export type { MaskedHistoryFile } from './masked-file';

export interface HistoryFileInput {
  version: MemoryVersion;
  /** A memory file (the default) or a project's AGENTS.md. */
  target?: FileTarget;
  root: string;
  relPath: string;
  /** Null when the file did not exist before / does not exist after (real texts: history masks them as it stores them). */
  beforeContent: string | null;
  afterContent: string | null;
  /** The real file's SHA-256 when `beforeContent` is a text already kept masked (a stored base); else the text's own. */
  beforeSha256?: string | null;
}

export interface HistoryEntryInput {
  at?: number;
  summary?: string;
  /**
   * What was actually written; defaults to the proposal's result (base as before, result as after). Apply passes them
   * masked already (`maskHistoryFile`), so the secret scan of megabytes runs before the locks, not inside the transaction.
   */
  files?: Array<HistoryFileInput | MaskedHistoryFile>;
}

/**
 * A file as history stores it: every secret masked (lint/mask-at-rest.ts), the SHA-256s of the real texts, and how many
 * secrets the change removed: those are gone from the disk and never kept here, so a revert cannot bring them back.
 */
export function maskHistoryFile(f: HistoryFileInput, scanned?: readonly (SecretCandidate[] | null)[]): MaskedHistoryFile {
  const hash = (text: string | null) => (text === null ? null : sha256Text(text));
  const masked = maskForStorage([f.beforeContent, f.afterContent], scanned);
  const [before, after] = masked.values as [Set<string>, Set<string>];
  return {
    masked: true,
    version: f.version,
    target: f.target ?? 'memory',
    root: f.root,
    relPath: f.relPath,
    beforeSha256: f.beforeSha256 !== undefined ? f.beforeSha256 : hash(f.beforeContent),
    before: masked.texts[0] ?? null,
    afterSha256: hash(f.afterContent),
    after: masked.texts[1] ?? null,
    // Which lines hold a masked secret and what each held: the entry's diff marks them as the review did.
    maskedLines: lineSecretsJson({ before: masked.kinds[0], after: masked.kinds[1] }),
    secretsRemoved: [...before].filter((v) => !after.has(v)).length,
  };
}

/** `maskHistoryFile` with a large text's secret scan on the pool (Apply of a 5 MB MEMORY.md: 0.3 s off the main loop). */
export async function maskHistoryFileAsync(f: HistoryFileInput): Promise<MaskedHistoryFile> {
  return maskHistoryFile(f, await scanLargeTexts([f.beforeContent, f.afterContent]));
}

interface HistoryRow {
  id: string;
  kind: HistoryKind;
  proposal_id: string | null;
  at: number;
  summary: string;
}

interface HistoryFileRow {
  history_id: string;
  version: MemoryVersion;
  target: FileTarget;
  root: string;
  rel_path: string;
  before_sha256: string | null;
  after_sha256: string | null;
  before_size: number | null;
  after_size: number | null;
  secrets_removed: number;
}

function insertEntry(db: StudioDb, row: HistoryRow, files: ReadonlyArray<HistoryFileInput | MaskedHistoryFile>): void {
  db.stmt('INSERT INTO history (id, kind, proposal_id, at, summary) VALUES (?, ?, ?, ?, ?)').run(
    row.id,
    row.kind,
    row.proposal_id,
    row.at,
    maskTextForStorage(row.summary),
  );
  const insert = db.stmt(
    `INSERT INTO history_files (history_id, ord, version, target, root, rel_path, before_sha256, before_content, after_sha256, after_content,
       masked_lines, secrets_removed)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  files.forEach((input, ord) => {
    const f = 'masked' in input ? input : maskHistoryFile(input);
    insert.run(
      row.id,
      ord,
      f.version,
      f.target,
      f.root,
      f.relPath,
      f.beforeSha256,
      f.before,
      f.afterSha256,
      f.after,
      f.maskedLines,
      f.secretsRemoved,
    );
  });
}

/**
 * Marks a proposal applied and records its history entry in ONE transaction, so the DB never says "applied"
 * without the before/after needed to revert it (or the reverse). A second call for the same proposal is a Conflict.
 */
export function markApplied(db: StudioDb, id: string, entry: HistoryEntryInput = {}): HistoryEntry {
  const historyId = newId('e');
  db.transaction(() => {
    const proposal = loadProposalRow(db, id);
    requirePending(proposal);
    const result = resultOf(db, id);
    const files =
      entry.files ??
      result.files
        .filter((f) => f.action !== 'unchanged')
        .map((f) => ({
          version: f.version,
          target: f.target,
          root: f.root,
          relPath: f.relPath,
          beforeContent: baseOf(db, id, f.ord),
          beforeSha256: f.baseSha256,
          afterContent: f.content,
        }));
    const at = entry.at ?? Date.now();
    const kind: HistoryKind = proposal.source === 'revert' ? 'revert' : 'apply';
    insertEntry(db, { id: historyId, kind, proposal_id: id, at, summary: entry.summary ?? proposal.title }, files);
    db.stmt("UPDATE proposals SET status = 'applied', applied_at = ? WHERE id = ?").run(at, id);
    // From now on a file's +/- say what Apply wrote (the accepted hunks), not everything the proposal offered.
    const fileStatus = db.stmt('UPDATE proposal_files SET status = ?, added = ?, removed = ? WHERE proposal_id = ? AND ord = ?');
    for (const f of result.files) {
      const unchanged = f.action === 'unchanged';
      fileStatus.run(unchanged ? 'rejected' : 'applied', unchanged ? 0 : f.added, unchanged ? 0 : f.removed, id, f.ord);
    }
  });
  return getHistoryEntry(db, historyId);
}

function baseOf(db: StudioDb, id: string, ord: number): string | null {
  return (
    db
      .stmt<[string, number], { base_content: string | null }>('SELECT base_content FROM proposal_files WHERE proposal_id = ? AND ord = ?')
      .get(id, ord)?.base_content ?? null
  );
}

type ExternalChange = HistoryFileInput & { at?: number; summary?: string };

/** Records a change made outside Memory Studio (Codex rewriting a file), as the watcher saw it. */
export function recordExternalChange(db: StudioDb, change: ExternalChange): HistoryEntry {
  // Masked before the write lock is taken: the scan of a rewritten MEMORY.md must not hold other writers up.
  return insertExternal(db, change, maskHistoryFile(change));
}

/**
 * The same with a large text's secret scan on the pool: Codex rewriting a 5 MB MEMORY.md would otherwise cost the app's
 * main loop a third of a second of regexes each time.
 */
export async function recordExternalChangeAsync(db: () => StudioDb, change: ExternalChange): Promise<HistoryEntry> {
  return insertExternal(db(), change, await maskHistoryFileAsync(change));
}

function insertExternal(db: StudioDb, change: ExternalChange, file: MaskedHistoryFile): HistoryEntry {
  const id = newId('e');
  const summary = change.summary ?? `${change.relPath} changed outside Memory Studio`;
  db.transaction(() => insertEntry(db, { id, kind: 'external', proposal_id: null, at: change.at ?? Date.now(), summary }, [file]));
  return getHistoryEntry(db, id);
}

// Sizes in bytes without loading the contents, which can be megabytes each.
const FILE_COLUMNS = `f.history_id, f.version, f.target, f.root, f.rel_path, f.before_sha256, f.after_sha256, f.secrets_removed,
  LENGTH(CAST(f.before_content AS BLOB)) AS before_size, LENGTH(CAST(f.after_content AS BLOB)) AS after_size`;

function toFile(r: HistoryFileRow): HistoryFile {
  return {
    version: r.version,
    target: r.target,
    root: r.root,
    relPath: r.rel_path,
    beforeSha256: r.before_sha256,
    afterSha256: r.after_sha256,
    beforeSize: r.before_size,
    afterSize: r.after_size,
    ...(r.secrets_removed > 0 ? { secretsRemoved: r.secrets_removed } : {}),
  };
}

export function getHistoryEntry(db: StudioDb, id: string): HistoryEntry {
  const row = db.stmt<[string], HistoryRow>('SELECT * FROM history WHERE id = ?').get(id);
  if (!row) throw new StudioFailure('NotFound', `There is no history entry ${id}.`, { hint: 'List the history to see the entry ids.' });
  const files = db
    .stmt<[string], HistoryFileRow>(`SELECT ${FILE_COLUMNS} FROM history_files f WHERE f.history_id = ? ORDER BY f.ord`)
    .all(id);
  const provenance = row.proposal_id ? loadProvenance(db, [row.proposal_id]).get(row.proposal_id) : undefined;
  return {
    id: row.id,
    kind: row.kind,
    proposalId: row.proposal_id,
    at: row.at,
    summary: row.summary,
    files: files.map(toFile),
    ...(provenance ? { provenance } : {}),
  };
}

/** Entries newest first; with `relPath` (and optionally `root`), the timeline of that one file. */
export function listHistory(db: StudioDb, options: { relPath?: string; root?: string; limit?: number } = {}): HistoryEntry[] {
  const limit = options.limit ?? 1000;
  const where = options.relPath === undefined ? '' : 'WHERE f.rel_path = ? AND (? IS NULL OR f.root = ?)';
  const params = options.relPath === undefined ? [] : [options.relPath, options.root ?? null, options.root ?? null];
  const files = db.raw.prepare(`SELECT ${FILE_COLUMNS} FROM history_files f ${where} ORDER BY f.ord`).all(...params) as HistoryFileRow[];
  const byEntry = new Map<string, HistoryFile[]>();
  for (const f of files) {
    const list = byEntry.get(f.history_id) ?? [];
    list.push(toFile(f));
    byEntry.set(f.history_id, list);
  }
  const rows = db.stmt<[], HistoryRow>('SELECT * FROM history ORDER BY at DESC, rowid DESC').all();
  const listed = rows.filter((r) => options.relPath === undefined || byEntry.has(r.id)).slice(0, limit);
  const provenance = loadProvenance(
    db,
    listed.flatMap((r) => (r.proposal_id ? [r.proposal_id] : [])),
  );
  return listed.map((r) => {
    const sources = r.proposal_id ? provenance.get(r.proposal_id) : undefined;
    return {
      id: r.id,
      kind: r.kind,
      proposalId: r.proposal_id,
      at: r.at,
      summary: r.summary,
      files: byEntry.get(r.id) ?? [],
      ...(sources ? { provenance: sources } : {}),
    };
  });
}

/** One file's before and after content in an entry; `root` disambiguates when both versions' roots hold that path. */
export function historyFileContent(
  db: StudioDb,
  entryId: string,
  relPath: string,
  root?: string,
): {
  root: string;
  version: MemoryVersion;
  target: FileTarget;
  before: string | null;
  after: string | null;
  beforeSha256: string | null;
  afterSha256: string | null;
  /** The lines of each text that hold a masked secret, with what each held (`history_files.masked_lines`). */
  secrets: { before: LineSecrets; after: LineSecrets };
} {
  getHistoryEntry(db, entryId);
  type Row = {
    root: string;
    version: MemoryVersion;
    target: FileTarget;
    before_content: string | null;
    after_content: string | null;
    before_sha256: string | null;
    after_sha256: string | null;
    masked_lines: string | null;
  };
  const rows = db
    .stmt<[string, string], Row>(
      `SELECT root, version, target, before_content, after_content, before_sha256, after_sha256, masked_lines FROM history_files
       WHERE history_id = ? AND rel_path = ?`,
    )
    .all(entryId, relPath)
    .filter((r) => root === undefined || r.root === root);
  const [r] = rows;
  if (r === undefined) throw new StudioFailure('NotFound', `History entry ${entryId} did not change ${relPath}.`, { path: relPath });
  if (rows.length > 1)
    throw new StudioFailure('Invalid', `History entry ${entryId} changed ${relPath} in more than one memory folder; say which one.`, {
      path: relPath,
    });
  const secrets = parseLineSecrets(r.masked_lines);
  return {
    secrets: { before: secrets.before ?? new Map(), after: secrets.after ?? new Map() },
    root: r.root,
    version: r.version,
    target: r.target,
    before: r.before_content,
    after: r.after_content,
    beforeSha256: r.before_sha256,
    afterSha256: r.after_sha256,
  };
}

/** What one entry did to one file: its content before and after, with the hunks (large files are diffed off the main loop). */
export async function historyEntryDiff(db: StudioDb, entryId: string, relPath: string, root?: string): Promise<HistoryEntryDiff> {
  const file = historyFileContent(db, entryId, relPath, root);
  const where = { relPath, version: file.version };
  const hunks = await computeFileHunksAsync(file.before, file.after, where, { old: file.secrets.before, new: file.secrets.after });
  return {
    entryId,
    version: file.version,
    target: file.target,
    root: file.root,
    relPath,
    before: { sha256: file.beforeSha256, content: file.before },
    after: { sha256: file.afterSha256, content: file.after },
    hunks,
    blocks: await computeFileBlocksAsync(file.before, file.after, where, hunks),
  };
}

/** The diff between the versions of `relPath` that two entries left behind (A's after → B's after). */
export async function historyDiff(
  db: StudioDb,
  entryIdA: string,
  entryIdB: string,
  relPath: string,
  options: { root?: string } = {},
): Promise<HistoryDiff> {
  const a = historyFileContent(db, entryIdA, relPath, options.root);
  const b = historyFileContent(db, entryIdB, relPath, options.root ?? a.root);
  const where = { relPath, version: a.version };
  const hunks = await computeFileHunksAsync(a.after, b.after, where, { old: a.secrets.after, new: b.secrets.after });
  return {
    relPath,
    from: { entryId: entryIdA, sha256: a.afterSha256, content: a.after },
    to: { entryId: entryIdB, sha256: b.afterSha256, content: b.after },
    hunks,
    blocks: await computeFileBlocksAsync(a.after, b.after, where, hunks),
  };
}

/**
 * The text a revert proposes for one file. When the file is still what the entry left (its SHA-256 is the entry's
 * after), the entry's change is undone line by line over the live file: every line the entry did not change stays as it
 * is on disk, secrets included. Otherwise the kept `before` is proposed as a whole, as it always was. Either way a line
 * whose secret the entry removed comes back masked: Memory Studio never kept the secret.
 */
async function revertedText(
  file: { root: string; version: MemoryVersion; target: FileTarget; relPath: string },
  kept: { before: string | null; after: string | null; afterSha256: string | null },
): Promise<string | null> {
  if (kept.before === null || kept.after === null) return kept.before;
  const live = await readDiskBase(file.root, file.version, file.relPath, file.target);
  if (!live || live.sha256 !== kept.afterSha256) return kept.before;
  // Kept texts are masked: nothing to scan, and the marks do not change what accepting every hunk writes.
  const hunks = await computeFileHunksAsync(kept.after, kept.before, undefined, { old: new Map(), new: new Map() });
  const all = Object.fromEntries(hunks.map((h) => [h.id, 'accept' as const]));
  return applyDecisions(kept.after, kept.before, hunks, all, {}, { live: live.content });
}

/**
 * The change that undoes one applied Codex-DB change; `irreversible` when it cannot be undone (a forgotten session's
 * rows are gone); null when there is nothing to undo (an enqueued consolidation: reverting the files enqueues again).
 * Given by the service, whose layers know the change kinds.
 */
export type DbChangeInverter = (change: DbChange) => DbChangeInput | 'irreversible' | null;

/**
 * Reverting never writes: it makes a new proposal (source `revert`) whose content is each file's `before`, against the
 * disk now, and whose DB changes undo the entry's (as `invert` gives them), each guarded on what the entry left.
 */
export async function revertEntry(db: StudioDb, historyId: string, invert: DbChangeInverter = () => null): Promise<Proposal> {
  const entry = getHistoryEntry(db, historyId);
  const applied = (entry.proposalId ? loadDbChanges(db, entry.proposalId) : []).map((change) => ({ change, inverse: invert(change) }));
  const dbChanges = applied.flatMap(({ inverse }) => (inverse && inverse !== 'irreversible' ? [inverse] : []));
  const kept = applied.filter(({ inverse }) => inverse === 'irreversible').map(({ change }) => change.description);
  const dbWhy =
    kept.length === 0
      ? ''
      : ` ${kept.length === 1 ? 'One change' : `${kept.length} changes`} to Codex's DBs cannot be undone (${kept.slice(0, 2).join(' ')}).`;
  if (entry.files.length === 0 && dbChanges.length === 0)
    throw new StudioFailure(
      'Invalid',
      `History entry ${historyId} ("${entry.summary}") cannot be reverted: it changed no file and nothing of it can be undone.${dbWhy}`,
    );
  const files = [];
  for (const f of entry.files) {
    const kept = historyFileContent(db, historyId, f.relPath, f.root);
    files.push({ version: f.version, target: f.target, root: f.root, relPath: f.relPath, proposedContent: await revertedText(f, kept) });
  }
  const lost = entry.files.filter((f) => (f.secretsRemoved ?? 0) > 0);
  const count = lost.reduce((n, f) => n + (f.secretsRemoved ?? 0), 0);
  const why =
    count === 0
      ? ''
      : ` It cannot restore the ${count === 1 ? 'secret' : `${count} secrets`} that change removed (${lost.map((f) => f.relPath).join(', ')}): Memory Studio never keeps a secret, so ${count === 1 ? 'its line comes' : 'their lines come'} back masked (abcd****).`;
  return createProposal(db, {
    title: `Revert: ${entry.summary}`,
    source: 'revert',
    files,
    ...(dbChanges.length > 0 ? { dbChanges } : {}),
    note: `Reverts history entry ${historyId}.${why}${dbWhy}`,
  });
}
