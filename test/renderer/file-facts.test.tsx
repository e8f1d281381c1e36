// What the file view offers follows the facts core sends with the file: the budget lens and "Cited by" its `injected`,
// Edit and the "Codex regenerates this" warning its `editing`; the renderer no longer reads kinds and Codex's file names.
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { computeBudget } from '../../electron/core/budget/budget';
import { FileContentSchema, type FileContent } from '../../shared/domain';
import { ok } from '../../shared/result';
import { InspectorPanel } from '../../renderer/src/inspector/inspector-panel';
import { useEditMode } from '../../renderer/src/main-pane/edit-mode';
import { useBudgetLens } from '../../renderer/src/main-pane/file-view';
import { studioStub } from './support/studio-stub';

const SUMMARY = '- pinned fonts for the export test\n';

function file(fields: Partial<FileContent>): FileContent {
  return FileContentSchema.parse({
    version: 'v2',
    path: 'memory_summary.md',
    kind: 'summary',
    content: SUMMARY,
    size: SUMMARY.length,
    mtimeMs: 1,
    lineCount: 2,
    eol: 'lf',
    injected: true,
    editing: 'curated',
    ...fields,
  });
}

const asked = (stub: ReturnType<typeof studioStub>, channel: string) => stub.calls.filter((c) => c.channel === channel);

describe('the budget lens', () => {
  it('applies to a file core marks as injected, and asks core for its budget', async () => {
    const stub = studioStub({ 'inspect.budget': () => ok(computeBudget(SUMMARY, { version: 'v2' })) });
    const { result } = renderHook(() => useBudgetLens(file({})), { wrapper: stub.wrapper });
    expect(result.current.summary).toBe(true);
    await waitFor(() => expect(result.current.budget.data?.truncated).toBe(false));
    expect(asked(stub, 'inspect.budget').map((c) => c.input)).toEqual([{ version: 'v2' }]);
  });

  it('does not apply when core says the file is not injected, whatever its name and kind', () => {
    const stub = studioStub({});
    const { result } = renderHook(() => useBudgetLens(file({ injected: false })), { wrapper: stub.wrapper });
    expect(result.current.summary).toBe(false);
    expect(result.current.shaded).toBeNull();
    expect(asked(stub, 'inspect.budget')).toEqual([]);
  });
});

describe('the inspector', () => {
  const diagnostics = { diagnostics: [], pending: false, lintError: null, retryLint: () => undefined };
  const show = (injected: boolean, stub: ReturnType<typeof studioStub>) =>
    render(
      <InspectorPanel
        version="v1"
        path={injected ? 'memory_summary.md' : 'MEMORY.md'}
        kind={injected ? 'summary' : 'memory'}
        injected={injected}
        diagnostics={diagnostics}
        onJump={() => undefined}
        onOpenSession={() => undefined}
      />,
      { wrapper: stub.wrapper },
    );

  it('says sessions never cite an injected file, without asking who cited it', () => {
    const stub = studioStub({});
    show(true, stub);
    expect(screen.getByText(/Sessions do not cite memory_summary\.md/)).toBeTruthy();
    expect(asked(stub, 'provenance.citedBy')).toEqual([]);
  });

  it('asks core who cited any other file', async () => {
    const stub = studioStub({ 'provenance.citedBy': () => ok([]) });
    show(false, stub);
    await waitFor(() => expect(asked(stub, 'provenance.citedBy').map((c) => c.input)).toEqual([{ version: 'v1', path: 'MEMORY.md' }]));
    expect(screen.queryByText(/Sessions do not cite/)).toBeNull();
  });
});

describe('edit mode', () => {
  const start = (fields: Partial<FileContent>) => {
    const stub = studioStub({});
    const { result } = renderHook(() => useEditMode(file(fields), () => undefined), { wrapper: stub.wrapper });
    if (result.current.canEdit) act(() => result.current.start());
    return result;
  };

  it('edits a curated file straight away', () => {
    const result = start({ editing: 'curated' });
    expect(result.current.phase).toBe('editing');
    expect(result.current.draft).toBe(SUMMARY);
  });

  it('warns first for a file core says Codex regenerates, then edits when confirmed', () => {
    const result = start({ path: 'raw_memories.md', kind: 'raw-memories', injected: false, editing: 'regenerated' });
    expect(result.current.phase).toBe('warning');
    act(() => result.current.confirmRegenerated());
    expect(result.current.phase).toBe('editing');
  });

  it('offers no edit where core says none, whatever the kind', () => {
    const result = start({ path: 'MEMORY.md', kind: 'memory', injected: false, editing: 'none' });
    expect(result.current.canEdit).toBe(false);
    expect(result.current.phase).toBe('viewing');
  });
});
