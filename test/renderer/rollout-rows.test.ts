// The rollout table's sort and filter: direction, rows without a value last either way, ties by path, the filter fields.
import { describe, expect, it } from 'vitest';
import { filterRows, sortRows } from '../../renderer/src/rollouts/rollout-rows';
import { rolloutRow } from './support/fixtures';

const rows = [
  rolloutRow('rollout_summaries/b.md', {
    updatedAt: '2026-03-02T18:00:00Z',
    project: 'webapp',
    gitBranch: 'main',
    dbUsageCount: 3,
    citations: 1,
    title: 'Fix flaky export',
  }),
  rolloutRow('rollout_summaries/a.md', {
    updatedAt: '2026-03-04T09:00:00Z',
    project: 'Invoice-svc',
    gitBranch: 'feature/pdf',
    dbUsageCount: null,
    citations: 4,
  }),
  rolloutRow('rollout_summaries/c.md', { updatedAt: null, project: null, gitBranch: 'main', dbUsageCount: 10, citations: 1 }),
  rolloutRow('rollout_summaries/d.md', { updatedAt: 'not a date', project: 'api', dbUsageCount: 3, citations: 0 }),
];
const paths = (list: { path: string }[]) => list.map((r) => r.path.replace('rollout_summaries/', ''));

describe('rollout rows', () => {
  it('sorts by date newest first and puts missing or unreadable dates last', () => {
    expect(paths(sortRows(rows, { key: 'date', direction: 'desc' }))).toEqual(['a.md', 'b.md', 'c.md', 'd.md']);
    expect(paths(sortRows(rows, { key: 'date', direction: 'asc' }))).toEqual(['b.md', 'a.md', 'c.md', 'd.md']);
  });

  it('sorts names case-insensitively, missing ones last', () => {
    expect(paths(sortRows(rows, { key: 'project', direction: 'asc' }))).toEqual(['d.md', 'a.md', 'b.md', 'c.md']);
    expect(paths(sortRows(rows, { key: 'project', direction: 'desc' }))).toEqual(['b.md', 'a.md', 'd.md', 'c.md']);
  });

  it('breaks ties by path and keeps rows without usage last', () => {
    expect(paths(sortRows(rows, { key: 'usage', direction: 'desc' }))).toEqual(['c.md', 'b.md', 'd.md', 'a.md']);
    expect(paths(sortRows(rows, { key: 'citations', direction: 'desc' }))).toEqual(['a.md', 'b.md', 'c.md', 'd.md']);
  });

  it('does not reorder its input', () => {
    const before = paths(rows);
    sortRows(rows, { key: 'project', direction: 'asc' });
    expect(paths(rows)).toEqual(before);
  });

  it('filters on project, branch, title and file name, ignoring case and spaces', () => {
    expect(paths(filterRows(rows, '  INVOICE ', null))).toEqual(['a.md']);
    expect(paths(filterRows(rows, 'feature/', null))).toEqual(['a.md']);
    expect(paths(filterRows(rows, 'flaky', null))).toEqual(['b.md']);
    expect(paths(filterRows(rows, 'c.md', null))).toEqual(['c.md']);
    expect(filterRows(rows, '', null)).toHaveLength(4);
  });

  it('keeps only never-cited paths when asked, together with the text', () => {
    const neverCited = new Set(['rollout_summaries/c.md', 'rollout_summaries/d.md']);
    expect(paths(filterRows(rows, '', neverCited))).toEqual(['c.md', 'd.md']);
    expect(paths(filterRows(rows, 'main', neverCited))).toEqual(['c.md']);
  });
});
