// Proposals and history against real temp roots and a real Studio DB: CRUD, exact results, bad targets, revert.
import { mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StudioFailure } from '../../../electron/core/platform/errors';
import {
  createProposal,
  fileTextsOf,
  getProposal,
  listProposals,
  rebaseProposal,
  rejectProposal,
  resultOf,
  setDecisions,
} from '../../../electron/core/review';
import { historyDiff, historyEntryDiff, listHistory, markApplied, recordExternalChange, revertEntry } from '../../../electron/core/history';
import type { StudioDb } from '../../../electron/core/studio-db';
import { HistoryEntrySchema, ProposalListSchema, ProposalResultSchema, ProposalSchema, type Proposal } from '../../../shared/review';
import { eachWithReviewDb, putFile } from './review-db';

let dir: string;
let root: string;
let db: StudioDb;
eachWithReviewDb((t) => ({ dir, root, db } = t));

const put = (rel: string, content: string | Buffer) => putFile(root, rel, content);
const disk = (rel: string): string | null => {
  try {
    return readFileSync(join(root, rel), 'utf8');
  } catch {
    return null;
  }
};
const file = (relPath: string, proposedContent: string | null) => ({ version: 'v1' as const, root, relPath, proposedContent });
const acceptAll = (p: Proposal) =>
  setDecisions(
    db,
    p.id,
    p.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
  );

/** Test-only Apply: writes resultOf to disk, then records it (the real Apply adds locks and atomic writes). */
function testApply(id: string) {
  for (const f of resultOf(db, id).files) {
    if (f.action === 'write') writeFileSync(join(f.root, f.relPath), f.content as string);
    if (f.action === 'delete') unlinkSync(join(f.root, f.relPath));
  }
  return markApplied(db, id);
}

async function refused(promise: Promise<unknown>): Promise<StudioFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StudioFailure);
  return error as StudioFailure;
}

const LONG = Array.from({ length: 30 }, (_, i) => `- fact ${i}\r\n`).join('');

describe('proposals', () => {
  it('answers a proposal with hunks but no texts; fileTextsOf gives one file, and the result leaves its texts out on request', async () => {
    put('MEMORY.md', 'one\ntwo\n');
    put('memory_summary.md', 'v1\n');
    put('raw_memories.md', 'raw\n');
    const files = [
      file('MEMORY.md', 'one\n2\n'),
      file('extensions/ad_hoc/notes/n.md', 'note\n'),
      file('memory_summary.md', 'v1\n'),
      file('raw_memories.md', null),
    ];
    const p = await createProposal(db, { title: 't', source: 'edit', files });
    const stored = ProposalSchema.parse(getProposal(db, p.id));
    expect(stored.files.every((f) => !('baseContent' in f) && !('proposedContent' in f))).toBe(true);
    expect(stored.files.map((f) => [f.relPath, f.change])).toEqual([
      ['MEMORY.md', 'modify'],
      ['extensions/ad_hoc/notes/n.md', 'create'],
      ['memory_summary.md', 'unchanged'],
      ['raw_memories.md', 'delete'],
    ]);
    expect([0, 1, 2, 3].map((ord) => fileTextsOf(db, p.id, ord))).toEqual([
      { baseContent: 'one\ntwo\n', proposedContent: 'one\n2\n' },
      { baseContent: null, proposedContent: 'note\n' },
      { baseContent: 'v1\n', proposedContent: 'v1\n' },
      { baseContent: 'raw\n', proposedContent: null },
    ]);
    expect(() => fileTextsOf(db, p.id, 4)).toThrow(/has no file number 4/);
    expect(() => fileTextsOf(db, 'p-missing', 0)).toThrow(/There is no proposal p-missing/);
    acceptAll(p);
    const full = resultOf(db, p.id);
    expect(full.files[0]?.content).toBe('one\n2\n');
    expect(resultOf(db, p.id, { content: false }).files).toEqual(full.files.map((f) => ({ ...f, content: null })));
  });

  it('creates, reads and lists proposals with the pending count and +/- counts', async () => {
    put('MEMORY.md', 'one\ntwo\n');
    const p = await createProposal(db, {
      title: 'Fix two',
      source: 'edit',
      files: [file('MEMORY.md', 'one\n2\n'), file('extensions/ad_hoc/notes/n.md', 'note\n')],
    });
    ProposalSchema.parse(p);
    expect(p.status).toBe('pending');
    expect(p.files.map((f) => [f.change, f.baseSha256 === null, f.hunks.length])).toEqual([
      ['modify', false, 1],
      ['create', true, 1],
    ]);
    expect(getProposal(db, p.id)).toEqual(p);
    const list = ProposalListSchema.parse(listProposals(db));
    expect(list.pendingCount).toBe(1);
    expect(list.proposals[0]).toMatchObject({ id: p.id, fileCount: 2, added: 2, removed: 1 });
    rejectProposal(db, p.id, 'not now');
    expect(listProposals(db).pendingCount).toBe(0);
    expect(listProposals(db, { status: 'rejected' }).proposals.map((x) => x.note)).toEqual(['not now']);
    await expect(Promise.resolve().then(() => setDecisions(db, p.id, []))).rejects.toMatchObject({ kind: 'Conflict' });
  });

  it('refuses a proposal that changes nothing, and unknown proposals, files and hunks', async () => {
    put('MEMORY.md', 'same\n');
    expect(
      (await refused(createProposal(db, { title: 't', source: 'edit', files: [file('MEMORY.md', 'same\n'), file('gone.md', null)] })))
        .message,
    ).toMatch(/nothing to propose/);
    expect(() => getProposal(db, 'p-nope')).toThrow(/no proposal/);
    const p = await createProposal(db, { title: 't', source: 'edit', files: [file('MEMORY.md', 'other\n')] });
    expect(() => setDecisions(db, p.id, [{ ord: 5, decisions: {} }])).toThrow(/no file number 5/);
    expect(() => setDecisions(db, p.id, [{ ord: 0, decisions: { hbogus: 'accept' } }])).toThrow(/no hunk hbogus/);
  });

  it('stores and loads Codex-DB changes as readable rows', async () => {
    const params = { threadId: 't-1', memoryMode: 'disabled' };
    const p = await createProposal(db, {
      title: 'Forget session t-1',
      source: 'forget',
      files: [],
      dbChanges: [{ db: 'state', description: 'Set memory_mode = disabled for thread t-1', sqlKind: 'thread.disableMemory', params }],
    });
    expect(p.dbChanges).toEqual([
      {
        ord: 0,
        db: 'state',
        version: null,
        description: 'Set memory_mode = disabled for thread t-1',
        sqlKind: 'thread.disableMemory',
        params,
      },
    ]);
    expect(resultOf(db, p.id).dbChanges).toHaveLength(1);
  });

  it('computes the byte-exact result of decisions: CRLF, no final newline, create, delete', async () => {
    put('MEMORY.md', LONG);
    put('memory_summary.md', 'summary without newline');
    put('old.md', 'bye\r\n');
    const proposedMemory = LONG.replace('- fact 2\r\n', '- fact two\r\n').replace('- fact 27\r\n', '- fact 27b\r\n');
    const p = await createProposal(db, {
      title: 'Mixed',
      source: 'edit',
      files: [
        file('MEMORY.md', proposedMemory),
        file('memory_summary.md', 'summary with newline\n'),
        file('new.md', 'hello'),
        file('old.md', null),
      ],
    });
    const [memory] = p.files;
    expect(memory?.hunks).toHaveLength(2);
    const untouched = resultOf(db, p.id);
    expect(untouched.files.map((f) => f.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    setDecisions(db, p.id, [
      { ord: 0, decisions: { [memory?.hunks[0]?.id as string]: 'accept', [memory?.hunks[1]?.id as string]: 'reject' } },
    ]);
    acceptAll({ ...p, files: p.files.slice(1) });
    const result = ProposalResultSchema.parse(resultOf(db, p.id));
    expect(result.files.map((f) => [f.action, f.content])).toEqual([
      ['write', LONG.replace('- fact 2\r\n', '- fact two\r\n')],
      ['write', 'summary with newline\n'],
      ['write', 'hello'],
      ['delete', null],
    ]);
    expect(result.files[0]?.acceptedHunkIds).toEqual([memory?.hunks[0]?.id]);
    expect(result.files[0]?.baseSha256).toBe(memory?.baseSha256);
  });

  it('refuses bad targets: "..", absolute, .git, symlinks, a relative root', async () => {
    put('real.md', 'x\n');
    symlinkSync(join(root, 'real.md'), join(root, 'link.md'));
    mkdirSync(join(dir, 'outside'));
    symlinkSync(join(dir, 'outside'), join(root, 'skills'));
    const cases: Array<[ReturnType<typeof file>, string]> = [
      [file('../escape.md', 'x'), 'Invalid'],
      [file('/etc/passwd', 'x'), 'Invalid'],
      [file('.git/config', 'x'), 'Invalid'],
      [file('a/../../b.md', 'x'), 'Invalid'],
      [file('link.md', 'y\n'), 'Unsupported'],
      [file('skills/new/SKILL.md', 'y\n'), 'Unsupported'],
      [{ ...file('MEMORY.md', 'x'), root: 'memories' }, 'Invalid'],
    ];
    for (const [target, kind] of cases) {
      const failure = await refused(createProposal(db, { title: 't', source: 'edit', files: [target] }));
      expect(failure.kind, target.relPath).toBe(kind);
    }
    expect(listProposals(db).proposals).toHaveLength(0);
  });

  it('rebases three-way: the disk\'s appended line and the proposal\'s edit next to it conflict; "both" keeps the two', async () => {
    put('MEMORY.md', 'a\nb\n');
    const p = await createProposal(db, { title: 't', source: 'edit', files: [file('MEMORY.md', 'a\nB\n')] });
    acceptAll(p);
    put('MEMORY.md', 'a\nb\nc\n');
    const { proposal: rebased } = await rebaseProposal(db, p.id);
    expect(fileTextsOf(db, p.id, 0).baseContent).toBe('a\nb\nc\n');
    const [conflict] = rebased.files[0]?.hunks ?? [];
    expect(conflict?.kind).toBe('conflict');
    expect(rebased.files[0]?.decisions).toEqual({});
    setDecisions(db, p.id, [{ ord: 0, decisions: { [conflict?.id as string]: 'both' } }]);
    expect(resultOf(db, p.id).files[0]?.content).toBe('a\nb\nc\nB\n');
  });
});

describe('history', () => {
  it('an applied proposal counts what Apply wrote (the accepted hunks), not every line it proposed', async () => {
    put('MEMORY.md', LONG);
    const p = await createProposal(db, {
      title: 'Two edits',
      source: 'edit',
      files: [file('MEMORY.md', LONG.replace('fact 1\r\n', 'fact ONE\r\n').replace('fact 28\r\n', 'fact 28\r\nmore\r\nand more\r\n'))],
    });
    const [first, second] = p.files[0]?.hunks ?? [];
    expect(listProposals(db).proposals[0]).toMatchObject({ added: 3, removed: 1 });
    setDecisions(db, p.id, [{ ord: 0, decisions: { [first?.id ?? '']: 'reject', [second?.id ?? '']: 'accept' } }]);
    testApply(p.id);
    expect(listProposals(db).proposals[0]).toMatchObject({ status: 'applied', added: 2, removed: 0 });
    expect(getProposal(db, p.id).files[0]).toMatchObject({ added: 2, removed: 0 });
  });

  it('apply, then revert through a new proposal, gives back the old content', async () => {
    put('MEMORY.md', LONG);
    put('old.md', 'keep me\n');
    const p = await createProposal(db, {
      title: 'Edit',
      source: 'edit',
      files: [file('MEMORY.md', LONG.replace('fact 3', 'fact III')), file('old.md', null), file('new.md', 'n\n')],
    });
    acceptAll(p);
    const entry = HistoryEntrySchema.parse(testApply(p.id));
    expect(entry).toMatchObject({ kind: 'apply', proposalId: p.id, summary: 'Edit' });
    expect(entry.files.map((f) => [f.relPath, f.beforeSha256 !== null, f.afterSha256 !== null])).toEqual([
      ['MEMORY.md', true, true],
      ['old.md', true, false],
      ['new.md', false, true],
    ]);
    expect(getProposal(db, p.id)).toMatchObject({ status: 'applied' });
    expect(() => markApplied(db, p.id)).toThrow(/already applied/);
    expect(disk('old.md')).toBeNull();

    const revert = await revertEntry(db, entry.id);
    expect(revert.source).toBe('revert');
    expect(revert.files.map((f) => f.change)).toEqual(['modify', 'create', 'delete']);
    acceptAll(revert);
    const back = testApply(revert.id);
    expect(back.kind).toBe('revert');
    expect([disk('MEMORY.md'), disk('old.md'), disk('new.md')]).toEqual([LONG, 'keep me\n', null]);
  });

  it('keeps a timeline per file with external changes, and diffs any two versions', async () => {
    put('MEMORY.md', 'v0\n');
    const p1 = await createProposal(db, { title: 'to v1', source: 'edit', files: [file('MEMORY.md', 'v1\n')], now: 1 });
    acceptAll(p1);
    const e1 = testApply(p1.id);
    put('MEMORY.md', 'v2\n');
    const e2 = recordExternalChange(db, {
      version: 'v1',
      root,
      relPath: 'MEMORY.md',
      beforeContent: 'v1\n',
      afterContent: 'v2\n',
      at: Date.now() + 10,
    });
    recordExternalChange(db, {
      version: 'v1',
      root,
      relPath: 'raw_memories.md',
      beforeContent: null,
      afterContent: 'raw\n',
      at: Date.now() + 20,
    });
    const timeline = listHistory(db, { relPath: 'MEMORY.md' });
    expect(timeline.map((e) => [e.id, e.kind])).toEqual([
      [e2.id, 'external'],
      [e1.id, 'apply'],
    ]);
    expect(timeline[0]?.files).toEqual([expect.objectContaining({ relPath: 'MEMORY.md', beforeSize: 3, afterSize: 3 })]);
    expect(listHistory(db)).toHaveLength(3);
    const diff = await historyDiff(db, e1.id, e2.id, 'MEMORY.md');
    expect([diff.from.content, diff.to.content]).toEqual(['v1\n', 'v2\n']);
    expect(diff.hunks[0]?.lines).toEqual(['-v1', '+v2']);
    // Each entry opens as what it changed: before -> after of that entry (an external change too).
    const own = await historyEntryDiff(db, e2.id, 'MEMORY.md');
    expect(own).toMatchObject({ entryId: e2.id, version: 'v1', root, before: { content: 'v1\n' }, after: { content: 'v2\n' } });
    expect(own.hunks[0]?.lines).toEqual(['-v1', '+v2']);
    expect((await historyEntryDiff(db, e1.id, 'MEMORY.md')).hunks[0]?.lines).toEqual(['-v0', '+v1']);
    await expect(historyDiff(db, e1.id, e2.id, 'nope.md')).rejects.toThrow(/did not change nope\.md/);
  });
});
