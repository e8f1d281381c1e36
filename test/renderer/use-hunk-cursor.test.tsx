// The review cursor on real hunks and blocks from core: j/k, a/r on changes and both halves of a move, t/o/b on conflicts.
import { act, renderHook, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { hunksOfMerge, wholeFileConflict } from '../../electron/core/review/merge-hunks';
import { mergeTexts } from '../../electron/core/review/merge';
import { computeFileBlocks, computeReviewHunks } from '../../electron/core/review/review-hunks';
import { useHunkCursor, type BlocksSource, type ReviewFile } from '../../renderer/src/review/use-hunk-cursor';
import { ok } from '../../shared/result';
import type { DecisionMap, HunkDecision } from '../../shared/review';
import { studioStub } from './support/studio-stub';

const group = (name: string, extra = '') =>
  `# Task Group: ${name}\n\nscope: ${name} work\napplies_to: cwd=/home/dana/src/${name}; reuse_rule=safe\n\n## Task 1: ${name} task, success${extra}\n\n### keywords\n\n- ${name}\n\n## User preferences\n\n- prefer ${name} [Task 1]\n\n`;
// alpha moves to the end, gamma's task is edited: three hunks, two review items (the move is one).
const MOVED_BASE = group('alpha') + group('beta') + group('gamma');
const MOVED_PROPOSED = group('beta') + group('gamma', ' edited') + group('alpha');
const movedHunks = computeReviewHunks(MOVED_BASE, MOVED_PROPOSED, { relPath: 'MEMORY.md', version: 'v1' });
const movedBlocks = computeFileBlocks(MOVED_BASE, MOVED_PROPOSED, { relPath: 'MEMORY.md', version: 'v1' }, movedHunks);

// A rebased file: lines 5 and 55 changed on disk and by the proposal (conflicts), line 30 by the proposal only.
const numbered = (edit: (i: number) => string) => Array.from({ length: 60 }, (_, i) => edit(i + 1)).join('\n') + '\n';
const mergeBase = numbered((i) => `line ${i}`);
const theirs = numbered((i) => ([5, 55].includes(i) ? `line ${i} (disk)` : `line ${i}`));
const ours = numbered((i) => ([5, 30, 55].includes(i) ? `line ${i} (proposal)` : `line ${i}`));
const merged = mergeTexts(mergeBase, theirs, ours);
const rebasedHunks = hunksOfMerge(merged);

const file = (ord: number, relPath: string, hunks: ReviewFile['hunks']): ReviewFile => ({
  ord,
  relPath,
  baseSha256: null,
  hunks,
  change: 'modify',
});
const files = [file(0, 'MEMORY.md', movedHunks), file(1, 'raw_memories.md', rebasedHunks)];

function useCursor(source: BlocksSource, list: readonly ReviewFile[]) {
  const [saved, setSaved] = useState<Record<number, DecisionMap>>({});
  const [log, setLog] = useState<Array<[number, string[], HunkDecision]>>([]);
  const decisions = {
    of: (ord: number) => saved[ord] ?? {},
    set: (ord: number, ids: readonly string[], decision: HunkDecision) => {
      setLog((l) => [...l, [ord, [...ids], decision]]);
      setSaved((s) => ({ ...s, [ord]: { ...s[ord], ...Object.fromEntries(ids.map((id) => [id, decision])) } }));
    },
  };
  return { cursor: useHunkCursor(list, decisions, source), log };
}

function setup(source: BlocksSource = { blocks: movedBlocks }, list: readonly ReviewFile[] = files) {
  const stub = studioStub({ 'review.blocks': () => ok(movedBlocks) });
  return { ...renderHook(() => useCursor(source, list), { wrapper: stub.wrapper }), stub };
}

describe('useHunkCursor', () => {
  it('makes a moved block one item and decides both of its halves with a, then moves on', () => {
    const { result } = setup();
    expect(movedHunks).toHaveLength(3);
    expect(result.current.cursor.items.items).toHaveLength(2);
    expect(result.current.cursor.activeItem?.moved).toBe(true);
    act(() => result.current.cursor.actions.accept());
    const [removal, edit, insertion] = movedHunks.map((h) => h.id);
    expect(result.current.log).toEqual([[0, [removal, insertion], 'accept']]);
    expect(result.current.cursor.current).toBe(1);
    act(() => result.current.cursor.actions.reject());
    expect(result.current.log.at(-1)).toEqual([0, [edit], 'reject']);
    // The last item stays active: there is nothing after it.
    expect(result.current.cursor.current).toBe(1);
  });

  it('stops at both ends with j and k', () => {
    const { result } = setup();
    act(() => result.current.cursor.actions.previous());
    expect(result.current.cursor.current).toBe(0);
    act(() => result.current.cursor.actions.next());
    act(() => result.current.cursor.actions.next());
    expect(result.current.cursor.current).toBe(1);
  });

  it('asks the proposal for its blocks when they are not in the answer', async () => {
    const { result, stub } = setup({ proposalId: 'p-1' });
    expect(result.current.cursor.items.items).toHaveLength(3);
    await waitFor(() => expect(result.current.cursor.items.items).toHaveLength(2));
    expect(stub.calls.find((c) => c.channel === 'review.blocks')?.input).toEqual({ id: 'p-1', ord: 0 });
  });

  it('leaves conflicts to t/o/b: a and r do nothing there, and A accepts only the changes', async () => {
    const { result } = setup();
    act(() => result.current.cursor.select(1));
    const kinds = rebasedHunks.map((h) => h.kind);
    expect(kinds).toEqual(['conflict', 'text', 'conflict']);
    act(() => result.current.cursor.actions.accept());
    act(() => result.current.cursor.actions.reject());
    expect(result.current.log).toEqual([]);
    expect(result.current.cursor.current).toBe(0);
    act(() => result.current.cursor.actions.theirs());
    expect(result.current.log).toEqual([[1, [rebasedHunks[0]!.id], 'theirs']]);
    expect(result.current.cursor.current).toBe(1);
    // A saves the file's decisions: wait for that save, so its failure fails this test.
    await act(async () => {
      await result.current.cursor.actions.acceptFile();
    });
    expect(result.current.log.at(-1)).toEqual([1, [rebasedHunks[1]!.id], 'accept']);
  });

  it('jumps to the next conflict still open, wrapping, with n', () => {
    const { result } = setup();
    act(() => result.current.cursor.select(1));
    act(() => result.current.cursor.actions.ours());
    expect(result.current.cursor.current).toBe(1);
    act(() => result.current.cursor.actions.nextConflict());
    expect(result.current.cursor.current).toBe(2);
    act(() => result.current.cursor.actions.both());
    // Every conflict is resolved now: n still goes to the next conflict, wrapping to the first.
    act(() => result.current.cursor.actions.nextConflict());
    expect(result.current.cursor.current).toBe(0);
    expect(result.current.log.map((l) => l[2])).toEqual(['ours', 'both']);
  });

  it('refuses "both" where one side has no file, and remembers each file’s active item', () => {
    const deleted = wholeFileConflict('theirs', mergeBase, ours);
    expect(deleted.conflict?.absent).toBe('theirs');
    const { result } = setup({ blocks: movedBlocks }, [...files, file(2, 'gone.md', [deleted])]);
    act(() => result.current.cursor.actions.next());
    act(() => result.current.cursor.select(1));
    expect(result.current.cursor.current).toBe(0);
    act(() => result.current.cursor.select(0));
    expect(result.current.cursor.current).toBe(1);
    act(() => result.current.cursor.select(2));
    act(() => result.current.cursor.actions.both());
    expect(result.current.log).toEqual([]);
    act(() => result.current.cursor.actions.ours());
    expect(result.current.log).toEqual([[2, [deleted.id], 'ours']]);
  });
});
