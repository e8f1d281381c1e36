// Keyboard model of the file tree (WAI-ARIA tree pattern): arrows move, Left/Right fold, Enter opens.
import { useCallback, type KeyboardEvent } from 'react';
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

export function useTreeKeyboard({ model, activeIndex, viewportHeight, setActive, onActivate, onToggle }: TreeKeyboardOptions) {
  return useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      const { rows } = model;
      if (rows.length === 0) return;
      const current = activeIndex >= 0 && activeIndex < rows.length ? activeIndex : -1;
      const row = current >= 0 ? rows[current] : undefined;
      const page = Math.max(1, Math.floor(viewportHeight / 24) - 1);
      let next: number | null = null;

      switch (event.key) {
        case 'ArrowDown':
          next = current < 0 ? step(rows, -1, 1) : step(rows, current, 1);
          break;
        case 'ArrowUp':
          next = current < 0 ? step(rows, rows.length, -1) : step(rows, current, -1);
          break;
        case 'Home':
          next = step(rows, -1, 1);
          break;
        case 'End':
          next = step(rows, rows.length, -1);
          break;
        case 'PageDown':
          next = Math.min(rows.length - 1, Math.max(current, 0) + page);
          break;
        case 'PageUp':
          next = Math.max(0, current - page);
          break;
        case 'ArrowRight':
          if (row && row.type !== 'file' && row.type !== 'note') {
            if (row.expanded) next = step(rows, current, 1);
            else onToggle(row);
          }
          break;
        case 'ArrowLeft':
          if (row && (row.type === 'group' || row.type === 'root') && row.expanded) onToggle(row);
          else if (row) next = parentIndex(rows, current);
          break;
        case 'Enter':
        case ' ':
          if (row) onActivate(row);
          break;
        default:
          return;
      }
      event.preventDefault();
      if (next !== null && next !== current) setActive(next);
    },
    [model, activeIndex, viewportHeight, setActive, onActivate, onToggle],
  );
}
