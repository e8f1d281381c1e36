// Rejecting a proposal of megabytes: the outcome readers see, and that only the proposal's row is written (a file's row
// holds its texts, and SQLite rewrites the whole row to change its status: the main loop was held for it).
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createProposal, fileTextsOf, getProposal, listProposals, rejectProposal, setDecisions } from '../../../electron/core/review';
import { listHistory } from '../../../electron/core/history';
import type { StudioDb } from '../../../electron/core/studio-db';
import { ProposalSchema } from '../../../shared/review';
import { eachWithReviewDb } from './review-db';

let root: string;
let db: StudioDb;
eachWithReviewDb((t) => ({ root, db } = t));

const file = (relPath: string, proposedContent: string | null) => ({ version: 'v1' as const, root, relPath, proposedContent });

/** A MEMORY.md of about 2 MB, as a consolidation's: every 500th line changed in the proposed one. */
function bigMemory(): { base: string; proposed: string } {
  const lines = Array.from(
    { length: 26_000 },
    (_, i) => `- entry ${i}: a remembered fact that runs on for a while to fill the line ${i * 7}`,
  );
  const base = `# Memory\n\n${lines.join('\n')}\n`;
  const proposed = `# Memory\n\n${lines.map((l, i) => (i % 500 === 0 ? `${l} (revised)` : l)).join('\n')}\n`;
  return { base, proposed };
}

const walBytes = () => statSync(`${db.path}-wal`).size;

it('rejects a proposal of megabytes by writing its own row only, every file reading rejected and keeping its texts', async () => {
  const { base, proposed } = bigMemory();
  writeFileSync(join(root, 'MEMORY.md'), base);
  writeFileSync(join(root, 'old.md'), 'gone soon\n');
  const made = await createProposal(db, {
    title: 'Consolidation',
    source: 'consolidation',
    files: [file('MEMORY.md', proposed), file('new.md', 'fresh\n'), file('old.md', null)],
  });
  const hunk = made.files[0]?.hunks[0]?.id as string;
  setDecisions(db, made.id, [{ ord: 0, decisions: { [hunk]: 'accept' } }]);
  const before = getProposal(db, made.id);
  db.raw.pragma('wal_checkpoint(TRUNCATE)');
  expect(walBytes()).toBe(0);

  const rejected = rejectProposal(db, made.id, 'not this one');

  // The texts are 4 MB; the reject wrote a few pages (without the change: every file row again, texts and all).
  expect(base.length + proposed.length).toBeGreaterThan(4_000_000);
  expect(walBytes()).toBeLessThan(256 * 1024);
  ProposalSchema.parse(rejected);
  expect(rejected).toEqual({
    ...before,
    status: 'rejected',
    note: 'not this one',
    files: before.files.map((f) => ({ ...f, status: 'rejected' })),
  });
  expect(getProposal(db, made.id)).toEqual(rejected);
  expect(fileTextsOf(db, made.id, 0)).toEqual({ baseContent: base, proposedContent: proposed });
  const list = listProposals(db);
  expect(list.pendingCount).toBe(0);
  expect(list.proposals.map((p) => [p.id, p.status, p.fileCount])).toEqual([[made.id, 'rejected', 3]]);
  expect(listHistory(db)).toEqual([]);
  expect(() => rejectProposal(db, made.id)).toThrow(/already rejected/);
  expect(() => setDecisions(db, made.id, [])).toThrow(/already rejected/);
});
