// A rebase where one side deletes or creates the whole file: its hunk is the one a review of that change shows (the
// merge builds it without the block diff, so a rebase does not load the parsers).
import { describe, expect, it } from 'vitest';
import { computeReviewHunks } from '../../../electron/core/review/review-hunks';
import { threeWay } from '../../../electron/core/review/three-way';

const key = ['sk', 'proj', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6'].join('-');
const text = `# Task Group: build\n\n- uses pnpm\n- OPENAI_API_KEY=${key}\n`;

describe('three-way merge of a whole file', () => {
  it('deletes a file the disk left as it was with the hunk a review of the deletion shows, secret marked', () => {
    const merged = threeWay(text, text, null);
    expect(merged.proposed).toBeNull();
    expect(merged.hunks).toEqual(computeReviewHunks(text, null));
    expect(merged.hunks).toHaveLength(1);
    expect(merged.hunks[0]?.secrets?.length ?? 0).toBeGreaterThan(0);
  });

  it('creates a file neither side had with the hunk a review of the creation shows', () => {
    const merged = threeWay(null, null, text);
    expect(merged.proposed).toBe(text);
    expect(merged.hunks).toEqual(computeReviewHunks(null, text));
    expect(merged.kind).toBe('merged');
  });
});
