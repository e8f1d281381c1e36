// Rebase of proposals against real temp roots and a real Studio DB: merges, conflicts, carried decisions, bad input.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StudioFailure } from '../../../electron/core/platform/errors';
import {
  createProposal,
  fileTextsOf,
  getProposal,
  mergeTextsOf,
  rebaseProposal,
  resultOf,
  setDecisions,
  stalenessOf,
} from '../../../electron/core/review';
import type { StudioDb } from '../../../electron/core/studio-db';
import { ANALYSIS_CAP_BYTES } from '../../../electron/core/codex/workspace';
import { ProposalSchema, RebaseOutcomeSchema, type Hunk, type Proposal } from '../../../shared/review';
import { eachWithReviewDb, putFile } from './review-db';

let root: string;
let db: StudioDb;
eachWithReviewDb((t) => ({ root, db } = t));

const put = (rel: string, content: string | Buffer) => putFile(root, rel, content);
const file = (relPath: string, proposedContent: string | null) => ({ version: 'v1' as const, root, relPath, proposedContent });
const propose = (files: ReturnType<typeof file>[]) => createProposal(db, { title: 'Edit', source: 'edit', files });
const lines = (n: number) => Array.from({ length: n }, (_, i) => `- fact ${i}\n`);
const decide = (p: Proposal, pick: (h: Hunk) => string | undefined, edits?: Record<string, string>) =>
  setDecisions(
    db,
    p.id,
    p.files.map((f) => ({
      ord: f.ord,
      decisions: Object.fromEntries(f.hunks.flatMap((h) => (pick(h) ? [[h.id, pick(h)]] : []))),
      ...(edits ? { edits } : {}),
    })) as never,
  );

async function refused(run: () => unknown): Promise<StudioFailure> {
  const error = await Promise.resolve()
    .then(run)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(StudioFailure);
  return error as StudioFailure;
}

describe('rebase', () => {
  it("keeps the disk's change and the proposal's, and the decisions of hunks it did not touch", async () => {
    const base = lines(40);
    put('MEMORY.md', base.join(''));
    const ours = [...base];
    ours[5] = '- fact five\n';
    ours[30] = '- fact thirty\n';
    const p = await propose([file('MEMORY.md', ours.join(''))]);
    const [five, thirty] = p.files[0]?.hunks as [Hunk, Hunk];
    setDecisions(db, p.id, [{ ord: 0, decisions: { [five.id]: 'accept', [thirty.id]: 'reject' } }]);
    const theirs = [...base];
    theirs[18] = '- fact 18, rewritten by Codex\n';
    put('MEMORY.md', theirs.join(''));
    expect((await stalenessOf(db, p.id)).stale).toEqual([
      expect.objectContaining({ ord: 0, state: 'changed', message: expect.stringMatching(/changed on disk since you proposed it/) }),
    ]);

    const outcome = RebaseOutcomeSchema.parse(await rebaseProposal(db, p.id));
    expect(outcome.files).toEqual([
      expect.objectContaining({ outcome: 'merged', conflicts: [], message: expect.stringMatching(/merged in cleanly\. 2 decisions kept/) }),
    ]);
    const rebased = outcome.proposal.files[0];
    expect(fileTextsOf(db, p.id, 0)).toEqual({
      baseContent: theirs.join(''),
      proposedContent: [...ours.slice(0, 18), theirs[18], ...ours.slice(19)].join(''),
    });
    expect(rebased?.rebase).toMatchObject({ mergeBaseSha256: p.files[0]?.baseSha256 });
    expect(Object.values(rebased?.decisions ?? {}).sort()).toEqual(['accept', 'reject']);
    expect((await stalenessOf(db, p.id)).stale).toEqual([]);
    const result = resultOf(db, p.id).files[0];
    expect(result?.content).toBe([...theirs.slice(0, 5), '- fact five\n', ...theirs.slice(6)].join(''));
    expect(result?.unresolvedHunkIds).toEqual([]);
  });

  it('turns overlapping changes into conflict hunks that accept-all cannot resolve; each resolution is exact', async () => {
    put('memory_summary.md', 'v1\n\n## Tips\n- use pnpm\n- run tests\n');
    const p = await propose([file('memory_summary.md', 'v1\n\n## Tips\n- use pnpm, always\n- run tests\n')]);
    put('memory_summary.md', 'v1\n\n## Tips\n- use pnpm 9\n- run tests\n');
    const { proposal, files } = await rebaseProposal(db, p.id);
    ProposalSchema.parse(proposal);
    const conflict = proposal.files[0]?.hunks.find((h) => h.kind === 'conflict') as Hunk;
    expect(files[0]).toMatchObject({ outcome: 'conflicts', conflicts: [conflict.id] });
    expect(conflict.conflict).toMatchObject({
      base: { text: ['- use pnpm'] },
      theirs: { text: ['- use pnpm 9'] },
      ours: { text: ['- use pnpm, always'] },
    });
    expect(mergeTextsOf(db, p.id, 0)).toEqual({
      base: 'v1\n\n## Tips\n- use pnpm\n- run tests\n',
      theirs: 'v1\n\n## Tips\n- use pnpm 9\n- run tests\n',
      ours: 'v1\n\n## Tips\n- use pnpm, always\n- run tests\n',
    });
    expect((await refused(() => decide(proposal, () => 'accept'))).message).toMatch(
      /is a conflict between the disk and the proposal: "accept" does not resolve it/,
    );
    expect(resultOf(db, p.id).files[0]).toMatchObject({ action: 'unchanged', unresolvedHunkIds: [conflict.id] });
    decide(proposal, () => 'both');
    expect(resultOf(db, p.id).files[0]?.content).toBe('v1\n\n## Tips\n- use pnpm 9\n- use pnpm, always\n- run tests\n');
    decide(proposal, () => 'edit', { [conflict.id]: '- use pnpm 9, always\n' });
    expect(resultOf(db, p.id).files[0]).toMatchObject({
      content: 'v1\n\n## Tips\n- use pnpm 9, always\n- run tests\n',
      unresolvedHunkIds: [],
      acceptedHunkIds: [conflict.id],
    });
    expect(getProposal(db, p.id).files[0]?.edits).toEqual({ [conflict.id]: '- use pnpm 9, always\n' });
    expect(
      (await refused(() => setDecisions(db, p.id, [{ ord: 0, decisions: { [conflict.id]: 'edit' }, edits: { [conflict.id]: 'a\0b' } }])))
        .message,
    ).toMatch(/NUL bytes/);
  });

  it('a second rebase merges from the proposal again and keeps the resolution of a conflict it did not touch', async () => {
    const base = lines(30);
    put('MEMORY.md', base.join(''));
    const ours = [...base];
    ours[3] = '- ours 3\n';
    const p = await propose([file('MEMORY.md', ours.join(''))]);
    const theirs = [...base];
    theirs[3] = '- disk 3\n';
    put('MEMORY.md', theirs.join(''));
    const first = await rebaseProposal(db, p.id);
    decide(first.proposal, () => 'theirs');
    theirs[25] = '- disk 25\n';
    put('MEMORY.md', theirs.join(''));
    const second = await rebaseProposal(db, p.id);
    expect(second.files[0]).toMatchObject({ outcome: 'conflicts' });
    expect(Object.values(second.proposal.files[0]?.decisions ?? {})).toEqual(['theirs']);
    expect(resultOf(db, p.id).files[0]).toMatchObject({ action: 'unchanged', unresolvedHunkIds: [] });
    // The merge base stays the file as proposed, not the disk of the first rebase.
    expect(mergeTextsOf(db, p.id, 0).base).toBe(base.join(''));
  });

  it('a file deleted on disk while the proposal edits it is a whole-file conflict; both sides deleting is nothing to do', async () => {
    put('a.md', 'keep\n');
    put('b.md', 'old\n');
    const p = await propose([file('a.md', 'changed\n'), file('b.md', null), file('c.md', 'new\n')]);
    rmSync(join(root, 'a.md'));
    rmSync(join(root, 'b.md'));
    put('c.md', 'made by Codex meanwhile\n');
    expect((await stalenessOf(db, p.id)).stale.map((f) => [f.relPath, f.state])).toEqual([
      ['a.md', 'deleted'],
      ['b.md', 'deleted'],
      ['c.md', 'created'],
    ]);
    const { proposal, files } = await rebaseProposal(db, p.id);
    expect(files.map((f) => f.outcome)).toEqual(['conflicts', 'merged', 'conflicts']);
    expect(files[0]?.message).toMatch(/deleted on disk and the proposal changes it/);
    expect(files[1]?.message).toMatch(/deleted on disk, as the proposal does/);
    const [a, b] = proposal.files;
    expect([a?.baseSha256, a?.change, b?.change, b?.hunks]).toEqual([null, 'create', 'unchanged', []]);
    const whole = a?.hunks[0] as Hunk;
    expect(whole.conflict?.absent).toBe('theirs');
    expect((await refused(() => decide(proposal, () => 'both'))).message).toMatch(/cannot take both sides: the file was deleted on disk/);
    decide(proposal, () => 'theirs');
    expect(resultOf(db, p.id).files.map((f) => f.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    // Both created the file: one conflict over all of it; "both" keeps Codex's lines, then the proposal's.
    decide({ ...proposal, files: proposal.files.slice(2) }, () => 'both');
    expect(resultOf(db, p.id).files[2]).toMatchObject({ action: 'write', content: 'made by Codex meanwhile\nnew\n' });
    decide(proposal, () => 'ours');
    expect(resultOf(db, p.id).files[0]).toMatchObject({ action: 'write', content: 'changed\n' });
  });

  it('a file changed on disk that the proposal deletes asks whether to keep it', async () => {
    put('old.md', 'bye\n');
    const p = await propose([file('old.md', null)]);
    put('old.md', 'bye, but Codex added a line\n');
    const { proposal } = await rebaseProposal(db, p.id);
    expect(proposal.files[0]?.hunks[0]?.conflict?.absent).toBe('ours');
    decide(proposal, () => 'ours');
    expect(resultOf(db, p.id).files[0]?.action).toBe('delete');
    decide(proposal, () => 'theirs');
    expect(resultOf(db, p.id).files[0]?.action).toBe('unchanged');
  });

  it('refuses, naming the file and changing nothing, when the disk turned binary or too big or the stored base is damaged', async () => {
    put('MEMORY.md', 'a\nb\n');
    const p = await propose([file('MEMORY.md', 'a\nB\n')]);
    put('MEMORY.md', Buffer.from([0x61, 0x00, 0x62, 0x0a]));
    const binary = await refused(() => rebaseProposal(db, p.id));
    expect(binary.message).toMatch(
      /^Cannot rebase proposal p-\w+: MEMORY\.md looks binary .* Nothing was changed: the proposal is as it was\.$/,
    );
    expect(binary.hint).toMatch(/Restore MEMORY\.md/);
    // Past the processing cap (review reads files the editor does not open, up to 64 MiB).
    put('MEMORY.md', 'x'.repeat(ANALYSIS_CAP_BYTES + 1));
    expect((await refused(() => rebaseProposal(db, p.id))).message).toMatch(/MEMORY\.md is 64(\.0)? MiB, more than the 64\.0 MiB/);
    expect(getProposal(db, p.id)).toEqual(p);
    put('MEMORY.md', 'a\nb\nc\n');
    db.raw.prepare("UPDATE proposal_files SET base_content = 'tampered' WHERE proposal_id = ?").run(p.id);
    const damaged = await refused(() => rebaseProposal(db, p.id));
    expect(damaged.message).toMatch(/stored base of MEMORY\.md is missing from Memory Studio's data folder or damaged/);
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).toBe('a\nb\nc\n');
  });

  it('leaves files the disk did not change exactly as they were, decisions included', async () => {
    put('a.md', 'a\n');
    put('b.md', 'b\n');
    const before = decide(await propose([file('a.md', 'A\n'), file('b.md', 'B\n')]), () => 'accept');
    put('b.md', 'b, by Codex\n');
    const { proposal, files } = await rebaseProposal(db, before.id);
    expect(files.map((f) => f.outcome)).toEqual(['unchanged', 'conflicts']);
    expect(proposal.files[0]).toEqual(before.files[0]);
    expect(Object.values(proposal.files[0]?.decisions ?? {})).toEqual(['accept']);
  });
});
