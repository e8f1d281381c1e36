// The command palette keeps the row the person chose when search answers arrive and insert rows above it.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { CommandPalette } from '../../renderer/src/search/command-palette';
import type { PaletteAction } from '../../renderer/src/search/palette-model';
import { ok, type Result } from '../../shared/result';
import type { BlockHit } from '../../shared/search';
import { entry, fileList } from './support/fixtures';
import { deferred, studioStub } from './support/studio-stub';

const hit = (title: string, line: number): BlockHit => ({
  version: 'v1',
  relPath: 'MEMORY.md',
  kind: 'memory-block',
  line,
  endLine: line + 3,
  title,
  project: null,
});

describe('CommandPalette', () => {
  // jsdom lays nothing out and has no scrollIntoView; the palette scrolls its chosen row into view.
  beforeAll(() => {
    Element.prototype.scrollIntoView ??= () => undefined;
  });

  it('opens the row chosen with the arrows even when block hits arrive above it before Enter', async () => {
    const blocks = deferred<Result<unknown>>();
    const stub = studioStub({
      'search.blocks': () => blocks.promise,
      'search.query': () => ok({ query: 'deploy', hits: [], total: 0, elapsedMs: 1, notes: [], ranking: 'bm25' }),
    });
    const opened: unknown[] = [];
    const actions: PaletteAction[] = [];
    render(
      <CommandPalette
        lists={[fileList('v1', [entry('rollout_summaries/deploy-notes.md', 'rollout-summary')])]}
        onClose={() => undefined}
        onOpen={(...args) => opened.push(args)}
        onAction={(action) => actions.push(action)}
      />,
      { wrapper: stub.wrapper },
    );
    const input = screen.getByTestId('palette-input');
    fireEvent.change(input, { target: { value: 'deploy' } });
    const labels = () => screen.getAllByTestId('palette-item').map((row) => row.textContent ?? '');
    await waitFor(() => expect(labels()).toHaveLength(2));
    // The file, then "Search memory for …": the person moves to the search.
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getByRole('option', { selected: true }).textContent).toContain('Search memory for');
    // The block hits arrive: two rows come in between.
    await act(async () => {
      blocks.resolve(ok([hit('Deploy checklist', 3), hit('Deploy rollback', 20)]));
      await blocks.promise;
    });
    await waitFor(() => expect(labels()).toHaveLength(4));
    expect(screen.getByRole('option', { selected: true }).textContent).toContain('Search memory for');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(actions).toEqual([{ kind: 'search', query: 'deploy' }]);
    expect(opened).toEqual([]);
  });
});
