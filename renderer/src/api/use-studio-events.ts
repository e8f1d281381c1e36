// Turns host events into react-query invalidations, so the UI never mirrors disk state by hand.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { EventEnvelope } from '../../../shared/contract';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { useStudioClient } from './client';
import { inspectKeys, queryKeys, rootDerivedChannels } from './query-keys';
import { invalidateReview } from './review-queries';
import { storeRun } from '../consolidate/consolidate-queries';
import { applyIndexStatus, searchKeys } from './search-queries';

/** Event paths should be root-relative; strip the root if a host sends absolute ones, so keys still match. */
function toRelative(queryClient: QueryClient, version: MemoryVersion, path: string): string {
  const root = queryClient.getQueryData<HomeInfo>(queryKeys.home)?.roots.find((r) => r.version === version)?.path;
  const normalized = path.replace(/\\/g, '/');
  if (root) {
    const prefix = `${root.replace(/\\/g, '/').replace(/\/+$/, '')}/`;
    if (normalized.startsWith(prefix)) return normalized.slice(prefix.length);
  }
  return normalized;
}

/**
 * Outlines, budget, lint, tables and citations are derived from many files of the root at once (a pointer's
 * target, the summary's neighbours), so any change in a root refreshes all of them; only queries on screen refetch.
 */
function invalidateInspections(queryClient: QueryClient, version: MemoryVersion): void {
  for (const channel of rootDerivedChannels) {
    void queryClient.invalidateQueries({ queryKey: inspectKeys.ofRoot(channel, version) });
  }
  void queryClient.invalidateQueries({ queryKey: inspectKeys.healthAll });
}

export function applyEvent(queryClient: QueryClient, envelope: EventEnvelope): void {
  if (envelope.event === 'workspace.changed') {
    const { version, paths } = envelope.payload;
    void queryClient.invalidateQueries({ queryKey: queryKeys.fileListsOf(version) });
    invalidateInspections(queryClient, version);
    void queryClient.invalidateQueries({ queryKey: searchKeys.all });
    // The doctor reads every memory file of the home.
    void queryClient.invalidateQueries({ queryKey: ['doctor.run'] });
    // A change on disk can make a proposal conflict and adds external entries to the history.
    void invalidateReview(queryClient);
    // No paths means "something changed": refresh every open file of that root.
    if (paths.length === 0) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.filesOf(version) });
      return;
    }
    for (const path of paths) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.fileAt(version, toRelative(queryClient, version, path)) });
    }
    return;
  }
  if (envelope.event === 'consolidate.progress') {
    storeRun(queryClient, envelope.payload);
    return;
  }
  if (envelope.event === 'index.progress') {
    applyIndexStatus(queryClient, envelope.payload);
    return;
  }
  if (envelope.event !== 'home.changed') return;
  // home.changed: another home, so nothing cached is trustworthy.
  void queryClient.invalidateQueries();
}

export function useStudioEvents(): void {
  const client = useStudioClient();
  const queryClient = useQueryClient();
  useEffect(() => {
    const offEvents = client.api.onEvent((envelope) => applyEvent(queryClient, envelope));
    const offResync = client.onResync(() => void queryClient.invalidateQueries());
    return () => {
      offEvents();
      offResync();
    };
  }, [client, queryClient]);
}
