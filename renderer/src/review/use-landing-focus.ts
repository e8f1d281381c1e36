// Where the keyboard lands in a proposal: on its first undecided hunk when it opens (after a Propose, a Revert, a fix,
// a click on the Review tab or an inbox row…) or is rebased, and back on the active hunk when the focused control inside the panel went away (a closed editor, a
// finished Apply). The review keys (j/k/a/r/A, t/o/b/e/n) then work at once, without a click. A (a whole file decided)
// goes on to the next file's first undecided hunk, or to Apply when none is left.
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { DecisionMap } from '../../../shared/review';
import type { HunkCursor, ReviewFile } from './use-hunk-cursor';
import type { ReviewKeyActions } from './use-review-keys';

const HUNK = '[data-testid="hunk-item"]';
/** What a person clicks to open a proposal: the Review tab, a row of the inbox. */
const OPENERS = '[data-testid="view-tab"], [data-testid="proposal-item"]';

/**
 * The focus sits on the tab or inbox row a click just opened the proposal with: the keyboard goes on into the proposal.
 * Reached by keys (arrows along the tabs or the rows) it shows as :focus-visible, and stays where the person moved it.
 */
export function openedByClick(active: Element | null): boolean {
  if (!active?.matches(OPENERS)) return false;
  try {
    return !active.matches(':focus-visible');
  } catch {
    return false;
  }
}

/** Whether the element can hold the focus a person sees: connected, and not inside a hidden view. */
export function isShown(element: Element): boolean {
  if (!element.isConnected) return false;
  const html = element as HTMLElement & { checkVisibility?: () => boolean };
  return html.checkVisibility ? html.checkVisibility() : element.getClientRects().length > 0;
}

/** Nothing holds the focus a person could see: the body, a removed control, or one in a view that was just hidden. */
export function focusIsLost(doc: Document): boolean {
  const active = doc.activeElement;
  return !active || active === doc.body || active === doc.documentElement || !isShown(active);
}

/** The first file (from the shown one on) with a hunk nobody decided, and that hunk's item index; null when all are decided. */
export function firstUndecided(
  files: readonly ReviewFile[],
  decisionsOf: (ord: number) => DecisionMap,
  shown: { ord: number | undefined; items: HunkCursor['items']['items'] },
): { ord: number; index: number } | null {
  const decided = shown.ord === undefined ? {} : decisionsOf(shown.ord);
  const index = shown.items.findIndex((item) => item.hunks.some((h) => decided[h.id] === undefined));
  if (shown.ord !== undefined && index >= 0) return { ord: shown.ord, index };
  // The files after the shown one first (the next file to review), then those before it.
  const at = files.findIndex((f) => f.ord === shown.ord);
  const order = at < 0 ? files : [...files.slice(at + 1), ...files.slice(0, at)];
  const other = order.find((f) => f.ord !== shown.ord && f.hunks.some((h) => decisionsOf(f.ord)[h.id] === undefined));
  return other ? { ord: other.ord, index: -1 } : null;
}

/** Tracks whether the focus was last inside the panel; a control that is removed or disabled under it keeps it "inside". */
function useFocusInside(panel: RefObject<HTMLElement | null>): RefObject<boolean> {
  const inside = useRef(false);
  useEffect(() => {
    const onIn = (event: FocusEvent) => {
      inside.current = !!panel.current?.contains(event.target as Node);
    };
    // Chrome blurs a control as it is removed or disabled, before it is gone: judge once the change is done.
    const onOut = (event: FocusEvent) => {
      if (event.relatedTarget !== null) return;
      const target = event.target as HTMLElement & { disabled?: boolean };
      queueMicrotask(() => {
        const vanished = !target.isConnected || target.disabled === true || !isShown(target);
        if (!vanished && focusIsLost(document)) inside.current = false;
      });
    };
    document.addEventListener('focusin', onIn);
    document.addEventListener('focusout', onOut);
    return () => {
      document.removeEventListener('focusin', onIn);
      document.removeEventListener('focusout', onOut);
    };
  }, [panel]);
  return inside;
}

export interface LandingFocus {
  /** Asks for the first undecided hunk again (after a rebase replaced the hunks). */
  request: () => void;
  /**
   * A whole file was just decided (A): on to the next file's first undecided hunk, or, when none is left, to Apply
   * (once the result allows it).
   */
  moveOn: () => void;
}

export interface LandingOptions {
  /** Controls around the panel the landing may take the focus from (the import wizard's step heading, Back, Next). */
  from?: string;
}

/** The review keys, with A going on to the next file to decide (or to Apply) once it has decided this one. */
export function useMoveOnKeys(actions: ReviewKeyActions, landing: LandingFocus): ReviewKeyActions {
  return useMemo(
    () => ({
      ...actions,
      acceptFile: () => {
        actions.acceptFile();
        landing.moveOn();
      },
    }),
    [actions, landing],
  );
}

/** Apply, where the keyboard goes once every hunk is decided: null when the panel has none, 'wait' while it is disabled. */
function applyButton(root: HTMLElement): HTMLButtonElement | 'wait' | null {
  const button = root.querySelector<HTMLButtonElement>('[data-testid="apply-button"]');
  if (!button) return null;
  return button.disabled ? 'wait' : button;
}

/** Runs after every render of the proposal: lands a pending request, or recovers a focus lost from inside the panel. */
export function useLandingFocus(
  panel: RefObject<HTMLElement | null>,
  proposal: { files: readonly ReviewFile[]; pending: boolean },
  cursor: Pick<HunkCursor, 'file' | 'items' | 'current' | 'setActive' | 'select'>,
  decisionsOf: (ord: number) => DecisionMap,
  options: LandingOptions = {},
): LandingFocus {
  const wanted = useRef(true);
  /** The request came from a decided file: with nothing left undecided, Apply rather than the active hunk. */
  const toApply = useRef(false);
  const inside = useFocusInside(panel);
  useEffect(() => {
    const root = panel.current;
    if (!root || !isShown(root)) return;
    const lost = focusIsLost(document);
    const active = document.activeElement;
    const handedOver = openedByClick(active) || (!!options.from && !!active?.matches(options.from));
    if (wanted.current && !lost && !root.contains(active) && !handedOver) {
      // The person put the focus somewhere else on purpose (keys on the inbox or the tabs, a field): it stays there.
      wanted.current = false;
      return;
    }
    if (!wanted.current && !(lost && inside.current)) return;
    // Once applied, the way on is "Show in History" (the hunks are no longer decided).
    let target = root.querySelector<HTMLElement>('[data-testid="apply-result"] button');
    if (wanted.current && proposal.pending && !target) {
      const first = firstUndecided(proposal.files, decisionsOf, { ord: cursor.file?.ord, items: cursor.items.items });
      if (first && first.ord !== cursor.file?.ord) return cursor.select(first.ord);
      if (first && first.index !== cursor.current) return cursor.setActive(first.index);
      const apply = !first && toApply.current ? applyButton(root) : null;
      // Apply waits for the decisions to be saved and the result worked out: the landing waits with it.
      if (apply === 'wait') return;
      target = apply;
    }
    target ??= proposal.pending ? root.querySelector<HTMLElement>(`${HUNK}[aria-current="true"]`) : root;
    if (!target) return;
    target.focus();
    wanted.current = false;
    toApply.current = false;
    inside.current = true;
  });
  // A request comes from an effect that runs after this one in the same commit (Apply's result, a rebase): it renders
  // once more, so the landing runs on it rather than waiting for some later render that may never come.
  const [, setAsked] = useState(0);
  const [landing] = useState<LandingFocus>(() => ({
    request: () => {
      wanted.current = true;
      toApply.current = false;
      setAsked((n) => n + 1);
    },
    moveOn: () => {
      wanted.current = true;
      toApply.current = true;
      setAsked((n) => n + 1);
    },
  }));
  return landing;
}
