// The data layer from the contract: keys from channel, input and home; a failure unwrapped into the error the UI shows;
// invalidation by channel name (host events and mutation effects) reaching exactly the answers it should.
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { channelsOf } from '../../renderer/src/api/channel-policy';
import { skipToken, studioCache, studioKey, useStudioMutation, useStudioQuery } from '../../renderer/src/api/studio-query';
import { StudioRequestError, toStudioError } from '../../renderer/src/api/studio-request-error';
import { applyEvent } from '../../renderer/src/api/use-studio-events';
import { FileContentSchema, type MemoryVersion } from '../../shared/domain';
import { fail, ok } from '../../shared/result';
import { decided, proposal } from './support/proposal';
import { CODEX_HOME, studioStub } from './support/studio-stub';

const fileContent = (version: MemoryVersion, path: string, content: string) =>
  FileContentSchema.parse({
    version,
    path,
    kind: 'summary',
    content,
    size: content.length,
    mtimeMs: 1,
    lineCount: 1,
    eol: 'lf',
    injected: true,
    editing: 'curated',
  });

describe('studioKey', () => {
  it('is channel, input, then the home; home-free channels have no home; a skipped query its own key', () => {
    expect(studioKey('workspace.read', { version: 'v1', path: 'MEMORY.md' }, CODEX_HOME)).toEqual([
      'workspace.read',
      { version: 'v1', path: 'MEMORY.md' },
      CODEX_HOME,
    ]);
    expect(studioKey('consolidate.status', { id: 'c-0a1b2c3d' }, CODEX_HOME)).toEqual(['consolidate.status', { id: 'c-0a1b2c3d' }]);
    expect(studioKey('review.get', skipToken, CODEX_HOME)).toEqual(['review.get', 'skip']);
  });

  it('derives areas from the contract', () => {
    expect(channelsOf('history')).toEqual([
      'history.list',
      'history.diff',
      'history.entryDiff',
      'history.sinceBaseline',
      'history.baselineFile',
      'history.revert',
    ]);
  });
});

describe('useStudioQuery', () => {
  it('waits for the home, then asks once and keys the answer with the home', async () => {
    const stub = studioStub({
      'workspace.read': ({ version, path }: { version: MemoryVersion; path: string }) => ok(fileContent(version, path, '# hi\n')),
    });
    const { result } = renderHook(() => useStudioQuery('workspace.read', { version: 'v1', path: 'memory_summary.md' }), {
      wrapper: stub.wrapper,
    });
    await waitFor(() => expect(result.current.data?.content).toBe('# hi\n'));
    expect(stub.calls.map((c) => c.channel)).toEqual(['home.get', 'workspace.read']);
    expect(stub.queryClient.getQueryData(['workspace.read', { version: 'v1', path: 'memory_summary.md' }, CODEX_HOME])).toEqual(
      result.current.data,
    );
  });

  it('asks nothing for a skipped input', async () => {
    const stub = studioStub({});
    const { result } = renderHook(() => useStudioQuery('review.get', skipToken), { wrapper: stub.wrapper });
    await waitFor(() => expect(stub.calls.map((c) => c.channel)).toEqual(['home.get']));
    expect(result.current.fetchStatus).toBe('idle');
  });

  it('turns a failed Result into a StudioRequestError carrying the StudioError the error panel shows', async () => {
    const failure = { kind: 'Conflict' as const, message: 'MEMORY.md changed on disk.', hint: 'Rebase the proposal.' };
    const stub = studioStub({ 'review.get': () => fail(failure) });
    const { result } = renderHook(() => useStudioQuery('review.get', { id: 'p-abcdef' }), { wrapper: stub.wrapper });
    await waitFor(() => expect(result.current.error).not.toBeNull());
    expect(result.current.error).toBeInstanceOf(StudioRequestError);
    expect((result.current.error as StudioRequestError).channel).toBe('review.get');
    expect(toStudioError(result.current.error)).toEqual(failure);
  });

  it('turns an answer that breaks the contract into an Internal error naming the channel', async () => {
    const stub = studioStub({ 'review.get': () => ok({ not: 'a proposal' }) });
    const { result } = renderHook(() => useStudioQuery('review.get', { id: 'p-abcdef' }), { wrapper: stub.wrapper });
    await waitFor(() => expect(result.current.error).not.toBeNull());
    expect(toStudioError(result.current.error)).toMatchObject({ kind: 'Internal', message: expect.stringContaining('review.get') });
  });
});

describe('invalidation by channel name', () => {
  it('a workspace.changed event refetches the changed file of that root only, and the review answers', async () => {
    let reads = 0;
    const stub = studioStub({
      'workspace.read': ({ version, path }: { version: MemoryVersion; path: string }) => {
        reads += 1;
        return ok(fileContent(version, path, `read ${reads}`));
      },
      'review.list': () => ok({ proposals: [], pendingCount: 0 }),
    });
    const { result } = renderHook(
      () => ({
        changed: useStudioQuery('workspace.read', { version: 'v1', path: 'MEMORY.md' }),
        other: useStudioQuery('workspace.read', { version: 'v2', path: 'MEMORY.md' }),
        list: useStudioQuery('review.list', {}),
      }),
      { wrapper: stub.wrapper },
    );
    await waitFor(() => expect(result.current.changed.data && result.current.other.data && result.current.list.data).toBeTruthy());
    const before = { other: result.current.other.data?.content, lists: stub.calls.filter((c) => c.channel === 'review.list').length };
    // The host may send an absolute path: it is matched against the root.
    act(() =>
      applyEvent(studioCache(stub.queryClient), {
        event: 'workspace.changed',
        payload: { version: 'v1', paths: [`${CODEX_HOME}/memories/MEMORY.md`] },
      }),
    );
    await waitFor(() => expect(result.current.changed.data?.content).toBe('read 3'));
    await waitFor(() => expect(stub.calls.filter((c) => c.channel === 'review.list').length).toBe(before.lists + 1));
    expect(result.current.other.data?.content).toBe(before.other);
    // Two first reads and one refetch: the v2 file with the same path was not asked again.
    expect(stub.calls.filter((c) => c.channel === 'workspace.read')).toHaveLength(3);
  });

  it('a mutation stores its answer where the matching query reads it (review.decide -> review.get)', async () => {
    const p = proposal('p-abc123');
    const stub = studioStub({
      'review.get': () => ok(p),
      'review.decide': (input: never) => ok(decided(p, input)),
      'review.result': () => fail({ kind: 'Internal', message: 'not here' }),
    });
    const { result } = renderHook(
      () => ({ query: useStudioQuery('review.get', { id: p.id }), decide: useStudioMutation('review.decide') }),
      { wrapper: stub.wrapper },
    );
    await waitFor(() => expect(result.current.query.data).toBeDefined());
    const hunk = p.files[0]!.hunks[0]!.id;
    await act(() => result.current.decide.mutateAsync({ id: p.id, files: [{ ord: 0, decisions: { [hunk]: 'accept' } }] }));
    expect(result.current.query.data?.files[0]?.decisions).toEqual({ [hunk]: 'accept' });
    expect(stub.calls.filter((c) => c.channel === 'review.get')).toHaveLength(1);
  });
});
