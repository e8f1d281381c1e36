// Where the person is: the active view, and in the Files view which file (and line range) or session is open.
import type { MemoryVersion } from '../../../shared/domain';

// Review and History come last so Alt+1..4 keep the places people already learned.
export const views = [
  'files',
  'rollouts',
  'projects',
  'health',
  'review',
  'history',
  'consolidate',
  'import',
  'search',
  'doctor',
  'sync',
  'coverage',
] as const;
export type View = (typeof views)[number];

/** The digit of a view's Alt shortcut, by position: 1..9, then 0 for the tenth (the number row's order); null past it. */
export function viewKey(view: View): string | null {
  const position = views.indexOf(view) + 1;
  if (position > 10) return null;
  return position === 10 ? '0' : String(position);
}

/** The view an Alt+digit opens (0 is the tenth), or undefined. */
export function viewForKey(digit: string): View | undefined {
  const n = Number(digit);
  return views[(n === 0 ? 10 : n) - 1];
}

export const viewLabels: Record<View, string> = {
  files: 'Files',
  rollouts: 'Rollouts',
  projects: 'Projects',
  health: 'Health',
  review: 'Review',
  history: 'History',
  consolidate: 'Consolidate',
  import: 'Import',
  search: 'Search',
  doctor: 'Doctor',
  sync: 'Sync',
  coverage: 'Coverage',
};

/** 1-based, inclusive, as every outline and citation in shared/ counts lines. */
export interface LineSpan {
  line: number;
  endLine: number;
  /** Words on `line` to scroll to sideways and select (a search hit's match on a long unwrapped line). */
  match?: string;
  /** Columns on `line` to scroll to sideways and select (a diagnostic's range), 1-based, end exclusive. */
  startColumn?: number;
  endColumn?: number;
}

/** The span a search hit opens: its line, and the first highlighted words of its snippet as the match. */
export function spanOfHit(hit: { line: number; snippet: string; highlights: ReadonlyArray<readonly [number, number]> }): LineSpan {
  const first = hit.highlights[0];
  const match = first ? hit.snippet.slice(first[0], first[1]).trim() : '';
  return match ? { line: hit.line, endLine: hit.line, match } : { line: hit.line, endLine: hit.line };
}

/** The span a diagnostic opens: its lines, and its columns on the first line when it has them. */
export function spanOfDiagnostic(d: { line: number; endLine: number; startColumn?: number; endColumn?: number }): LineSpan {
  if (d.startColumn === undefined) return { line: d.line, endLine: d.endLine };
  const endColumn = d.endLine === d.line && d.endColumn !== undefined ? d.endColumn : d.startColumn;
  return { line: d.line, endLine: d.endLine, startColumn: d.startColumn, endColumn };
}

export interface FileTarget {
  version: MemoryVersion;
  path: string;
  /** Lines to scroll to and highlight once the file is shown. */
  span?: LineSpan;
}

/** What the Files view's main pane shows; `seq` makes a repeated jump to the same line count as new. */
export type FilesLocation =
  | { type: 'file'; version: MemoryVersion; path: string; span: LineSpan | null; seq: number }
  | { type: 'session'; threadId: string; seq: number };

export interface NavState {
  /** The home the location belongs to: after a switch (the demo) it is ignored, not re-read. */
  codexHome: string | null;
  view: View;
  location: FilesLocation | null;
  /** Earlier locations, newest last, for Back (capped). */
  history: FilesLocation[];
  seq: number;
  /** The proposal the Review view shows, or null for the first pending one. */
  proposalId: string | null;
}

export type NavAction =
  | { type: 'view'; view: View }
  | { type: 'open-file'; codexHome: string; target: FileTarget }
  | { type: 'open-session'; codexHome: string; threadId: string }
  | { type: 'open-proposal'; codexHome: string; id: string | null }
  | { type: 'back' };

export const initialNav: NavState = { codexHome: null, view: 'files', location: null, history: [], seq: 0, proposalId: null };

const HISTORY_CAP = 50;

function sameTarget(a: FilesLocation | null, b: FilesLocation): boolean {
  if (!a || a.type !== b.type) return false;
  if (a.type === 'session' && b.type === 'session') return a.threadId === b.threadId;
  return a.type === 'file' && b.type === 'file' && a.version === b.version && a.path === b.path;
}

/** Moves to a location in the Files view; a jump inside the open file does not add a Back step. */
function go(state: NavState, codexHome: string, next: FilesLocation): NavState {
  const current = state.codexHome === codexHome ? state.location : null;
  const history = current && !sameTarget(current, next) ? [...state.history, current].slice(-HISTORY_CAP) : state.history;
  return { ...state, codexHome, view: 'files', location: next, history: state.codexHome === codexHome ? history : [], seq: next.seq };
}

export function navReducer(state: NavState, action: NavAction): NavState {
  switch (action.type) {
    case 'view':
      return state.view === action.view ? state : { ...state, view: action.view };
    case 'open-file': {
      const { version, path, span } = action.target;
      return go(state, action.codexHome, { type: 'file', version, path, span: span ?? null, seq: state.seq + 1 });
    }
    case 'open-session':
      return go(state, action.codexHome, { type: 'session', threadId: action.threadId, seq: state.seq + 1 });
    case 'open-proposal': {
      // The proposal belongs to this home: bind the state to it (a location of another home is dropped), else it reads as stale.
      const same = state.codexHome === action.codexHome;
      return {
        ...state,
        codexHome: action.codexHome,
        location: same ? state.location : null,
        history: same ? state.history : [],
        view: 'review',
        proposalId: action.id,
      };
    }
    case 'back': {
      const previous = state.history[state.history.length - 1];
      if (!previous) return state;
      // Going back re-shows the place without jumping again.
      const location = previous.type === 'file' ? { ...previous, span: null, seq: state.seq + 1 } : previous;
      return { ...state, view: 'files', location, history: state.history.slice(0, -1), seq: state.seq + 1 };
    }
  }
}

/** A short name for a location, for "Back to …" buttons. */
export function describeLocation(location: FilesLocation): string {
  if (location.type === 'session') return `session ${location.threadId.slice(0, 8)}…`;
  return `${location.version}/${location.path}`;
}
