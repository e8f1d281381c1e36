// Per-hunk decisions of the open proposal: shown at once, saved with `review.decide` after a short pause.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DecisionMap, EditMap, HunkDecision, Proposal } from '../../../shared/review';
import { useDecide } from '../api/review-queries';

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

function merged(current: FileChoices | undefined, hunkIds: readonly string[], decision: HunkDecision, edit: string | undefined): FileChoices {
  const next = { decisions: { ...current?.decisions }, edits: { ...current?.edits } };
  for (const hunkId of hunkIds) {
    next.decisions[hunkId] = decision;
    if (decision === 'edit' && edit !== undefined) next.edits[hunkId] = edit;
  }
  return next;
}

export function useDecisions(proposal: Proposal | undefined): DecisionsState {
  const decide = useDecide();
  const [local, setLocal] = useState<Record<number, FileChoices>>({});
  const [unsaved, setUnsaved] = useState(false);
  const pending = useRef(new Map<number, FileChoices>());
  const timer = useRef<number | null>(null);
  const id = proposal?.id ?? null;

  const flush = useCallback(async () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    if (!id || pending.current.size === 0) return;
    const files = [...pending.current].map(([ord, choices]) => ({ ord, decisions: choices.decisions, ...(Object.keys(choices.edits).length > 0 ? { edits: choices.edits } : {}) }));
    pending.current = new Map();
    try {
      await decide.mutateAsync({ id, files });
    } finally {
      setUnsaved(pending.current.size > 0);
    }
  }, [decide, id]);

  const set = useCallback(
    (ord: number, hunkIds: readonly string[], decision: HunkDecision, edit?: string) => {
      setLocal((current) => ({ ...current, [ord]: merged(current[ord], hunkIds, decision, edit) }));
      pending.current.set(ord, merged(pending.current.get(ord), hunkIds, decision, edit));
      setUnsaved(true);
      if (timer.current !== null) window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void flush().catch(() => undefined), SAVE_DELAY_MS);
    },
    [flush],
  );

  const reset = useCallback(() => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    pending.current = new Map();
    setLocal({});
    setUnsaved(false);
  }, []);

  // Another proposal: nothing local carries over.
  useEffect(() => reset, [id, reset]);

  const of = useCallback(
    (ord: number) => ({ ...proposal?.files.find((file) => file.ord === ord)?.decisions, ...(local[ord] ?? empty()).decisions }),
    [proposal, local],
  );
  const editOf = useCallback(
    (ord: number, hunkId: string) => local[ord]?.edits[hunkId] ?? proposal?.files.find((file) => file.ord === ord)?.edits[hunkId],
    [proposal, local],
  );
  return { of, editOf, set, flush, reset, saving: unsaved || decide.isPending, saveError: decide.error };
}
