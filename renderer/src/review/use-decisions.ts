// Per-hunk decisions of the open proposal: shown at once, saved with `review.decide` after a short pause.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DecisionMap, HunkDecision, Proposal } from '../../../shared/review';
import { useDecide } from '../api/review-queries';

const SAVE_DELAY_MS = 250;

export interface DecisionsState {
  /** The decisions of file `ord` as the person sees them (saved, plus any not saved yet). */
  of: (ord: number) => DecisionMap;
  set: (ord: number, hunkIds: readonly string[], decision: HunkDecision) => void;
  /** Saves what is pending now; Apply awaits it so the written result is the one on screen. */
  flush: () => Promise<void>;
  /** Forgets local decisions (after a rebase, the server's are the truth). */
  reset: () => void;
  saving: boolean;
  saveError: Error | null;
}

export function useDecisions(proposal: Proposal | undefined): DecisionsState {
  const decide = useDecide();
  const [local, setLocal] = useState<Record<number, DecisionMap>>({});
  const [unsaved, setUnsaved] = useState(false);
  const pending = useRef(new Map<number, DecisionMap>());
  const timer = useRef<number | null>(null);
  const id = proposal?.id ?? null;

  const flush = useCallback(async () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    if (!id || pending.current.size === 0) return;
    const files = [...pending.current].map(([ord, decisions]) => ({ ord, decisions }));
    pending.current = new Map();
    try {
      await decide.mutateAsync({ id, files });
    } finally {
      setUnsaved(pending.current.size > 0);
    }
  }, [decide, id]);

  const set = useCallback(
    (ord: number, hunkIds: readonly string[], decision: HunkDecision) => {
      const update = Object.fromEntries(hunkIds.map((hunkId) => [hunkId, decision])) as DecisionMap;
      setLocal((current) => ({ ...current, [ord]: { ...current[ord], ...update } }));
      pending.current.set(ord, { ...pending.current.get(ord), ...update });
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
    (ord: number) => ({ ...proposal?.files.find((file) => file.ord === ord)?.decisions, ...local[ord] }),
    [proposal, local],
  );
  return { of, set, flush, reset, saving: unsaved || decide.isPending, saveError: decide.error };
}
