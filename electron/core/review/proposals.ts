// Proposals: create against the disk's current content, list, decide per hunk, compute the exact result, reject, revise.
import { join } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import type {
  DbChange,
  DbChangeInput,
  DecisionMap,
  EditMap,
  FileResult,
  FileTarget,
  Hunk,
  Proposal,
  ProposalList,
  ProposalResult,
  ProposalSource,
  ProposalStatus,
} from '../../../shared/review';
import { proposalSources } from '../../../shared/proposal-sources';
import { StudioFailure } from '../platform/errors';
import { mapLimit } from '../platform/map-limit';
import { versionOfDb } from '../codex/constants';
import { AGENT_CONFIG_NAMES, PROJECT_WRITE_NAMES } from '../codex/project-file';
import { refuseNewSecrets } from '../lint/project-secrets';
import type { StudioDb } from '../studio-db';
import { newId, readDiskBase, sha256Text } from './disk-base';
import { storeProposal } from './store-proposal';
import { decidedChanges, resolveFile, unresolvedConflicts, type FileOutcome } from './hunks';
import { computeFileHunksAsync } from './hunks-off-thread';
import { computeReviewHunks } from './review-hunks';
import { maskTextForStorage } from '../lint/mask-at-rest';
import { findSecretSpans } from '../lint/secrets';
import {
  maskedLinesJson,
  maskedLinesOf,
  maskPairAsync,
  parseMaskedLines,
  refuseCarriedSecrets,
  secretsByText,
  type StoredPair,
} from './stored-texts';
import {
  loadDbChanges,
  loadDecisions,
  loadFileRow,
  loadLeanFileRows,
  loadProposal,
  loadProposalRow,
  requirePending,
  type FileDecisionRows,
  type FileRow,
  type LeanFileRow,
  type ProposalRow,
  type StoredFile,
  toSummary,
  upsertDecision,
} from './proposal-rows';

export interface ProposalFileInput {
  version: MemoryVersion;
  /** A memory root's file (the default), or a project's AGENTS.md (`root` the project folder, `relPath` the file name). */
  target?: FileTarget;
  /** The memory root, absolute (or the project folder). */
  root: string;
  /** Root-relative, `/`-separated; checked like any untrusted path. */
  relPath: string;
  /** The full new content, or null to delete the file. */
  proposedContent: string | null;
  /**
   * The SHA-256 of the content the proposed one was computed from (null: absent): a base read now that differs means
   * the file changed meanwhile, and the proposal is refused instead of undoing that change.
   */
  expectedBaseSha256?: string | null;
}

export interface NewProposal {
  title: string;
  source: ProposalSource;
  files: ProposalFileInput[];
  dbChanges?: DbChangeInput[];
  note?: string;
  /** For tests and imports; defaults to now (ms). */
  now?: number;
  /** `agent` proposals: the MCP client that proposed it (its initialize `clientInfo`). */
  agent?: { name: string; version: string | null };
  /** Rows of the caller's own (an import's provenance), written in the same transaction as the proposal. */
  afterInsert?: (db: StudioDb, id: string) => void;
}

export interface FileDecisions {
  ord: number;
  decisions: DecisionMap;
  /** The text of conflict hunks resolved with `edit`. */
  edits?: EditMap;
}

function invalid(message: string, hint?: string): StudioFailure {
  return new StudioFailure('Invalid', message, { hint });
}

function checkInput(input: NewProposal): void {
  if (input.title.trim() === '') throw invalid('A proposal needs a title.');
  if (!proposalSources.includes(input.source)) throw invalid(`Unknown proposal source "${input.source}".`);
  if ((input.source === 'agent') !== (input.agent !== undefined)) throw invalid('An agent proposal, and only one, names its agent.');
  const seen = new Set<string>();
  for (const file of input.files) {
    const key = `${file.root}\0${file.relPath}`;
    if (seen.has(key)) throw invalid(`${file.relPath} appears twice in one proposal.`, 'Combine the changes into one proposed content.');
    seen.add(key);
    if (file.target === 'project' && !(PROJECT_WRITE_NAMES as readonly string[]).includes(file.relPath)) {
      throw invalid(`A project file of a proposal must be ${PROJECT_WRITE_NAMES.join(' or ')}, not "${file.relPath}".`);
    }
    if (file.target === 'agent-config' && !(AGENT_CONFIG_NAMES as readonly string[]).includes(file.relPath)) {
      throw invalid(`An agent's configuration file must be ${AGENT_CONFIG_NAMES.join(', ')}, not "${file.relPath}".`);
    }
    if (file.proposedContent?.includes('\0')) {
      throw invalid(`The proposed content for ${file.relPath} contains NUL bytes; memory files are text.`);
    }
  }
}

/**
 * Reads every target's current content as the base, all before any row is written (a bad target refuses the whole
 * proposal). The texts are kept masked (stored-texts.ts) and the hunks computed between the masked texts, so the review
 * shows exactly what is stored; the lines masking found a secret on are marked (`Hunk.secrets`), found in the real
 * texts before masking. The base's SHA-256 is the real file's, which Apply checks.
 */
export async function readBases(files: readonly ProposalFileInput[]): Promise<StoredFile[]> {
  const masks = new PairMemo();
  return mapLimit(files, BASE_CONCURRENCY, async (file, ord) => {
    const target = file.target ?? 'memory';
    const base = await readDiskBase(file.root, file.version, file.relPath, target);
    if (target !== 'memory') refuseNewSecrets(join(file.root, file.relPath), file.proposedContent, base?.content ?? null);
    if (file.expectedBaseSha256 !== undefined && (base?.sha256 ?? null) !== file.expectedBaseSha256) {
      throw new StudioFailure(
        'Conflict',
        `${file.relPath} in ${file.root} changed while the proposal was being made; nothing was proposed.`,
        { path: file.relPath, hint: 'Run it again on the current content.' },
      );
    }
    const real = { base: base?.content ?? null, proposed: file.proposedContent };
    const masked = await masks.get(real.base, real.proposed, () => maskPairAsync(real.base, real.proposed));
    const secrets = { old: masked.maskedLines.base ?? new Map(), new: masked.maskedLines.proposed ?? new Map() };
    const hunks = await computeFileHunksAsync(masked.base, masked.proposed, { relPath: file.relPath, version: file.version }, secrets);
    refuseCarriedSecrets(file.relPath, real, masked, hunks);
    return {
      ord,
      version: file.version,
      target,
      root: file.root,
      relPath: file.relPath,
      baseSha256: base?.sha256 ?? null,
      baseContent: masked.base,
      proposedContent: masked.proposed,
      maskedLines: masked.maskedLines,
      hunks,
    };
  });
}

/**
 * Files worked on at once: a proposal's big files keep both of the pool's workers busy (one file's hunks beside
 * another's scan), while a proposal of thousands of small files holds only a few bases in flight.
 */
const BASE_CONCURRENCY = 4;

/** Pairs smaller than this are masked again rather than kept: a scan of them is quick, and there can be thousands. */
const MEMO_MIN_CHARS = 64 * 1024;

/**
 * The masking of each distinct big (base, proposed) pair, done once: an arrival or an import lands the same file in
 * both roots, and scanning a 5 MB text for secrets twice is ~180 ms of a worker for nothing. Only big pairs are kept
 * (their texts stay referenced until the proposal is read), so a proposal of thousands of small files holds no more.
 */
class PairMemo {
  private readonly byBase = new Map<string | null, Map<string | null, Promise<StoredPair>>>();

  get(base: string | null, proposed: string | null, mask: () => Promise<StoredPair>): Promise<StoredPair> {
    if ((base?.length ?? 0) + (proposed?.length ?? 0) < MEMO_MIN_CHARS) return mask();
    let byProposed = this.byBase.get(base);
    if (!byProposed) this.byBase.set(base, (byProposed = new Map()));
    let masked = byProposed.get(proposed);
    if (!masked) byProposed.set(proposed, (masked = mask()));
    return masked;
  }
}

/** Stores a new pending proposal against the files' current content; refuses one that changes nothing. */
export async function createProposal(db: StudioDb, input: NewProposal): Promise<Proposal> {
  checkInput(input);
  const files = await readBases(input.files);
  const dbChanges: DbChange[] = (input.dbChanges ?? []).map((c, ord) => ({
    ...c,
    description: maskTextForStorage(c.description),
    ord,
    version: versionOfDb(c.db),
  }));
  if (files.every((f) => f.hunks.length === 0) && dbChanges.length === 0) {
    throw invalid('There is nothing to propose: every file already has the proposed content.', 'Edit the content first, then propose.');
  }
  const id = newId('p');
  // A title or description typed by a person rests in the data folder too: masked like the texts.
  const row = {
    id,
    title: maskTextForStorage(input.title.trim()),
    source: input.source,
    created_at: input.now ?? Date.now(),
    status: 'pending' as const,
    applied_at: null,
    note: input.note === undefined ? null : maskTextForStorage(input.note),
    agent_name: input.agent?.name ?? null,
    agent_version: input.agent?.version ?? null,
  };
  await storeProposal(db, row, files, dbChanges, input.afterInsert);
  return loadProposal(db, id);
}

export function getProposal(db: StudioDb, id: string): Proposal {
  return loadProposal(db, id);
}

/** A proposal's status and note alone (its files unread), or null when there is no such proposal. */
export function proposalStatusOf(db: StudioDb, id: string): Pick<ProposalRow, 'status' | 'note'> | null {
  return db.stmt<[string], Pick<ProposalRow, 'status' | 'note'>>('SELECT status, note FROM proposals WHERE id = ?').get(id) ?? null;
}

/** Proposals newest first, with the pending count for the inbox badge. */
export function listProposals(db: StudioDb, options: { status?: ProposalStatus } = {}): ProposalList {
  type Row = Parameters<typeof toSummary>[0] & { file_count: number; added: number | null; removed: number | null };
  const select = `SELECT p.*, COUNT(f.ord) AS file_count, SUM(f.added) AS added, SUM(f.removed) AS removed
    FROM proposals p LEFT JOIN proposal_files f ON f.proposal_id = p.id`;
  const rows = options.status
    ? db.stmt<[string], Row>(`${select} WHERE p.status = ? GROUP BY p.id ORDER BY p.created_at DESC, p.rowid DESC`).all(options.status)
    : db.stmt<[], Row>(`${select} GROUP BY p.id ORDER BY p.created_at DESC, p.rowid DESC`).all();
  const pending = db.stmt<[], { n: number }>("SELECT COUNT(*) AS n FROM proposals WHERE status = 'pending'").get();
  const agentNew = db
    .stmt<[], { n: number }>("SELECT COUNT(*) AS n FROM proposals WHERE status = 'pending' AND source = 'agent' AND agent_seen_at IS NULL")
    .get();
  return {
    proposals: rows.map((r) => toSummary(r, { fileCount: r.file_count, added: r.added ?? 0, removed: r.removed ?? 0 })),
    pendingCount: pending?.n ?? 0,
    agentNewCount: agentNew?.n ?? 0,
  };
}

const CHANGE_DECISIONS = new Set(['accept', 'reject']);

/** Refuses a decision that does not fit its hunk: accept/reject for changes, theirs/ours/both/edit for conflicts. */
function checkDecision(
  row: Pick<FileRow, 'rel_path'>,
  id: string,
  hunk: Hunk | undefined,
  hunkId: string,
  decision: string,
  edit: string | undefined,
): void {
  const where = `${row.rel_path} in proposal ${id}`;
  if (!hunk) throw invalid(`${where} has no hunk ${hunkId}.`, 'Show the proposal again to see the current hunk ids.');
  if (hunk.kind !== 'conflict') {
    if (!CHANGE_DECISIONS.has(decision))
      throw invalid(`Hunk ${hunkId} of ${where} is a change, not a conflict: decide it with "accept" or "reject", not "${decision}".`);
    return;
  }
  if (CHANGE_DECISIONS.has(decision)) {
    throw invalid(
      `Hunk ${hunkId} of ${where} is a conflict between the disk and the proposal: "${decision}" does not resolve it.`,
      'Resolve it with "theirs" (keep the disk), "ours" (take the proposal), "both", or "edit" with your own text.',
    );
  }
  if (!['theirs', 'ours', 'both', 'edit'].includes(decision))
    throw invalid(`"${decision}" is not a resolution: use theirs, ours, both or edit.`);
  if (decision === 'both' && hunk.conflict?.absent) {
    const why = hunk.conflict.absent === 'theirs' ? 'the file was deleted on disk' : 'the proposal deletes the file';
    throw invalid(`Hunk ${hunkId} of ${where} cannot take both sides: ${why}.`, 'Choose "theirs", "ours", or "edit" with your own text.');
  }
  if (decision === 'edit' && edit === undefined)
    throw invalid(`Resolving hunk ${hunkId} of ${where} by hand needs the text that replaces the conflicting lines.`);
  if (edit?.includes('\0')) throw invalid(`The text written for hunk ${hunkId} of ${where} contains NUL bytes; memory files are text.`);
  if (edit !== undefined) refuseSecret(edit, `The text written for hunk ${hunkId} of ${where}`);
}

/** Text a person writes into a proposal (a conflict's own lines, a revised file) is stored: it may not hold a secret. */
function refuseSecret(text: string, what: string): void {
  const found = findSecretSpans(text)[0];
  if (!found) return;
  const line = text.slice(0, found.secretStart).split('\n').length;
  throw invalid(
    `${what} holds a secret at line ${line} (${found.rule.replace(/^secrets\//, '')}); nothing was changed.`,
    'Memory Studio never stores a secret and never writes one into memory: leave it out (or write a placeholder such as [REDACTED_SECRET]).',
  );
}

/**
 * Records decisions per hunk (merged into earlier ones): accept/reject for changes, theirs/ours/both/edit for conflicts.
 * An unknown file or hunk, or a decision that does not fit its hunk, refuses the whole call.
 */
export function setDecisions(db: StudioDb, id: string, files: readonly FileDecisions[]): Proposal {
  db.transaction(() => {
    requirePending(loadProposalRow(db, id));
    const rows = new Map(loadLeanFileRows(db, id).map((f) => [f.ord, f]));
    const stored = loadDecisions(db, id);
    for (const file of files) {
      const row = rows.get(file.ord);
      if (!row) throw invalid(`Proposal ${id} has no file number ${file.ord}.`);
      const hunks = new Map((JSON.parse(row.hunks_json) as Hunk[]).map((h) => [h.id, h]));
      for (const [hunkId, decision] of Object.entries(file.decisions)) {
        const edit = file.edits?.[hunkId] ?? (decision === 'edit' ? stored.get(file.ord)?.edits[hunkId] : undefined);
        checkDecision(row, id, hunks.get(hunkId), hunkId, String(decision), edit);
        upsertDecision(db, id, file.ord, hunkId, decision, edit);
      }
    }
  });
  return loadProposal(db, id);
}

/**
 * Per file, exactly what Apply must write (or delete, or leave), from the stored decisions; undecided hunks count as
 * rejected, and an unresolved conflict keeps the disk's lines and is listed (Apply refuses while there is one).
 */
export function resultOf(db: StudioDb, id: string, options: { content?: boolean } = {}): ProposalResult {
  loadProposalRow(db, id);
  const decided = loadDecisions(db, id);
  const files: FileResult[] = loadLeanFileRows(db, id).map((row) => {
    const hunks = JSON.parse(row.hunks_json) as Hunk[];
    const { decisions, edits } = decided.get(row.ord) ?? { decisions: {}, edits: {} };
    const outcome = outcomeOf(db, id, row, hunks, decisions, edits);
    const changes = outcome.action === 'unchanged' ? { ids: [], added: 0, removed: 0 } : decidedChanges(hunks, decisions, edits);
    const text = outcome.action === 'write' ? outcome.content : null;
    return {
      ord: row.ord,
      version: row.version,
      target: row.target,
      root: row.root,
      relPath: row.rel_path,
      baseSha256: row.base_sha256,
      action: outcome.action,
      // Without contents the answer stays small (the review's status line needs the counts, not megabytes of text).
      content: options.content === false ? null : text,
      sha256: text === null ? null : sha256Text(text),
      acceptedHunkIds: changes.ids,
      unresolvedHunkIds: unresolvedConflicts(hunks, decisions),
      added: changes.added,
      removed: changes.removed,
    };
  });
  return { proposalId: id, files, dbChanges: loadDbChanges(db, id) };
}

const WRITING = new Set(['accept', 'ours', 'both', 'edit']);

/**
 * A file's outcome; its texts are read only when a decision takes a proposed side (accept, ours, both, edit): with none,
 * every hunk keeps the disk's lines and the file is left as it is, so an undecided 5 MB file costs nothing.
 */
function outcomeOf(
  db: StudioDb,
  id: string,
  row: LeanFileRow,
  hunks: readonly Hunk[],
  decisions: DecisionMap,
  edits: EditMap,
): FileOutcome {
  if (!hunks.some((h) => WRITING.has(decisions[h.id] ?? ''))) return { action: 'unchanged' };
  const full = loadFileRow(db, id, row.ord) as FileRow;
  return resolveFile(full.base_content, full.proposed_content, hunks, decisions, edits);
}

/**
 * Marks a pending proposal rejected, with an optional note saying why (the caller announces it on its coordination).
 * Only the proposal's row changes, in one small transaction; its files read as rejected through it (`toProposalFile`).
 * Their rows are left alone: SQLite rewrites a whole row to change one column, texts and all, and zeroes the old
 * pages (`secure_delete`), so flipping a consolidation's file status held the main loop 130 ms for its 5 MB MEMORY.md.
 */
export function rejectProposal(db: StudioDb, id: string, note?: string): Proposal {
  db.transaction(() => {
    requirePending(loadProposalRow(db, id));
    db.stmt("UPDATE proposals SET status = 'rejected', note = COALESCE(?, note) WHERE id = ?").run(note ?? null, id);
  });
  return loadProposal(db, id);
}

/**
 * Replaces the proposed content of one file of a pending proposal (fixing a consolidation result in the review):
 * the hunks are recomputed against the same base and that file's decisions are reset.
 */
export function reviseProposalFile(db: StudioDb, id: string, ord: number, content: string): Proposal {
  if (content.includes('\0')) throw invalid('The revised content contains NUL bytes; memory files are text.');
  db.transaction(() => {
    requirePending(loadProposalRow(db, id));
    const row = loadFileRow(db, id, ord);
    if (!row) throw invalid(`Proposal ${id} has no file number ${ord}.`);
    refuseSecret(content, `The revised ${row.rel_path}`);
    // The revision was written over the masked texts: a masked line it kept is still one (Apply never writes it from
    // here), and the review still marks it with what it held.
    const ml = parseMaskedLines(row.masked_lines);
    const proposed = secretsByText(content, maskedLinesOf([row.base_content, ml.base], [row.proposed_content, ml.proposed]));
    const secrets = { old: ml.base ?? new Map<number, string>(), new: proposed };
    const hunks = computeReviewHunks(row.base_content, content, { relPath: row.rel_path, version: row.version }, secrets);
    const { added, removed } = hunks.reduce((sum, h) => ({ added: sum.added + h.added, removed: sum.removed + h.removed }), {
      added: 0,
      removed: 0,
    });
    const maskedLines = maskedLinesJson({ base: ml.base, proposed });
    // The revised content is made against the current base: an earlier rebase's merge base no longer applies to it.
    db.stmt(
      `UPDATE proposal_files SET proposed_content = ?, hunks_json = ?, added = ?, removed = ?, masked_lines = ?,
         rebased_at = NULL, merge_base_sha256 = NULL, merge_base_content = NULL, ours_content = NULL WHERE proposal_id = ? AND ord = ?`,
    ).run(content, JSON.stringify(hunks), added, removed, maskedLines, id, ord);
    db.stmt('DELETE FROM hunk_decisions WHERE proposal_id = ? AND ord = ?').run(id, ord);
  });
  return loadProposal(db, id);
}

/** The decisions currently stored, per file ord (for hosts that show or export them). */
export function decisionsOf(db: StudioDb, id: string): Map<number, FileDecisionRows> {
  loadProposalRow(db, id);
  return loadDecisions(db, id);
}

/** Proposals this agent (by client name) made since `sinceMs`, and the oldest of them: the hourly limit's count. */
export function agentProposalsSince(db: StudioDb, name: string, sinceMs: number): { count: number; oldest: number | null } {
  const row = db
    .stmt<[string, number], { n: number; oldest: number | null }>(
      "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM proposals WHERE source = 'agent' AND agent_name = ? AND created_at > ?",
    )
    .get(name, sinceMs);
  return { count: row?.n ?? 0, oldest: row?.oldest ?? null };
}

/** A person opened an agent's proposal: it no longer counts as new. Other proposals are left as they are. */
export function markAgentProposalSeen(db: StudioDb, id: string, now = Date.now()): Proposal {
  db.stmt("UPDATE proposals SET agent_seen_at = ? WHERE id = ? AND source = 'agent' AND agent_seen_at IS NULL").run(now, id);
  return loadProposal(db, id);
}
