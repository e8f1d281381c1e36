// Every keyboard shortcut of the app as data: key, scope, command, and when it applies (the keymap resolves them).
import type { KeyBinding } from './keymap';

/** Enter keeps its own meaning on buttons, links, lists, text areas, Monaco and inputs marked `data-own-enter`. */
export function enterIsOwned(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('.monaco-editor, [data-own-enter]')) return true;
  if (['BUTTON', 'A', 'TEXTAREA', 'SELECT', 'SUMMARY'].includes(target.tagName)) return true;
  if (target.tagName === 'INPUT') return ['button', 'submit', 'reset', 'file'].includes((target as HTMLInputElement).type);
  return ['button', 'link', 'tab', 'option', 'menuitem'].includes(target.getAttribute('role') ?? '');
}

/** Enter starts a run from anywhere in the Consolidate page except where Enter already means something. */
function enterStartsRun(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement;
  if (target instanceof HTMLInputElement) return target.type === 'radio' || target.type === 'checkbox';
  return !target.closest?.('button, a, textarea, select, summary, [contenteditable="true"]');
}

/** Fields where Escape already means something (leave the field, close a list): the key is theirs, not the run's. */
const ESCAPE_OWNERS = 'textarea, select, [contenteditable="true"], [role="dialog"], [role="combobox"], [role="listbox"]';

function escapeIsTheRuns(event: KeyboardEvent): boolean {
  const target = event.target;
  if (!(target instanceof Element) || target === target.ownerDocument.body) return true;
  if (target instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit'].includes(target.type)) return false;
  return !target.closest(ESCAPE_OWNERS);
}

const review = (key: string, command: string, description: string): KeyBinding => ({ key, scope: 'review', command, description });

export const bindings = [
  // Window shortcuts: from anywhere, Monaco included, before the focused element sees them.
  { key: 'mod+k', scope: 'global', command: 'palette.open', description: 'Open the command palette', inText: true, first: true },
  { key: 'mod+p', scope: 'global', command: 'filter.focus', description: 'Go to the file filter', inText: true, first: true },
  { key: '/', scope: 'global', command: 'filter.focus', description: 'Go to the file filter', first: true },
  // By key position, so macOS's Option+digit (which types a character) works too.
  { key: 'alt+digit', scope: 'global', command: 'view.switch', description: 'Switch view (Alt+1…9, Alt+0)', inText: true, first: true },
  // The import wizard, while it is the view on screen: Alt+arrows before Monaco and the browser's own Alt+← (back).
  { key: 'alt+ArrowRight', scope: 'global', command: 'wizard.next', description: 'Next step', inText: true, first: true },
  { key: 'alt+ArrowLeft', scope: 'global', command: 'wizard.back', description: 'Previous step', inText: true, first: true },
  {
    key: 'Enter',
    scope: 'wizard',
    command: 'wizard.next',
    description: 'Next step',
    inText: true,
    when: (event) => !event.isComposing && !enterIsOwned(event.target),
  },
  // The hand editor of a file (Monaco and the title/description fields): Ctrl+Enter (Cmd+Enter) proposes the edit.
  { key: 'mod+Enter', scope: 'edit', command: 'edit.propose', description: 'Propose the edit', inText: true, first: true },
  // The review panel (a proposal, the import's review step): never while typing in a field.
  review('j', 'review.next', 'Next hunk'),
  review('k', 'review.previous', 'Previous hunk'),
  review('a', 'review.accept', 'Accept the change'),
  review('r', 'review.reject', 'Reject the change'),
  review('A', 'review.acceptFile', "Accept the file's changes"),
  review('t', 'review.theirs', 'Conflict: take theirs (disk)'),
  review('o', 'review.ours', 'Conflict: take ours (the proposal)'),
  review('b', 'review.both', 'Conflict: keep both'),
  review('e', 'review.edit', 'Conflict: edit by hand'),
  review('n', 'review.nextConflict', 'Next conflict'),
  // A read-only diff (history, since the baseline): moving only.
  { key: 'j', scope: 'diff', command: 'review.next', description: 'Next hunk' },
  { key: 'k', scope: 'diff', command: 'review.previous', description: 'Previous hunk' },
  // A roving list of buttons (inbox, history, outline, diagnostics, search hits): one Tab stop, arrows inside.
  ...['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp'].map(
    (key) => ({ key, scope: 'list', command: 'list.move', description: 'Move in the list' }) as const,
  ),
  // The view tablist (WAI-ARIA tabs, automatic activation): arrows move to the next view and show it, Home/End to the ends.
  ...['ArrowRight', 'ArrowLeft', 'Home', 'End'].map(
    (key) => ({ key, scope: 'tabs', command: 'tabs.move', description: 'Show another view' }) as const,
  ),
  // The rollout grid (WAI-ARIA grid, one active row): arrows and pages move the row, Enter or Space opens it.
  ...['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End'].map(
    (key) => ({ key, scope: 'grid', command: 'grid.move', description: 'Move to another row' }) as const,
  ),
  { key: 'Enter', scope: 'grid', command: 'grid.open', description: 'Open the row' },
  { key: ' ', scope: 'grid', command: 'grid.open', description: 'Open the row' },
  // The Coverage view's session table (one active row): arrows, j/k and pages move it, Enter shows its details.
  ...['ArrowDown', 'ArrowUp', 'j', 'k', 'PageDown', 'PageUp', 'Home', 'End'].map(
    (key) => ({ key, scope: 'coverage', command: 'coverage.move', description: 'Move to another session' }) as const,
  ),
  { key: 'Enter', scope: 'coverage', command: 'coverage.open', description: "Show the session's details" },
  // The file tree (WAI-ARIA tree): the active row moves, folds and opens.
  ...['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp'].map(
    (key) => ({ key, scope: 'tree', command: 'tree.move', description: 'Move in the tree' }) as const,
  ),
  { key: 'ArrowRight', scope: 'tree', command: 'tree.fold', description: 'Unfold, or go to the first child' },
  { key: 'ArrowLeft', scope: 'tree', command: 'tree.fold', description: 'Fold, or go to the parent' },
  { key: 'Enter', scope: 'tree', command: 'tree.open', description: 'Open the file, or fold the folder' },
  { key: ' ', scope: 'tree', command: 'tree.open', description: 'Open the file, or fold the folder' },
  // Consolidate: Escape also with nothing focused (a disabled Start drops focus to the body), never from other views.
  {
    key: 'Escape',
    scope: 'consolidate',
    command: 'run.cancel',
    description: 'Cancel the running consolidation',
    inText: true,
    orphan: true,
    when: escapeIsTheRuns,
  },
  { key: 'Enter', scope: 'consolidate', command: 'run.start', description: 'Start a run', inText: true, when: enterStartsRun },
] as const satisfies readonly KeyBinding[];

export type Command = (typeof bindings)[number]['command'];
export type ScopeName = Exclude<(typeof bindings)[number]['scope'], 'global'>;
