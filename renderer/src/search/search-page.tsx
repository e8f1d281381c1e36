// The Search view: ranked full-text search over every memory file, with filters, highlighted lines and jump to line.
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { fileKindLabels, fileKinds, type FileKind, type MemoryVersion } from '../../../shared/domain';
import type { SearchHit, SearchInput, SearchResult } from '../../../shared/search';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { useRovingList } from '../hooks/use-roving-list';
import { spanOfHit, type LineSpan } from '../navigation/location';
import { Highlighted } from './highlighted';
import { IndexState } from './index-state';
import { groupHits, hitRows, type HitRow as Row } from './search-groups';

export interface SearchPageProps {
  versions: readonly MemoryVersion[];
  onOpen: (version: MemoryVersion, path: string, span?: LineSpan) => void;
  /** A query handed over by the command palette ("Search memory for …"). */
  initialQuery: string;
}

const DEBOUNCE_MS = 120;
const LIMIT = 50;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

interface Filters {
  version: MemoryVersion | '';
  kind: FileKind | '';
  project: string;
}

/**
 * What the page had when it was left (module memory, like VS Code's search view): the query, the filters, which groups
 * were expanded, and the palette query last handed over (so coming back does not replace the query with an old one).
 */
const remembered: { query: string; filters: Filters; expanded: Set<string>; handedOver: string; scroll: { key: string; top: number } } = {
  query: '',
  filters: { version: '', kind: '', project: '' },
  expanded: new Set(),
  handedOver: '',
  // How far the results were scrolled, for the search they belong to (another search starts at the top).
  scroll: { key: '', top: 0 },
};

/**
 * The results list's scroll offset, kept as it scrolls and put back once the same search's rows are shown again
 * (coming back from a file opened from a hit). Returns the list's ref, combined with the roving list's.
 */
function useRememberedScroll(key: string, shown: boolean, listRef: (element: HTMLElement | null) => void) {
  const list = useRef<HTMLElement | null>(null);
  const restored = useRef(false);
  const ref = useCallback(
    (element: HTMLElement | null) => {
      list.current = element;
      listRef(element);
    },
    [listRef],
  );
  useLayoutEffect(() => {
    const element = list.current;
    if (!element || !shown || restored.current) return;
    restored.current = true;
    if (remembered.scroll.key === key) element.scrollTop = remembered.scroll.top;
  }, [key, shown]);
  const onScroll = () => {
    if (list.current) remembered.scroll = { key, top: list.current.scrollTop };
  };
  return { ref, onScroll };
}

function FilterBar({
  filters,
  versions,
  onChange,
}: {
  filters: Filters;
  versions: readonly MemoryVersion[];
  onChange: (next: Filters) => void;
}) {
  const projects = useStudioQuery('search.projects', {}).data ?? [];
  const id = useId();
  return (
    <div className="search-filters" role="group" aria-label="Filters">
      <label htmlFor={`${id}-v`}>Root</label>
      <select
        id={`${id}-v`}
        data-testid="search-version"
        value={filters.version}
        onChange={(e) => onChange({ ...filters, version: e.target.value as Filters['version'] })}
      >
        <option value="">Both roots</option>
        {versions.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-k`}>Kind</label>
      <select
        id={`${id}-k`}
        data-testid="search-kind"
        value={filters.kind}
        onChange={(e) => onChange({ ...filters, kind: e.target.value as Filters['kind'] })}
      >
        <option value="">Every kind</option>
        {fileKinds.map((k) => (
          <option key={k} value={k}>
            {fileKindLabels[k]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-p`}>Project</label>
      <select
        id={`${id}-p`}
        data-testid="search-project"
        value={filters.project}
        onChange={(e) => onChange({ ...filters, project: e.target.value })}
      >
        <option value="">Every project</option>
        {projects.map((p) => (
          <option key={p.project} value={p.project}>
            {p.project} ({p.files})
          </option>
        ))}
      </select>
    </div>
  );
}

type Roving = ReturnType<ReturnType<typeof useRovingList>['itemProps']>;

function HitRow({ hit, open, roving, similar }: { hit: SearchHit; open: () => void; roving: Roving; similar: boolean }) {
  return (
    <li className={similar ? 'search-hit-similar' : undefined}>
      <button
        type="button"
        className="search-hit"
        data-testid="search-hit"
        data-similar={similar ? 'true' : undefined}
        data-path={hit.relPath}
        data-line={hit.line}
        onClick={open}
        {...roving}
      >
        <span className="search-hit-where">
          <span className="badge">{hit.version}</span>{' '}
          <span className="search-hit-path truncate" title={hit.relPath}>
            {hit.relPath}
          </span>
          <span className="muted">:{hit.line}</span>
          {hit.project ? (
            <span className="chip" title={hit.project}>
              {hit.project}
            </span>
          ) : null}
          <span className="muted search-hit-score" title="BM25 relevance">
            {hit.score.toFixed(2)}
          </span>
        </span>
        <span className="search-hit-snippet">
          <Highlighted text={hit.snippet} ranges={hit.highlights} />
        </span>
      </button>
    </li>
  );
}

function MoreRow({ row, roving, toggle }: { row: Extract<Row, { type: 'more' }>; roving: Roving; toggle: () => void }) {
  const where = row.paths === 1 ? 'in 1 more file' : `in ${row.paths} files`;
  return (
    <li className="search-more">
      <button
        type="button"
        className="search-more-toggle"
        data-testid="search-similar-toggle"
        aria-expanded={row.expanded}
        onClick={toggle}
        {...roving}
      >
        <span aria-hidden="true">{row.expanded ? '▾' : '▸'}</span> {row.count} similar hit{row.count === 1 ? '' : 's'} {where}
      </button>
    </li>
  );
}

function Summary({ data, shown, groups }: { data: SearchResult | undefined; shown: number; groups: number }) {
  const folded = groups < shown ? ` · ${shown - groups} near-identical folded` : '';
  return (
    <p className="muted search-summary" role="status" data-testid="search-summary">
      {!data
        ? 'Searching…'
        : shown === 0
          ? `No matches for “${data.query}”.`
          : `${shown} of ${data.total >= 10_000 ? 'over 10,000' : data.total.toLocaleString()} matching passages${folded} · ${data.elapsedMs} ms${data.ranking === 'hybrid' ? ' · ranked by words and meaning (BM25 and embeddings)' : ''}`}
    </p>
  );
}

function Results({ input, onOpen }: { input: SearchInput; onOpen: SearchPageProps['onOpen'] }) {
  const result = useStudioQuery('search.query', input.query.trim() !== '' ? input : skipToken);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(remembered.expanded));
  const groups = useMemo(() => groupHits(result.data?.hits ?? []), [result.data]);
  const rows = useMemo(() => hitRows(groups, expanded), [groups, expanded]);
  const roving = useRovingList(rows.length);
  const scroll = useRememberedScroll(JSON.stringify(input), rows.length > 0, roving.listRef);
  const toggle = (key: string) => {
    const next = new Set(expanded);
    if (!next.delete(key)) next.add(key);
    remembered.expanded = next;
    setExpanded(next);
  };
  if (input.query.trim() === '') {
    return (
      <p className="muted search-help">
        Type to search every memory file of this home. Words match whatever their case or accents; <code>&quot;quoted words&quot;</code>{' '}
        match as a phrase; words of three letters or more also match longer words they start. ↓ moves to the results, Enter opens one at its
        line.
      </p>
    );
  }
  if (result.error)
    return <ErrorPanel error={toStudioError(result.error)} onRetry={() => void result.refetch()} retrying={result.isFetching} />;
  const data = result.data;
  return (
    <>
      <Summary data={data} shown={data?.hits.length ?? 0} groups={groups.length} />
      {data?.notes.map((note) => (
        <p key={note} className="notice">
          {note}
        </p>
      ))}
      <ul className="search-hits" aria-label="Search results" ref={scroll.ref} onScroll={scroll.onScroll}>
        {rows.map((row, index) =>
          row.type === 'more' ? (
            <MoreRow key={`more:${row.key}`} row={row} roving={roving.itemProps(index)} toggle={() => toggle(row.key)} />
          ) : (
            <HitRow
              key={`${row.hit.version}:${row.hit.relPath}:${row.hit.line}:${index}`}
              hit={row.hit}
              similar={row.similar}
              roving={roving.itemProps(index)}
              open={() => onOpen(row.hit.version, row.hit.relPath, spanOfHit(row.hit))}
            />
          ),
        )}
      </ul>
    </>
  );
}

export function SearchPage({ versions, onOpen, initialQuery }: SearchPageProps) {
  // A query handed over by the palette wins once; otherwise the page comes back as it was left.
  const handover = initialQuery !== '' && initialQuery !== remembered.handedOver;
  const [query, setQuery] = useState(handover ? initialQuery : remembered.query);
  const [filters, setFilters] = useState<Filters>(remembered.filters);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (initialQuery !== '' && initialQuery !== remembered.handedOver) setQuery(initialQuery);
    remembered.handedOver = initialQuery;
    inputRef.current?.focus();
  }, [initialQuery]);
  useEffect(() => {
    remembered.query = query;
    remembered.filters = filters;
  }, [query, filters]);
  const settled = useDebounced(query, DEBOUNCE_MS);
  const input: SearchInput = {
    query: settled,
    limit: LIMIT,
    ...(filters.version ? { version: filters.version } : {}),
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.project ? { project: filters.project } : {}),
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'ArrowDown') return;
    const first = document.querySelector<HTMLElement>('.search-hits .search-hit');
    if (!first) return;
    event.preventDefault();
    first.focus();
  };
  return (
    <section className="page search-page" aria-labelledby="search-title">
      <header className="page-header">
        <h1 id="search-title">Search</h1>
        <IndexState />
      </header>
      <input
        ref={inputRef}
        type="search"
        className="search-input"
        data-testid="search-input"
        data-autofocus
        aria-label="Search every memory file"
        placeholder="Search memory: words, “a phrase”, a thread id…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <FilterBar filters={filters} versions={versions} onChange={setFilters} />
      <Results input={input} onOpen={onOpen} />
    </section>
  );
}
