// Keyboard model of the file tree (WAI-ARIA tree pattern) on the keymap: arrows move, Left/Right fold, Enter opens.
import type { RefObject } from 'react';
import { useKeyScope } from '../keymap/use-keys';
import type { TreeModel, TreeRow } from './tree-model';

export interface TreeKeyboardOptions {
  model: TreeModel;
  activeIndex: number;
  viewportHeight: number;
  setActive: (index: number) => void;
  onActivate: (row: TreeRow) => void;
  onToggle: (row: TreeRow) => void;
}

function step(rows: readonly TreeRow[], from: number, direction: 1 | -1): number {
  // Notes ("Listing files…") are not interactive: skip them.
  for (let i = from + direction; i >= 0 && i < rows.length; i += direction) {
    if (rows[i]?.type !== 'note') return i;
  }
  return from;
}

function parentIndex(rows: readonly TreeRow[], index: number): number {
  const level = rows[index]?.level ?? 1;
  for (let i = index - 1; i >= 0; i -= 1) {
    if ((rows[i]?.level ?? 1) < level) return i;
  }
  return index;
}

/** Where a tree key moves the active row (null: it stays), after folding or opening what the key does to the row. */
export function treeKey(
  key: string,
  { model, activeIndex, viewportHeight, onActivate, onToggle }: Omit<TreeKeyboardOptions, 'setActive'>,
): number | null {
  const { rows } = model;
  const current = activeIndex >= 0 && activeIndex < rows.length ? activeIndex : -1;
  const row = current >= 0 ? rows[current] : undefined;
  const page = Math.max(1, Math.floor(viewportHeight / 24) - 1);
  switch (key) {
    case 'ArrowDown':
      return current < 0 ? step(rows, -1, 1) : step(rows, current, 1);
    case 'ArrowUp':
      return current < 0 ? step(rows, rows.length, -1) : step(rows, current, -1);
    case 'Home':
      return step(rows, -1, 1);
    case 'End':
      return step(rows, rows.length, -1);
    case 'PageDown':
      return Math.min(rows.length - 1, Math.max(current, 0) + page);
    case 'PageUp':
      return Math.max(0, current - page);
    case 'ArrowRight':
      if (row && row.type !== 'file' && row.type !== 'note') {
        if (row.expanded) return step(rows, current, 1);
        onToggle(row);
      }
      return null;
    case 'ArrowLeft':
      if (row && (row.type === 'group' || row.type === 'root') && row.expanded) onToggle(row);
      else if (row) return parentIndex(rows, current);
      return null;
    default:
      if (row) onActivate(row);
      return null;
  }
}

/** The tree's keys on the keymap (scope `tree`, see keymap/bindings.ts), while the focus is in `tree`. */
export function useTreeKeyboard(tree: RefObject<HTMLElement | null>, options: TreeKeyboardOptions): void {
  const onKey = (event: KeyboardEvent) => {
    if (options.model.rows.length === 0) return false;
    const next = treeKey(event.key, options);
    const current = options.activeIndex >= 0 && options.activeIndex < options.model.rows.length ? options.activeIndex : -1;
    if (next !== null && next !== current) options.setActive(next);
    return undefined;
  };
  useKeyScope(tree, 'tree', { 'tree.move': onKey, 'tree.fold': onKey, 'tree.open': onKey });
}
