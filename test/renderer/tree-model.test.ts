// The sidebar tree as rows: kind order, folding by default and by toggle, filter matches, notes, windowing and reveal.
import { describe, expect, it } from 'vitest';
import {
  buildTreeModel,
  FOLD_BY_DEFAULT_ABOVE,
  groupByKind,
  groupKey,
  revealToggles,
  rootKey,
  visibleRowIndexes,
  WINDOWING_THRESHOLD,
  type RootSection,
} from '../../renderer/src/sidebar/tree-model';
import { homeInfo } from './support/studio-stub';
import { entry, fileList } from './support/fixtures';

const v2Root = homeInfo.roots[1]!;
const small = fileList('v2', [
  entry('rollout_summaries/b.md', 'rollout-summary'),
  entry('MEMORY.md', 'memory'),
  entry('rollout_summaries/a.md', 'rollout-summary'),
  entry('memory_summary.md', 'summary'),
]);
const section = (list = small, status: RootSection['status'] = 'ready'): RootSection => ({ root: v2Root, list, status });
const build = (list = small, filter = '', toggled: ReadonlySet<string> = new Set(), status: RootSection['status'] = 'ready') =>
  buildTreeModel({ sections: [{ section: section(list, status), groups: groupByKind(list.files) }], filter, toggled });

describe('tree model', () => {
  it('groups files by kind in the canonical order, sorted by path, with the shared folder left out', () => {
    const groups = groupByKind(small.files);
    expect(groups.map((g) => g.kind)).toEqual(['summary', 'memory', 'rollout-summary']);
    expect(groups[2]?.files.map((f) => f.path)).toEqual(['rollout_summaries/a.md', 'rollout_summaries/b.md']);
    expect(groups[2]?.commonDir).toBe('rollout_summaries/');
  });

  it('lays rows out top to bottom with levels, positions in set and structural indexes', () => {
    const model = build();
    expect(model.rows.map((r) => r.type)).toEqual(['root', 'group', 'file', 'group', 'file', 'group', 'file', 'file']);
    expect(model.rows.map((r) => r.level)).toEqual([1, 2, 3, 2, 3, 2, 3, 3]);
    const last = model.rows[7];
    expect(last?.type === 'file' && [last.posInSet, last.setSize]).toEqual([2, 2]);
    expect(model.structural).toEqual([0, 1, 3, 5]);
    expect(model.totalHeight).toBe(model.rows.reduce((n, r) => n + r.height, 0));
    expect(model.rows[1]?.top).toBe(model.rows[0]?.height);
  });

  it('folds a big group by default and unfolds it while filtering', () => {
    const big = fileList(
      'v2',
      Array.from({ length: FOLD_BY_DEFAULT_ABOVE + 1 }, (_, i) =>
        entry(`rollout_summaries/s-${String(i).padStart(3, '0')}.md`, 'rollout-summary'),
      ),
    );
    const folded = build(big);
    expect(folded.rows.map((r) => r.type)).toEqual(['root', 'group']);
    const filtered = build(big, 's-00');
    const group = filtered.rows[1];
    expect(group?.type === 'group' && [group.expanded, group.matches, group.total]).toEqual([true, 10, FOLD_BY_DEFAULT_ABOVE + 1]);
    expect(filtered.rows.filter((r) => r.type === 'file')).toHaveLength(10);
  });

  it('folds what the person toggled, and says why a root has no files yet', () => {
    expect(build(small, '', new Set([rootKey('v2')])).rows).toHaveLength(1);
    expect(build(small, '', new Set([groupKey('v2', 'rollout-summary')])).rows.filter((r) => r.type === 'file')).toHaveLength(2);
    const loading = build(small, '', new Set(), 'loading').rows[1];
    expect(loading?.type === 'note' && loading.text).toBe('Listing files…');
    const empty = build(fileList('v2', [])).rows[1];
    expect(empty?.type === 'note' && empty.text).toBe('This root is empty.');
  });

  it('mounts a small tree whole and a large one near the viewport, with structure and the active row', () => {
    expect(visibleRowIndexes(build(), 0, 100, -1)).toHaveLength(8);
    const huge = fileList(
      'v2',
      Array.from({ length: WINDOWING_THRESHOLD + 50 }, (_, i) => entry(`skills/s/${String(i).padStart(4, '0')}.md`, 'skill-file')),
    );
    const model = buildTreeModel({
      sections: [{ section: section(huge), groups: groupByKind(huge.files) }],
      filter: '',
      toggled: new Set(),
    });
    const shown = visibleRowIndexes(model, 0, 240, model.rows.length - 1);
    expect(shown.length).toBeLessThan(60);
    expect(shown).toContain(0);
    expect(shown).toContain(model.rows.length - 1);
  });

  it('reveals an opened file by unfolding its root and group, and changes nothing when it already shows', () => {
    const file = entry('rollout_summaries/a.md', 'rollout-summary');
    const none = new Set<string>();
    expect(revealToggles(none, 'v2', file, 3)).toBe(none);
    const next = revealToggles(new Set([rootKey('v2'), groupKey('v2', 'rollout-summary')]), 'v2', file, 3);
    expect([...next]).toEqual([]);
    // A big group is folded by default: revealing it adds the toggle.
    expect([...revealToggles(none, 'v2', file, FOLD_BY_DEFAULT_ABOVE + 1)]).toEqual([groupKey('v2', 'rollout-summary')]);
  });
});
