// Turns host events into react-query invalidations by channel name, so the UI never mirrors disk state by hand.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ChannelName, EventEnvelope } from '../../../shared/contract';
import type { MemoryVersion } from '../../../shared/domain';
import { channelsOf, invalidateReview, storeIndexStatus, storeRun } from './channel-policy';
import { useStudioClient } from './client';
import { studioCache, type StudioCache } from './studio-query';

/**
 * Channels whose answers depend on one root's files at once (a pointer's target, the summary's neighbours): any
 * change in the root refreshes all of them for that root; only queries on screen refetch.
 */
export const rootDerivedChannels: readonly ChannelName[] = [
  'inspect.parse',
  'inspect.budget',
  'inspect.lint',
  'inspect.rollouts',
  'inspect.projects',
  'provenance.pointer',
  'provenance.citedBy',
  'provenance.neverCited',
  'provenance.line',
  // The consolidation preview counts the root's notes, resources and hand edits.
  'consolidate.preview',
];

/** Event paths should be root-relative; strip the root if a host sends absolute ones, so keys still match. */
function toRelative(cache: StudioCache, version: MemoryVersion, path: string): string {
  const root = cache.get('home.get', {})?.roots.find((r) => r.version === version)?.path;
  const normalized = path.replace(/\\/g, '/');
  if (root) {
    const prefix = `${root.replace(/\\/g, '/').replace(/\/+$/, '')}/`;
    if (normalized.startsWith(prefix)) return normalized.slice(prefix.length);
  }
  return normalized;
}

function workspaceChanged(cache: StudioCache, version: MemoryVersion, paths: readonly string[]): void {
  void cache.invalidate('workspace.list', { version });
  void cache.invalidate(rootDerivedChannels, { version });
  // Codex's DBs are not watched: the health page refreshes on demand and when a root changes.
  void cache.invalidate('inspect.health');
  // The ledger says which root files name each session, and a consolidation changes Codex's tables with the files.
  void cache.invalidate('coverage.get');
  void cache.invalidate(channelsOf('search'));
  // The doctor reads every memory file of the home.
  void cache.invalidate('doctor.run');
  // A session's citation links say which root holds each cited file (core looks), whatever root changed.
  void cache.invalidate('provenance.session');
  // A change on disk can make a proposal conflict and adds external entries to the history.
  void invalidateReview(cache);
  // No paths means "something changed": refresh every open file of that root.
  if (paths.length === 0) {
    void cache.invalidate('workspace.read', { version });
    return;
  }
  for (const path of paths) void cache.invalidate('workspace.read', { version, path: toRelative(cache, version, path) });
}

export function applyEvent(cache: StudioCache, envelope: EventEnvelope): void {
  switch (envelope.event) {
    case 'workspace.changed':
      workspaceChanged(cache, envelope.payload.version, envelope.payload.paths);
      return;
    case 'consolidate.progress':
      storeRun(cache, envelope.payload);
      return;
    case 'index.progress':
      storeIndexStatus(cache, envelope.payload);
      return;
    case 'home.changed':
      // Another home, so nothing cached is trustworthy.
      void cache.invalidateAll();
      return;
    case 'sync.progress':
      // Shown by the Sync view while its request runs (it listens itself); nothing cached changes.
      return;
  }
}

export function useStudioEvents(): void {
  const client = useStudioClient();
  const queryClient = useQueryClient();
  useEffect(() => {
    const cache = studioCache(queryClient);
    const offEvents = client.api.onEvent((envelope) => applyEvent(cache, envelope));
    const offResync = client.onResync(() => void cache.invalidateAll());
    return () => {
      offEvents();
      offResync();
    };
  }, [client, queryClient]);
}
