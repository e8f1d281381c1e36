// One proposal landing the same big text in two places (an arrival or an import writes both roots): each file is
// masked and diffed as if alone, the masking of the shared pair done once, and the files stay in their order.
import { describe, expect, it, vi } from 'vitest';
import { createProposal, fileTextsOf } from '../../../electron/core/review';
import * as storedTexts from '../../../electron/core/review/stored-texts';
import type { StudioDb } from '../../../electron/core/studio-db';
import { eachWithReviewDb, putFile } from './review-db';

let root: string;
let db: StudioDb;
eachWithReviewDb((t) => ({ root, db } = t));

const put = (rel: string, content: string | Buffer) => putFile(root, rel, content);

// A base with a key on a line the proposal keeps: the key is masked at rest in both files.
const KEY = 'sk-proj-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
const bigMemory = (lines: number) =>
  Array.from({ length: lines }, (_, i) =>
    i === 7 ? `- deploy uses OPENAI_API_KEY=${KEY}` : `- memory line ${i}: keep the checklist short`,
  ).join('\n') + '\n';

describe('a proposal with one text in two places', () => {
  it('masks and diffs each file alike, in order, and a third file of its own text apart', async () => {
    const base = bigMemory(30_000);
    const proposed = `${base}- a line the sync brought\n`;
    const paths = ['a/MEMORY.md', 'b/MEMORY.md', 'c/MEMORY.md'];
    for (const p of paths) put(p, base);
    const other = `${base}- a different line\n`;
    const masking = vi.spyOn(storedTexts, 'maskPairAsync');
    const proposal = await createProposal(db, {
      title: 'Arrival',
      source: 'import',
      files: [
        { version: 'v1', root, relPath: paths[0] ?? '', proposedContent: proposed },
        { version: 'v2', root, relPath: paths[1] ?? '', proposedContent: proposed },
        { version: 'v1', root, relPath: paths[2] ?? '', proposedContent: other },
      ],
    });
    // Two distinct pairs, each masked once (the shared one is not scanned again for the second root).
    expect(masking).toHaveBeenCalledTimes(2);
    masking.mockRestore();
    expect(proposal.files.map((f) => f.relPath)).toEqual(paths);
    const texts = proposal.files.map((f) => fileTextsOf(db, proposal.id, f.ord));
    for (const t of texts) {
      expect(t.baseContent).not.toContain(KEY);
      expect(t.baseContent?.split('\n')[7]).toMatch(/^- deploy uses OPENAI_API_KEY=sk-p/);
    }
    expect(texts[0]).toEqual(texts[1]);
    expect(texts[0]?.proposedContent?.endsWith('- a line the sync brought\n')).toBe(true);
    expect(texts[2]?.proposedContent?.endsWith('- a different line\n')).toBe(true);
    const added = proposal.files.map((f) => f.hunks.flatMap((h) => h.lines.filter((l) => l.startsWith('+'))));
    expect(added).toEqual([['+- a line the sync brought'], ['+- a line the sync brought'], ['+- a different line']]);
  });
});
