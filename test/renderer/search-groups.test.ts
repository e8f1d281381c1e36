// Near-identical search hits fold into one row with "N similar hits"; different passages stay apart, in rank order.
import { describe, expect, it } from 'vitest';
import { groupHits, hitRows, normaliseSnippet } from '../../renderer/src/search/search-groups';
import type { SearchHit } from '../../shared/search';

function hit(relPath: string, line: number, snippet: string, score = 1): SearchHit {
  return { version: 'v1', relPath, kind: 'memory', line, score, snippet, highlights: [], project: null };
}

describe('search hit groups', () => {
  it('treats case, spacing, list marks, numbers and end punctuation as the same text', () => {
    expect(normaliseSnippet('- Run  the FLAKY test 3 times.')).toBe(normaliseSnippet('run the flaky test 12 times'));
    expect(normaliseSnippet('Run the flaky test')).not.toBe(normaliseSnippet('Skip the flaky test'));
  });

  it('folds the same passage across files and lines under its best-ranked hit, keeping rank order', () => {
    const hits = [
      hit('MEMORY.md', 10, 'Flaky test: rerun pdf export once', 9),
      hit('rollout_summaries/a.md', 4, 'Only here: the flaky test is in CI', 8),
      hit('rollout_summaries/b.md', 7, '- flaky test: rerun PDF export once.', 7),
      hit('rollout_summaries/c.md', 2, 'Flaky test:  rerun pdf export once', 6),
      hit('MEMORY.md', 55, 'Flaky test: rerun pdf export once', 5),
    ];
    const groups = groupHits(hits);
    expect(groups.map((g) => [g.first.relPath, g.similar.length])).toEqual([
      ['MEMORY.md', 3],
      ['rollout_summaries/a.md', 0],
    ]);
    expect(groups[0]?.similar.map((h) => `${h.relPath}:${h.line}`)).toEqual([
      'rollout_summaries/b.md:7',
      'rollout_summaries/c.md:2',
      'MEMORY.md:55',
    ]);
  });

  it('shows a group as its best hit and a toggle, and the similar hits once expanded', () => {
    const groups = groupHits([hit('a.md', 1, 'same text'), hit('b.md', 1, 'same text'), hit('b.md', 9, 'Same text.')]);
    const closed = hitRows(groups, new Set());
    expect(closed.map((r) => r.type)).toEqual(['hit', 'more']);
    expect(closed[1]).toMatchObject({ type: 'more', count: 2, paths: 1, expanded: false });
    const open = hitRows(groups, new Set([groups[0]?.key ?? '']));
    expect(open.map((r) => (r.type === 'hit' ? `${r.hit.relPath}:${r.hit.line}:${r.similar}` : 'more'))).toEqual([
      'a.md:1:false',
      'more',
      'b.md:1:true',
      'b.md:9:true',
    ]);
  });

  it('never folds empty snippets together', () => {
    expect(groupHits([hit('a.md', 1, '  '), hit('b.md', 2, '')])).toHaveLength(2);
  });
});
