// Per-hunk decisions of the open proposal: shown at once, saved with `review.decide` after a short pause, kept until saved.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DecisionMap, EditMap, HunkDecision, Proposal } from '../../../shared/review';
import { useStudioMutation } from '../api/studio-query';

const SAVE_DELAY_MS = 250;

interface FileChoices {
  decisions: DecisionMap;
  edits: EditMap;
}

export interface DecisionsState {
  /** The decisions of file `ord` as the person sees them (saved, plus any not saved yet). */
  of: (ord: number) => DecisionMap;
  /** The hand-written text of a conflict resolved with `edit`, saved or not. */
  editOf: (ord: number, hunkId: string) => string | undefined;
  /** `edit` (conflict hunks only) needs the text that replaces the conflicting lines. */
  set: (ord: number, hunkIds: readonly string[], decision: HunkDecision, edit?: string) => void;
  /** Saves what is pending now; Apply awaits it so the written result is the one on screen. */
  flush: () => Promise<void>;
  /** Forgets local decisions (after a rebase, the server's are the truth). */
  reset: () => void;
  saving: boolean;
  saveError: Error | null;
}

const empty = (): FileChoices => ({ decisions: {}, edits: {} });

function merged(
  current: FileChoices | undefined,
  hunkIds: readonly string[],
  decision: HunkDecision,
  edit: string | undefined,
): FileChoices {
  const next = { decisions: { ...current?.decisions }, edits: { ...current?.edits } };
  for (const hunkId of hunkIds) {
    next.decisions[hunkId] = decision;
    if (decision === 'edit' && edit !== undefined) next.edits[hunkId] = edit;
  }
  return next;
}

type SentFiles = Array<{ ord: number; decisions: DecisionMap; edits?: EditMap }>;

const toFiles = (choices: ReadonlyMap<number, FileChoices>): SentFiles =>
  [...choices].map(([ord, c]) => ({ ord, decisions: c.decisions, ...(Object.keys(c.edits).length > 0 ? { edits: c.edits } : {}) }));

/**
 * Saves in order, one request at a time (an older answer never lands after a newer one). A choice stays pending
 * until the server has it: after a failed save it is still on screen *and* still sent by the next save (Apply's
 * flush), so the screen never shows a decision Apply would not use.
 */
function useSaver(pending: { current: Map<number, FileChoices> }) {
  const decide = useStudioMutation('review.decide');
  const mutate = useRef(decide.mutateAsync);
  mutate.current = decide.mutateAsync;
  const chain = useRef<Promise<void>>(Promise.resolve());
  const save = useCallback(
    (id: string): Promise<void> => {
      // What is pending now, for this proposal: a later switch of proposal cannot change what this request carries.
      const sent = new Map(pending.current);
      const queue = pending.current;
      const run = async () => {
        if (sent.size === 0) return;
        await mutate.current({ id, files: toFiles(sent) });
        // Only what was sent and not changed since is saved; a newer choice for the file stays pending.
        for (const [ord, choices] of sent) if (queue.get(ord) === choices) queue.delete(ord);
      };
      const next = chain.current.catch(() => undefined).then(run);
      chain.current = next;
      return next;
    },
    [pending],
  );
  return { decide, save };
}

/** What the person sees: the server's decisions with the local ones (saved or not) over them. */
function useShown(proposal: Proposal | undefined, local: Record<number, FileChoices>): Pick<DecisionsState, 'of' | 'editOf'> {
  const of = useCallback(
    (ord: number) => ({ ...proposal?.files.find((file) => file.ord === ord)?.decisions, ...(local[ord] ?? empty()).decisions }),
    [proposal, local],
  );
  const editOf = useCallback(
    (ord: number, hunkId: string) => local[ord]?.edits[hunkId] ?? proposal?.files.find((file) => file.ord === ord)?.edits[hunkId],
    [proposal, local],
  );
  return { of, editOf };
}

export function useDecisions(proposal: Proposal | undefined): DecisionsState {
  const [local, setLocal] = useState<Record<number, FileChoices>>({});
  const [unsaved, setUnsaved] = useState(false);
  const pending = useRef(new Map<number, FileChoices>());
  const { decide, save } = useSaver(pending);
  const timer = useRef<number | null>(null);
  const id = proposal?.id ?? null;

  const stopTimer = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };

  const flush = useCallback(async () => {
    stopTimer();
    if (!id || pending.current.size === 0) return;
    try {
      await save(id);
    } finally {
      setUnsaved(pending.current.size > 0);
    }
  }, [id, save]);

  const set = useCallback(
    (ord: number, hunkIds: readonly string[], decision: HunkDecision, edit?: string) => {
      setLocal((current) => ({ ...current, [ord]: merged(current[ord], hunkIds, decision, edit) }));
      pending.current.set(ord, merged(pending.current.get(ord), hunkIds, decision, edit));
      setUnsaved(true);
      stopTimer();
      timer.current = window.setTimeout(() => void flush().catch(() => undefined), SAVE_DELAY_MS);
    },
    [flush],
  );

  const reset = useCallback(() => {
    stopTimer();
    pending.current = new Map();
    setLocal({});
    setUnsaved(false);
  }, []);

  // Leaving the proposal (another one opens, or the view closes): what is pending is still saved, then forgotten here.
  useEffect(
    () => () => {
      if (id && pending.current.size > 0) void save(id).catch(() => undefined);
      reset();
    },
    [id, reset, save],
  );

  const { of, editOf } = useShown(proposal, local);
  // A failed save is not "saving": its choices wait (shown, and sent again by the next save or Apply) beside the error.
  return { of, editOf, set, flush, reset, saving: decide.isPending || (unsaved && decide.error === null), saveError: decide.error };
}
