// A proposal of big texts is stored on the pool (its own connection), so the app's main loop does not hold the
// transaction; a small one stays in this thread. The stored proposal is the same either way.
import { describe, expect, it } from 'vitest';
import { createProposal, fileTextsOf, setDecisions, resultOf } from '../../../electron/core/review';
import { poolAvailable } from '../../../electron/core/runtime/pool';
import type { StudioDb } from '../../../electron/core/studio-db';
import { eachWithReviewDb, putFile } from './review-db';

let root: string;
let db: StudioDb;
eachWithReviewDb((t) => ({ root, db } = t));

const put = (rel: string, content: string | Buffer) => putFile(root, rel, content);
/** Rows this test's own connection has written since it opened (SQLite's total_changes()). */
const ownChanges = () => db.raw.prepare('SELECT total_changes()').pluck().get() as number;

function bigMemory(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `- memory line ${i}: keep the deploy checklist short and current`).join('\n') + '\n';
}

describe('storing a new proposal', () => {
  it('writes one past 1 MiB of text on another connection, complete and reviewable', async () => {
    expect(poolAvailable()).toBe(true);
    const base = bigMemory(20_000);
    put('MEMORY.md', base);
    const proposed = base.replace('memory line 12345:', 'memory line 12345 (edited):');
    // Past the 1 MiB line (store-proposal.ts): a base and a proposed text of 1.3 MB each.
    expect(base.length * 2).toBeGreaterThan(2 * 1024 * 1024);
    const before = ownChanges();
    const proposal = await createProposal(db, {
      title: 'Edit MEMORY.md',
      source: 'edit',
      files: [{ version: 'v1', root, relPath: 'MEMORY.md', proposedContent: proposed }],
    });
    // This connection wrote none of it: the pool's did, in its one transaction.
    expect(ownChanges()).toBe(before);
    expect(proposal.files).toHaveLength(1);
    expect(proposal.files[0]?.hunks).toHaveLength(1);
    expect(fileTextsOf(db, proposal.id, 0)).toEqual({ baseContent: base, proposedContent: proposed });
    setDecisions(db, proposal.id, [{ ord: 0, decisions: { [proposal.files[0]?.hunks[0]?.id as string]: 'accept' } }]);
    expect(resultOf(db, proposal.id).files[0]?.content).toBe(proposed);
  });

  it('writes a small one on its own connection', async () => {
    put('memory_summary.md', 'v1\n## User Profile\n');
    const before = ownChanges();
    await createProposal(db, {
      title: 'Edit the summary',
      source: 'edit',
      files: [{ version: 'v1', root, relPath: 'memory_summary.md', proposedContent: 'v1\n## User Profile\n- prefers pnpm\n' }],
    });
    expect(ownChanges()).toBeGreaterThan(before);
  });
});
