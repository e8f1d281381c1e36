// What the Apply button says: the files it writes per root and the DB changes, or why it must wait (stale, conflicts).
import { describe, expect, it } from 'vitest';
import { applyBlocked, summarizeApply } from '../../renderer/src/review/apply-summary';
import { ProposalResultSchema, type FileResult, type ProposalResult, type StaleFile } from '../../shared/review';

const fileResult = (ord: number, relPath: string, action: FileResult['action'], extra: Partial<FileResult> = {}): FileResult => ({
  ord,
  version: 'v1',
  target: 'memory',
  root: '/home/dana/.codex/memories',
  relPath,
  baseSha256: null,
  action,
  content: action === 'write' ? 'x\n' : null,
  sha256: null,
  acceptedHunkIds: [],
  unresolvedHunkIds: [],
  added: 2,
  removed: 1,
  ...extra,
});
const result = (files: FileResult[], dbChanges: ProposalResult['dbChanges'] = []) =>
  ProposalResultSchema.parse({ proposalId: 'p-1', files, dbChanges });

describe('apply summary', () => {
  it('names each written and deleted file under its root and skips unchanged ones', () => {
    const summary = summarizeApply(
      result([fileResult(0, 'MEMORY.md', 'write'), fileResult(1, 'old.md', 'delete'), fileResult(2, 'same.md', 'unchanged')]),
    );
    expect(summary).toEqual({ label: 'Write 2 files in /home/dana/.codex/memories: MEMORY.md (+2 −1), delete old.md', empty: false });
  });

  it('adds the database changes, and says when nothing is accepted', () => {
    const db = [{ ord: 0, db: 'state' as const, version: null, description: 'forget a session', sqlKind: 'forget-thread', params: {} }];
    expect(summarizeApply(result([], db)).label).toBe("Apply 1 change to Codex's database");
    expect(summarizeApply(result([fileResult(0, 'MEMORY.md', 'write')], db)).label).toBe(
      "Write 1 file in /home/dana/.codex/memories: MEMORY.md (+2 −1) and apply 1 change to Codex's database",
    );
    expect(summarizeApply(result([fileResult(0, 'MEMORY.md', 'unchanged')]))).toEqual({
      label: 'Nothing to write: no change is accepted',
      empty: true,
    });
  });

  it('asks for a rebase first when a file changed on disk, naming it when it is one', () => {
    const stale: StaleFile = { ord: 0, version: 'v1', relPath: 'MEMORY.md', state: 'changed', message: 'MEMORY.md changed on disk.' };
    expect(applyBlocked([stale], undefined)).toBe('Rebase first: MEMORY.md changed on disk since you proposed this');
    expect(applyBlocked([stale, { ...stale, ord: 1, relPath: 'b.md' }], undefined)).toBe(
      'Rebase first: 2 files changed on disk since you proposed this',
    );
  });

  it('asks for the open conflicts to be resolved, and lets Apply run otherwise', () => {
    const open = result([fileResult(0, 'MEMORY.md', 'write', { unresolvedHunkIds: ['h1', 'h2'] })]);
    expect(applyBlocked([], open)).toBe('Resolve 2 conflicts first: theirs, ours, both or edit');
    expect(applyBlocked([], result([fileResult(0, 'MEMORY.md', 'write')]))).toBeNull();
  });
});
