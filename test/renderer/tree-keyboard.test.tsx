// The file tree's keyboard (WAI-ARIA tree): arrows skip notes, Left goes to the parent or folds, Right unfolds, Enter opens.
import { fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { buildTreeModel, groupByKind, type TreeModel, type TreeRow } from '../../renderer/src/sidebar/tree-model';
import { useTreeKeyboard } from '../../renderer/src/sidebar/use-tree-keyboard';
import { entry, fileList } from './support/fixtures';
import { homeInfo } from './support/studio-stub';

const list = fileList('v2', [
  entry('memory_summary.md', 'summary'),
  entry('MEMORY.md', 'memory'),
  entry('rollout_summaries/a.md', 'rollout-summary'),
]);
const v1Loading = { section: { root: homeInfo.roots[0]!, list: undefined, status: 'loading' as const }, groups: [] };
const v2 = { section: { root: homeInfo.roots[1]!, list, status: 'ready' as const }, groups: groupByKind(list.files) };
// Rows: 0 root v1, 1 note, 2 root v2, 3 group summary, 4 file, 5 group memory, 6 file, 7 group rollouts, 8 file.
const model: TreeModel = buildTreeModel({ sections: [v1Loading, v2], filter: '', toggled: new Set() });

function Tree({ log }: { log: string[] }) {
  const [active, setActive] = useState(-1);
  const ref = useRef<HTMLDivElement>(null);
  useTreeKeyboard(ref, {
    model,
    activeIndex: active,
    viewportHeight: 24 * 4,
    setActive,
    onActivate: (row: TreeRow) => log.push(`open ${row.key}`),
    onToggle: (row: TreeRow) => log.push(`toggle ${row.key}`),
  });
  return <div ref={ref} role="tree" tabIndex={0} data-active={active} />;
}

function setup() {
  const log: string[] = [];
  render(<Tree log={log} />);
  const tree = screen.getByRole('tree');
  const press = (key: string) => fireEvent.keyDown(tree, { key });
  const active = () => Number(tree.dataset.active);
  return { log, press, active };
}

describe('tree keyboard', () => {
  it('moves down from nothing to the first row and skips the loading note', () => {
    const { press, active } = setup();
    press('ArrowDown');
    expect(active()).toBe(0);
    press('ArrowDown');
    expect(active()).toBe(2);
    press('ArrowUp');
    expect(active()).toBe(0);
  });

  it('goes to the last row with End and the first with Home', () => {
    const { press, active } = setup();
    press('End');
    expect(active()).toBe(8);
    press('Home');
    expect(active()).toBe(0);
  });

  it('Left on a file goes to its group, Left on an open group folds it; Right on an open group enters it', () => {
    const { press, active, log } = setup();
    press('End');
    press('ArrowLeft');
    expect(active()).toBe(7);
    press('ArrowLeft');
    expect(log).toEqual(['toggle group:v2:rollout-summary']);
    press('ArrowRight');
    expect(active()).toBe(8);
  });

  it('opens the active row with Enter and Space, and pages by the viewport', () => {
    const { press, active, log } = setup();
    press('PageDown');
    expect(active()).toBe(3);
    press('ArrowDown');
    press('Enter');
    press(' ');
    expect(log).toEqual(['open file:v2:memory_summary.md', 'open file:v2:memory_summary.md']);
  });

  it('leaves other keys to the page', () => {
    const { active } = setup();
    const tree = screen.getByRole('tree');
    const event = new KeyboardEvent('keydown', { key: 'x', bubbles: true, cancelable: true });
    tree.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(active()).toBe(-1);
  });
});
