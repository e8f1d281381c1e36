// The command palette's list: named actions first, files ranked by name, index blocks, then the rest of the actions.
import { describe, expect, it } from 'vitest';
import { matchRanges, paletteItems } from '../../renderer/src/search/palette-model';
import type { BlockHit } from '../../shared/search';
import { entry, fileList } from './support/fixtures';

const lists = [
  fileList('v2', [
    entry('memory_summary.md', 'summary'),
    entry('MEMORY.md', 'memory'),
    entry('rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md', 'rollout-summary'),
    entry('skills/export/summary-notes.md', 'skill-file'),
  ]),
];

describe('palette model', () => {
  it('offers every view and Back for an empty query, and no search or files', () => {
    const items = paletteItems('', lists, []);
    expect(items.every((item) => item.type === 'action')).toBe(true);
    expect(items.map((i) => i.id)).toContain('view-review');
    expect(items.map((i) => i.id)).not.toContain('search');
    expect(items.at(-1)?.id).toBe('back');
    expect(items.find((i) => i.id === 'view-rollouts')?.detail).toBe('Alt+2');
  });

  it('offers the way out of a demo only while a demo replaced a home, and finds it by its words', () => {
    expect(paletteItems('', lists, []).map((i) => i.id)).not.toContain('leave-demo');
    const leave = paletteItems('', lists, [], { returnHome: '/home/dana/.codex' }).find((i) => i.id === 'leave-demo');
    expect(leave).toMatchObject({ type: 'action', run: { kind: 'leaveDemo' }, detail: '/home/dana/.codex' });
    expect(paletteItems('return home', lists, [], { returnHome: '/h' })[0]?.id).toBe('leave-demo');
    expect(paletteItems('leave demo', lists, [], { returnHome: '/h' })[0]?.id).toBe('leave-demo');
  });

  it('puts actions the query names first, then files with a name match ahead of a folder match, then the search', () => {
    const items = paletteItems('summar', lists, []);
    expect(items[0]?.type).toBe('file');
    const files = items.filter((i) => i.type === 'file').map((i) => i.label);
    // summary-notes.md starts with the word; memory_summary.md holds it in its name; the rollout file only in its folder.
    expect(files[0]).toBe('skills/export/summary-notes.md');
    expect(files).toContain('memory_summary.md');
    expect(files).toContain('rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md');
    expect(files.indexOf('memory_summary.md')).toBeLessThan(
      files.indexOf('rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md'),
    );
    const search = items.find((i) => i.id === 'search');
    expect(search?.type === 'action' && search.run).toEqual({ kind: 'search', query: 'summar' });
  });

  it('needs every word of the query in a file path', () => {
    const files = paletteItems('export flaky', lists, []).filter((i) => i.type === 'file');
    expect(files.map((f) => f.label)).toEqual(['rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md']);
  });

  it('lists a named view first and labels index blocks with their kind, file and line', () => {
    const hit: BlockHit = {
      version: 'v1',
      relPath: 'MEMORY.md',
      kind: 'memory-task',
      line: 7,
      endLine: 12,
      title: 'fix flaky PDF export test',
      project: 'invoice-svc',
    };
    const items = paletteItems('review', lists, [hit]);
    expect(items[0]?.id).toBe('view-review');
    const block = items.find((i) => i.type === 'block');
    expect(block).toMatchObject({
      label: 'fix flaky PDF export test',
      detail: 'MEMORY.md task · v1 MEMORY.md:7 · invoice-svc',
      span: { line: 7, endLine: 12 },
    });
  });

  it('offers Theme: System, Light and Dark, first when the query names them', () => {
    const items = paletteItems('theme', lists, []);
    expect(items.slice(0, 3).map((i) => i.type === 'action' && i.run)).toEqual([
      { kind: 'theme', theme: 'system' },
      { kind: 'theme', theme: 'light' },
      { kind: 'theme', theme: 'dark' },
    ]);
    expect(paletteItems('dark', lists, [])[0]?.label).toBe('Theme: Dark');
  });

  it('keeps at most eight files', () => {
    const many = fileList(
      'v1',
      Array.from({ length: 20 }, (_, i) => entry(`rollout_summaries/note-${i}.md`, 'rollout-summary')),
    );
    expect(paletteItems('note', [many], []).filter((i) => i.type === 'file')).toHaveLength(8);
  });

  it('marks every occurrence of each query word in a label, merged and in order', () => {
    expect(matchRanges('skills/export/summary-notes.md', 'summ')).toEqual([[14, 18]]);
    expect(matchRanges('Go to Review', 'RE')).toEqual([[6, 8]]);
    expect(matchRanges('memory_summary.md', 'mem summary')).toEqual([
      [0, 3],
      [7, 14],
    ]);
    // Overlapping words merge into one range; an empty query marks nothing.
    expect(matchRanges('memory_summary.md', 'summ mary')).toEqual([[7, 14]]);
    expect(matchRanges('memory_summary.md', '  ')).toEqual([]);
  });
});
