// The first screen of a home: the summary of the root Codex reads, never another root's while that one is listing.
import { describe, expect, it } from 'vitest';
import { firstFileOf } from '../../renderer/src/navigation/first-file';
import { buildTreeModel, groupByKind, rowHeights, type RootSection } from '../../renderer/src/sidebar/tree-model';
import { entry, fileList } from './support/fixtures';
import { homeInfo } from './support/studio-stub';

const [v1Root, v2Root] = homeInfo.roots as [(typeof homeInfo.roots)[0], (typeof homeInfo.roots)[0]];
const summaryList = (version: 'v1' | 'v2') => fileList(version, [entry('memory_summary.md', 'summary')]);
const readsV1 = { ...homeInfo, codexReads: { version: 'v1' as const, source: 'config' as const, off: null } };

describe('first file', () => {
  it('waits while the root config.toml names is listing, even when the other root is ready', () => {
    const sections: RootSection[] = [
      { root: v1Root, list: undefined, status: 'loading' },
      { root: v2Root, list: summaryList('v2'), status: 'ready' },
    ];
    expect(firstFileOf(readsV1, sections)).toBe('wait');
    expect(firstFileOf(undefined, sections)).toBe('wait');
  });

  it('opens the read root’s summary, and another root’s only when the read one has none', () => {
    const ready: RootSection[] = [
      { root: v1Root, list: summaryList('v1'), status: 'ready' },
      { root: v2Root, list: summaryList('v2'), status: 'ready' },
    ];
    expect(firstFileOf(readsV1, ready)).toEqual({ version: 'v1', path: 'memory_summary.md' });
    expect(firstFileOf(homeInfo, ready)).toEqual({ version: 'v2', path: 'memory_summary.md' });
    const v1Empty: RootSection[] = [{ root: v1Root, list: fileList('v1', []), status: 'ready' }, ready[1]!];
    expect(firstFileOf(readsV1, v1Empty)).toEqual({ version: 'v2', path: 'memory_summary.md' });
    expect(firstFileOf(readsV1, [{ root: v1Root, list: fileList('v1', []), status: 'ready' }])).toBeNull();
  });

  it('badges a root Codex does not read in its heading, which grows to hold it', () => {
    const list = summaryList('v2');
    const section: RootSection = { root: v2Root, list, status: 'ready', notRead: 'not read by Codex (config: v1)' };
    const model = buildTreeModel({ sections: [{ section, groups: groupByKind(list.files) }], filter: '', toggled: new Set() });
    const root = model.rows[0];
    expect(root?.type === 'root' && root.notRead).toBe('not read by Codex (config: v1)');
    expect(root?.height).toBe(rowHeights.rootNotRead);
    expect(model.rows[1]?.top).toBe(rowHeights.rootNotRead);
  });
});
