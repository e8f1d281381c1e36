// The outline beside the editor: sections, scopes, date groups, task groups (Enter jumps) and pointers (Enter opens).
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { ParsedOutline } from '../../../shared/formats';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { useRovingList, type RovingItemProps } from '../hooks/use-roving-list';
import type { LineSpan } from '../navigation/location';
import { KeywordChips } from './keyword-chips';
import { buildOutline, outlineTitle, rowAtLine, type OutlineRow } from './outline-model';

export interface OutlinePanelProps {
  path: string;
  outline: ParsedOutline | undefined;
  error: Error | null;
  retry: () => void;
  onJump: (span: LineSpan) => void;
  onOpenPointer: (file: string) => void;
  /** Paths of the open file's root, to flag pointers whose target is missing (null while listing). */
  knownPaths: ReadonlySet<string> | null;
  /** The editor's cursor line: the section holding it is marked current and kept in view (null before the editor reports). */
  cursorLine: number | null;
}

/** Big raw_memories.md files have thousands of threads; the rest is one click away. */
const ROW_CAP = 400;

interface RowViewProps {
  row: OutlineRow;
  roving: RovingItemProps;
  missing: boolean;
  /** The section the editor's cursor is in. */
  current: boolean;
  onJump: (span: LineSpan) => void;
  onOpenPointer: (file: string) => void;
}

function RowBody({ row, missing }: { row: OutlineRow; missing: boolean }) {
  return (
    <>
      <span className="outline-main">
        <span className="outline-label">{row.label}</span>
        {row.badge ? <span className="badge badge-small">{row.badge}</span> : null}
        {row.warning ? (
          <span className="badge badge-small badge-warning" title={row.warning}>
            check
          </span>
        ) : null}
        {missing ? (
          <span className="badge badge-small badge-error" title="No such file in this root">
            missing
          </span>
        ) : null}
        <span className="outline-line muted">{row.line}</span>
      </span>
      {row.detail ? <span className="outline-detail muted">{row.detail}</span> : null}
      {row.chips && row.chips.length > 0 ? <KeywordChips keywords={row.chips} /> : null}
    </>
  );
}

/** Pointer rows open the rollout summary (click or Enter); every other row moves the editor to its lines. */
function RowView({ row, roving, missing, current, onJump, onOpenPointer }: RowViewProps) {
  const style = { '--depth': row.depth } as CSSProperties;
  if (row.type === 'pointer') {
    return (
      <button
        type="button"
        {...roving}
        className="outline-row outline-pointer"
        style={style}
        data-testid="pointer-link"
        data-file={row.file}
        data-thread-id={row.threadId ?? undefined}
        title={`Open ${row.file} (pointer on line ${row.line})`}
        onClick={() => onOpenPointer(row.file)}
      >
        <span className="pointer-icon" aria-hidden="true">
          ↗
        </span>
        <RowBody row={row} missing={missing} />
      </button>
    );
  }
  return (
    <button
      type="button"
      {...roving}
      className={current ? 'outline-row is-current' : 'outline-row'}
      aria-current={current ? 'location' : undefined}
      style={style}
      data-testid="outline-item"
      data-line={row.line}
      title={row.warning ?? `Go to line ${row.line}`}
      onClick={() => onJump({ line: row.line, endLine: row.endLine })}
    >
      <RowBody row={row} missing={missing} />
    </button>
  );
}

/** The row of the cursor's section, scrolled into the panel's view whenever the cursor enters another section. */
function useCurrentRow(rows: readonly OutlineRow[], cursorLine: number | null) {
  const index = useMemo(() => rowAtLine(rows, cursorLine), [rows, cursorLine]);
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (index < 0) return;
    // `nearest`: a row already on screen stays put; only the panel scrolls (the page itself does not). At the next frame,
    // not in React's commit: scrolling forces a layout, and the first one of a big file's outline (hundreds of rows
    // beside a 5 MB editor) made the commit that mounted it one long task.
    const frame = requestAnimationFrame(() => ref.current?.scrollIntoView({ block: 'nearest' }));
    return () => cancelAnimationFrame(frame);
  }, [index]);
  return { index, ref };
}

function OutlineBody({ rows, path, ...rest }: Omit<OutlinePanelProps, 'outline' | 'error' | 'retry'> & { rows: OutlineRow[] }) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? rows : rows.slice(0, ROW_CAP);
  const roving = useRovingList(shown.length);
  // Found among every row: past the cap, the cursor's section is not the last shown row (nothing is marked then).
  const current = useCurrentRow(rows, rest.cursorLine);
  if (rows.length === 0) {
    return <p className="panel-empty muted">{path} has no headings or entries to outline.</p>;
  }
  return (
    <>
      <ul className="outline-list" ref={roving.listRef}>
        {shown.map((row, index) => (
          <li key={row.key} ref={index === current.index ? current.ref : undefined}>
            <RowView
              row={row}
              roving={roving.itemProps(index)}
              missing={row.type === 'pointer' && rest.knownPaths !== null && !rest.knownPaths.has(row.file)}
              current={index === current.index}
              onJump={rest.onJump}
              onOpenPointer={rest.onOpenPointer}
            />
          </li>
        ))}
      </ul>
      {shown.length < rows.length ? (
        <button type="button" className="button button-small outline-more" onClick={() => setShowAll(true)}>
          Show all {rows.length.toLocaleString()} entries
          {current.index >= shown.length ? ` (the cursor is in entry ${(current.index + 1).toLocaleString()})` : ''}
        </button>
      ) : null}
    </>
  );
}

export function OutlinePanel({ path, outline, error, retry, ...rest }: OutlinePanelProps) {
  const rows = useMemo(() => (outline ? buildOutline(outline) : []), [outline]);
  const showLoading = useDelayedFlag(!outline && !error);
  const title = outline ? outlineTitle(outline.kind) : 'Outline';
  return (
    <nav className="side-panel outline-panel" aria-label={`${title} of ${path}`} data-testid="outline-panel">
      <header className="panel-header">
        <h2>{title}</h2>
        {outline ? <span className="muted">{rows.length.toLocaleString()}</span> : null}
      </header>
      <div className="panel-scroll">
        {error ? (
          <ErrorPanel compact title={`Cannot outline ${path}`} error={toStudioError(error)} onRetry={retry} />
        ) : outline ? (
          <OutlineBody key={path} rows={rows} path={path} {...rest} />
        ) : showLoading ? (
          <LoadingState inline label={`Reading the structure of ${path}…`} />
        ) : null}
      </div>
    </nav>
  );
}
