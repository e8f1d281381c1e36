// The conflict view's hand editor: each conflict's editor starts from that conflict's lines, never another's text.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { hunksOfMerge } from '../../electron/core/review/merge-hunks';
import { mergeTexts } from '../../electron/core/review/merge';
import { ThreeWayView, type ThreeWayViewProps } from '../../renderer/src/review/three-way-view';
import type { ReviewFile } from '../../renderer/src/review/use-hunk-cursor';
import type { HunkDecision } from '../../shared/review';
import { studioStub } from './support/studio-stub';

// Lines 5 and 55 changed on disk and by the proposal: two conflicts, from core's merge.
const numbered = (edit: (i: number) => string) => Array.from({ length: 60 }, (_, i) => edit(i + 1)).join('\n') + '\n';
const base = numbered((i) => `line ${i}`);
const theirs = numbered((i) => ([5, 55].includes(i) ? `line ${i} (disk)` : `line ${i}`));
const ours = numbered((i) => ([5, 55].includes(i) ? `line ${i} (proposal)` : `line ${i}`));
const conflicts = hunksOfMerge(mergeTexts(base, theirs, ours)).filter((h) => h.kind === 'conflict');
const file: ReviewFile = { ord: 0, relPath: 'MEMORY.md', baseSha256: null, hunks: conflicts, change: 'modify' };

describe('ThreeWayView', () => {
  it('opens the second conflict’s editor on its own lines when Edit is clicked there while the first one’s is open', () => {
    expect(conflicts).toHaveLength(2);
    const [first, second] = conflicts as [(typeof conflicts)[0], (typeof conflicts)[0]];
    // The three versions stay loading: this test is about the hand editor, not the Monaco panes.
    const stub = studioStub({ 'review.mergeTexts': () => new Promise(() => undefined) });
    const resolved: Array<[HunkDecision, string | undefined]> = [];
    const props = (hunk: typeof first, index: number): ThreeWayViewProps => ({
      proposalId: 'p-1',
      file,
      hunk,
      position: { index, count: 2 },
      decision: undefined,
      edit: undefined,
      colorScheme: 'light',
      readOnly: false,
      editing: true,
      onEditing: () => undefined,
      onResolve: (decision, edit) => resolved.push([decision, edit]),
    });
    const view = render(<ThreeWayView {...props(first, 0)} />, { wrapper: stub.wrapper });
    const text = () => screen.getByTestId('conflict-edit-text') as HTMLTextAreaElement;
    expect(text().value).toBe('line 5 (proposal)\n');
    fireEvent.change(text(), { target: { value: 'my own line 5\n' } });
    // Edit on the second conflict: the cursor moves there and the editor stays open, in one render.
    view.rerender(<ThreeWayView {...props(second, 1)} />);
    expect(screen.getByRole('heading', { name: /Conflict 2 of 2/ })).toBeTruthy();
    expect(text().value).toBe('line 55 (proposal)\n');
    act(() => screen.getByTestId('conflict-edit-save').click());
    expect(resolved).toEqual([['edit', 'line 55 (proposal)\n']]);
  });
});
