// The command palette (Ctrl+K / Cmd+K): files, blocks and actions in one list, driven entirely from the keyboard.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { FileList } from '../../../shared/domain';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { Highlighted } from './highlighted';
import { matchRanges, paletteItems, type PaletteAction, type PaletteItem } from './palette-model';
import type { LineSpan } from '../navigation/location';
import { useGlobalKeys } from '../keymap/use-keys';
import type { MemoryVersion } from '../../../shared/domain';
import type { BlockHit } from '../../../shared/search';

export interface CommandPaletteProps {
  lists: readonly FileList[];
  onClose: () => void;
  onOpen: (version: MemoryVersion, path: string, span?: LineSpan) => void;
  onAction: (action: PaletteAction) => void;
  /** The home a demo replaced: the palette then offers the way back. */
  returnHome?: string | null;
}

/** Ctrl+K (Cmd+K on macOS) from anywhere, Monaco included: the keymap's `palette.open`. */
export function usePaletteShortcut(open: () => void): void {
  useGlobalKeys({ 'palette.open': open });
}

/**
 * With hybrid search on (an embeddings endpoint configured), the palette also offers the best passages of the full-text
 * search, as places to jump to: a rephrased question finds them where titles alone would not.
 */
function usePassages(query: string): BlockHit[] {
  const result = useStudioQuery('search.query', query.trim() ? { query, limit: 5 } : skipToken).data;
  return useMemo(
    () =>
      result?.ranking === 'hybrid'
        ? result.hits.map((h) => ({
            version: h.version,
            relPath: h.relPath,
            kind: 'passage',
            line: h.line,
            endLine: h.line,
            title: h.snippet,
            project: h.project,
          }))
        : [],
    [result],
  );
}

interface PaletteRowProps {
  id: string;
  index: number;
  item: PaletteItem;
  query: string;
  active: boolean;
  onHover: () => void;
  onChoose: () => void;
}

/** One match: its label with the query's words marked, and where it leads. */
function PaletteRow({ id, index, item, query, active, onHover, onChoose }: PaletteRowProps) {
  return (
    <li
      id={id}
      data-index={index}
      data-testid="palette-item"
      data-type={item.type}
      role="option"
      aria-selected={active}
      className={active ? 'palette-item is-active' : 'palette-item'}
      onMouseMove={onHover}
      onClick={onChoose}
    >
      <span className="palette-label truncate" title={item.label}>
        <Highlighted text={item.label} ranges={matchRanges(item.label, query)} />
      </span>
      <span className="palette-detail muted truncate" title={item.detail}>
        {item.detail}
      </span>
    </li>
  );
}

export function CommandPalette({ lists, onClose, onOpen, onAction, returnHome = null }: CommandPaletteProps) {
  const [query, setQuery] = useState('');
  // The chosen row by its item (and its place, for when that item goes): search answers arrive while the person moves,
  // and insert rows above; Enter must open the row they chose, not whatever came to stand at its index.
  const [active, setActiveRow] = useState<{ id: string | null; index: number }>({ id: null, index: 0 });
  const blocks = useStudioQuery('search.blocks', query.trim() ? { query, limit: 12 } : skipToken).data;
  const passages = usePassages(query);
  const items = useMemo(
    () => paletteItems(query, lists, query.trim() ? [...(blocks ?? []), ...passages] : [], { returnHome }),
    [query, lists, blocks, passages, returnHome],
  );
  const kept = active.id === null ? -1 : items.findIndex((item) => item.id === active.id);
  const current = kept >= 0 ? kept : Math.min(active.index, Math.max(0, items.length - 1));
  const setActive = (index: number) => setActiveRow({ id: items[index]?.id ?? null, index });
  const id = useId();
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => setActiveRow({ id: null, index: 0 }), [query]);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const choose = (item: PaletteItem | undefined) => {
    if (!item) return;
    onClose();
    if (item.type === 'action') onAction(item.run);
    else if (item.type === 'file') onOpen(item.version, item.path);
    else onOpen(item.version, item.path, item.span);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 8, PageUp: -8 };
    if (event.key in moves) {
      event.preventDefault();
      setActive(Math.max(0, Math.min(items.length - 1, current + (moves[event.key] as number))));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(items[current]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  };

  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette" data-testid="command-palette">
        <input
          autoFocus
          className="palette-input"
          data-testid="palette-input"
          role="combobox"
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-activedescendant={items[current] ? `${id}-${current}` : undefined}
          aria-label="Go to a file, a block or an action"
          placeholder="Go to a file, a MEMORY.md block, a scope, or an action…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <ul id={`${id}-list`} ref={listRef} className="palette-list" role="listbox" aria-label="Matches">
          {items.map((item, index) => (
            <PaletteRow
              key={item.id}
              id={`${id}-${index}`}
              index={index}
              item={item}
              query={query}
              active={index === current}
              onHover={() => setActive(index)}
              onChoose={() => choose(item)}
            />
          ))}
          {items.length === 0 ? <li className="palette-empty muted">Nothing matches “{query}”.</li> : null}
        </ul>
        <p className="palette-keys muted">↑↓ choose · Enter open · Esc close</p>
      </div>
    </div>
  );
}
