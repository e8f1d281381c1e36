// The view tablist and the rollout grid on the keymap (scopes `tabs` and `grid`): the same keys move the same way as when
// each handled its own keydown, and keys on the grid's header buttons stay theirs.
import { fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { RolloutRow } from '../../shared/inspect';
import { bindings } from '../../renderer/src/keymap/bindings';
import { views, type View } from '../../renderer/src/navigation/location';
import { ViewTabs } from '../../renderer/src/navigation/view-tabs';
import { useActiveRow } from '../../renderer/src/rollouts/use-active-row';
import { rolloutRow } from './support/fixtures';

function Tabs({ initial }: { initial: View }) {
  const [view, setView] = useState<View>(initial);
  return <ViewTabs view={view} onChange={setView} />;
}

function tabs(initial: View) {
  render(<Tabs initial={initial} />);
  const selected = () => screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.dataset.view;
  const press = (key: string, init: KeyboardEventInit = {}) => fireEvent.keyDown(document.activeElement ?? document.body, { key, ...init });
  screen
    .getAllByRole('tab')
    .find((tab) => tab.dataset.view === initial)
    ?.focus();
  return { selected, press };
}

describe('the view tablist', () => {
  it('binds its keys in its own scope', () => {
    const keys = bindings.filter((b) => b.scope === 'tabs').map((b) => `${b.key} ${b.command}`);
    expect(keys).toEqual(['ArrowRight tabs.move', 'ArrowLeft tabs.move', 'Home tabs.move', 'End tabs.move']);
  });

  it('moves to the next and previous view with the arrows, wrapping around, and keeps the focus on the shown tab', () => {
    const { selected, press } = tabs('files');
    expect(press('ArrowRight')).toBe(false);
    expect(selected()).toBe('rollouts');
    expect((document.activeElement as HTMLElement).dataset.view).toBe('rollouts');
    press('ArrowLeft');
    press('ArrowLeft');
    expect(selected()).toBe(views[views.length - 1]);
    press('ArrowRight');
    expect(selected()).toBe('files');
  });

  it('jumps to the first and last view with Home and End, and leaves other keys alone', () => {
    const { selected, press } = tabs('health');
    press('End');
    expect(selected()).toBe('coverage');
    press('Home');
    expect(selected()).toBe('files');
    expect(press('ArrowDown')).toBe(true);
    expect(selected()).toBe('files');
  });
});

const rows: RolloutRow[] = ['a', 'b', 'c', 'd'].map((name) => rolloutRow(`rollout_summaries/${name}.md`, { title: name }));

function Grid({ opened }: { opened: string[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const active = useActiveRow({
    rows,
    scrollerRef: ref,
    rowHeight: 30,
    headerHeight: 32,
    viewport: 32 + 30 * 2,
    onOpen: (row) => opened.push(row.path),
  });
  return (
    <div ref={ref} role="grid" tabIndex={0} data-active={active.activeIndex} onFocus={active.onFocus}>
      <button type="button">Sort by date</button>
    </div>
  );
}

function grid() {
  const opened: string[] = [];
  render(<Grid opened={opened} />);
  const element = screen.getByRole('grid');
  fireEvent.focus(element);
  const press = (key: string) => fireEvent.keyDown(element, { key });
  const active = () => Number(element.dataset.active);
  return { opened, press, active };
}

describe('the rollout grid', () => {
  it('starts on the first row, moves by row and by page, and stops at the ends', () => {
    const { press, active } = grid();
    expect(active()).toBe(0);
    expect(press('ArrowDown')).toBe(false);
    expect(active()).toBe(1);
    // A page is the rows that fit under the header, less one (two here): one row.
    press('PageDown');
    expect(active()).toBe(2);
    press('End');
    expect(active()).toBe(3);
    press('ArrowDown');
    expect(active()).toBe(3);
    press('Home');
    press('ArrowUp');
    expect(active()).toBe(0);
  });

  it('opens the active row with Enter or Space', () => {
    const { opened, press } = grid();
    press('ArrowDown');
    expect(press('Enter')).toBe(false);
    press(' ');
    expect(opened).toEqual(['rollout_summaries/b.md', 'rollout_summaries/b.md']);
  });

  it("leaves keys on the header's sort buttons to them", () => {
    const { opened, active } = grid();
    const sort = screen.getByRole('button', { name: 'Sort by date' });
    expect(fireEvent.keyDown(sort, { key: 'Enter' })).toBe(true);
    expect(fireEvent.keyDown(sort, { key: 'ArrowDown' })).toBe(true);
    expect(opened).toEqual([]);
    expect(active()).toBe(0);
  });
});
