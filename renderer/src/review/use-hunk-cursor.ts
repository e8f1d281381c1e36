// The file shown in a review and its active item: j/k move, a/r decide a change (both halves of a move), t/o/b resolve a
// conflict, A accepts the file. The items come from the file's blocks once they are matched (a moved block is one item).
import { useCallback, useMemo, useState } from 'react';
import type { ConflictResolution, FileBlocks, FileTexts, Hunk, HunkDecision, ProposalFile } from '../../../shared/review';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { changeIds, reviewItems } from './review-items';
import type { DecisionsState } from './use-decisions';

/**
 * What the review shows of one file: a proposal's file, or a history entry's before -> after as one. `texts` are the two
 * sides when the caller has them (history); a proposal's are asked for when a view needs them (`review.fileTexts`).
 */
export type ReviewFile = Pick<ProposalFile, 'ord' | 'relPath' | 'baseSha256' | 'hunks' | 'change'> & { texts?: FileTexts };

/** Where a file's blocks come from: asked per file of a proposal, or already in the answer (history). */
export type BlocksSource = { proposalId: string } | { blocks: FileBlocks | undefined };

const isConflict = (hunk: Hunk | undefined) => hunk?.kind === 'conflict';

/** The selected file and its review items (from its blocks once matched). */
function useFileItems(files: readonly ReviewFile[] | undefined, source: BlocksSource) {
  const [selected, setSelected] = useState(files?.[0]?.ord ?? 0);
  const file = files?.find((f) => f.ord === selected) ?? files?.[0];
  const query = useStudioQuery(
    'review.blocks',
    'proposalId' in source && source.proposalId && file && file.hunks.length > 0 ? { id: source.proposalId, ord: file.ord } : skipToken,
  );
  const blocks = 'blocks' in source ? source.blocks : query.data;
  const hunks = useMemo(() => file?.hunks ?? [], [file]);
  const items = useMemo(() => reviewItems(hunks, blocks), [hunks, blocks]);
  return { file, query, blocks, hunks, items, select: (ord: number) => setSelected(ord) };
}

export function useHunkCursor(
  files: readonly ReviewFile[] | undefined,
  decisions: Pick<DecisionsState, 'set' | 'of'>,
  source: BlocksSource,
) {
  const { file, query, blocks, hunks, items, select } = useFileItems(files, source);
  const [activeKeys, setActiveKeys] = useState<Record<number, string>>({});
  const list = items.items;
  const key = file ? activeKeys[file.ord] : undefined;
  const current = Math.min(key === undefined ? 0 : (items.indexOf.get(key) ?? 0), Math.max(list.length - 1, 0));
  const setActive = useCallback(
    (index: number) => {
      const item = list[Math.max(0, Math.min(index, list.length - 1))];
      if (file && item) setActiveKeys((keys) => ({ ...keys, [file.ord]: item.key }));
    },
    [file, list],
  );
  const decide = (hunk: Hunk, decision: HunkDecision, edit?: string) => file && decisions.set(file.ord, [hunk.id], decision, edit);
  const decideIds = (ids: readonly string[], decision: HunkDecision) => file && ids.length > 0 && decisions.set(file.ord, ids, decision);
  const decideItem = (index: number, decision: 'accept' | 'reject') => decideIds(changeIds(list[index]), decision);
  const advance = () => setActive(current + 1);
  /** a/r decide changes only: on a conflict they do nothing (accept and reject never resolve a conflict). */
  const decideActive = (decision: 'accept' | 'reject') => {
    const item = list[current];
    if (!item || isConflict(item.hunks[0])) return;
    decideItem(current, decision);
    advance();
  };
  const resolveActive = (resolution: Exclude<ConflictResolution, 'edit'>) => {
    const hunk = list[current]?.hunks[0];
    if (!hunk || !isConflict(hunk) || (resolution === 'both' && hunk.conflict?.absent)) return;
    decide(hunk, resolution);
    advance();
  };
  /** The next conflict without a resolution after the active item (wrapping), or the next conflict at all. */
  const nextConflict = () => {
    const chosen = file ? decisions.of(file.ord) : {};
    const order = list.map((_, i) => (current + 1 + i) % Math.max(list.length, 1));
    const open = (i: number) => isConflict(list[i]?.hunks[0]) && !chosen[list[i]?.key ?? ''];
    const target = order.find(open) ?? order.find((i) => isConflict(list[i]?.hunks[0]));
    if (target !== undefined) setActive(target);
  };
  const actions = {
    next: advance,
    previous: () => setActive(current - 1),
    accept: () => decideActive('accept'),
    reject: () => decideActive('reject'),
    /** Every change of the file; conflicts keep waiting for their own resolution. */
    acceptFile: () =>
      decideIds(
        hunks.filter((h) => !isConflict(h)).map((h) => h.id),
        'accept',
      ),
    theirs: () => resolveActive('theirs'),
    ours: () => resolveActive('ours'),
    both: () => resolveActive('both'),
    nextConflict,
  };
  const activeItem = list[current];
  return {
    file,
    hunks,
    items,
    current,
    activeItem,
    activeHunk: activeItem?.hunks[0],
    blocks,
    blocksLoading: query.isFetching,
    setActive,
    decide,
    decideIds,
    decideItem,
    actions,
    select,
  };
}

export type HunkCursor = ReturnType<typeof useHunkCursor>;
