// A pending proposal whose hunks core computes from real texts, checked against the contract's schema.
import { computeFileHunks } from '../../../electron/core/review/hunks';
import { ProposalSchema, type Proposal } from '../../../shared/review';

const lines = (count: number, edit: (i: number) => string) => Array.from({ length: count }, (_, i) => edit(i + 1)).join('\n') + '\n';

/** 60 lines where lines 5, 30 and 55 change: three hunks far enough apart to stay separate. */
export const BASE = lines(60, (i) => `- memory line ${i}`);
export const PROPOSED = lines(60, (i) => ([5, 30, 55].includes(i) ? `- memory line ${i}, reworded` : `- memory line ${i}`));

export function proposal(
  id = 'p-1',
  files: Array<{ relPath: string; base: string; proposed: string }> = [{ relPath: 'MEMORY.md', base: BASE, proposed: PROPOSED }],
): Proposal {
  const built = files.map((f, ord) => {
    const hunks = computeFileHunks(f.base, f.proposed);
    return {
      // The texts travel apart (review.fileTexts); a proposal's answer carries hunks, decisions and the change.
      ord,
      version: 'v1',
      target: 'memory',
      root: '/home/dana/.codex/memories',
      relPath: f.relPath,
      baseSha256: 'a'.repeat(64),
      change: 'modify',
      status: 'pending',
      hunks,
      decisions: {},
      edits: {},
      added: hunks.reduce((n, h) => n + h.added, 0),
      removed: hunks.reduce((n, h) => n + h.removed, 0),
      rebase: null,
    };
  });
  return ProposalSchema.parse({
    id,
    title: 'Reword three lines',
    source: 'note',
    createdAt: 1,
    status: 'pending',
    appliedAt: null,
    note: null,
    fileCount: built.length,
    added: built.reduce((n, f) => n + f.added, 0),
    removed: built.reduce((n, f) => n + f.removed, 0),
    files: built,
    dbChanges: [],
  });
}

/** What the server answers to `review.decide`: the proposal with the sent decisions stored. */
export function decided(base: Proposal, input: { files: Array<{ ord: number; decisions: Record<string, string> }> }): Proposal {
  return ProposalSchema.parse({
    ...base,
    files: base.files.map((f) => ({ ...f, decisions: { ...f.decisions, ...input.files.find((x) => x.ord === f.ord)?.decisions } })),
  });
}
