// The outline panel on a real parsed file with more sections than it shows at first (400): the cursor's section is found
// among all of them, so a cursor past the cap marks no shown row and says where it is; "Show all" then marks it.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { outlineOf, parseMemoryFile } from '../../electron/core/formats';
import { OutlinePanel } from '../../renderer/src/outline/outline-panel';

/** A markdown note with `count` headings, each with one line under it: heading n is on line 3n - 2. */
const headings = (count: number) => Array.from({ length: count }, (_, i) => `## Section ${i + 1}\n\ntext ${i + 1}`).join('\n') + '\n';

function show(cursorLine: number) {
  const outline = outlineOf(parseMemoryFile(headings(450), { path: 'extensions/notes/big.md', version: 'v1' }));
  render(
    <OutlinePanel
      path="extensions/notes/big.md"
      outline={outline}
      error={null}
      retry={() => undefined}
      onJump={() => undefined}
      onOpenPointer={() => undefined}
      knownPaths={null}
      cursorLine={cursorLine}
    />,
  );
}

// jsdom has no layout, so no scrollIntoView: record which rows the panel asks to bring into view.
let scrolled: string[] = [];
beforeEach(() => {
  scrolled = [];
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this.textContent ?? '');
  };
});

const current = () => document.querySelectorAll('[aria-current="location"]');

describe('outline panel and the cursor', () => {
  it('marks the section holding the cursor among the rows shown', async () => {
    show(3 * 10 - 2 + 1);
    expect(current()).toHaveLength(1);
    expect(current()[0]?.textContent).toContain('Section 10');
    await waitFor(() => expect(scrolled.at(-1)).toContain('Section 10'));
  });

  it('past the first 400 rows marks no shown row, says which entry holds the cursor, and marks it once all are shown', async () => {
    show(3 * 440 - 2);
    expect(current()).toHaveLength(0);
    expect(scrolled).toEqual([]);
    const more = screen.getByRole('button', { name: /Show all 450 entries \(the cursor is in entry 440\)/ });
    await userEvent.click(more);
    expect(current()).toHaveLength(1);
    expect(current()[0]?.textContent).toContain('Section 440');
  });
});
