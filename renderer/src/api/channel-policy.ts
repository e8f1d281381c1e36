// Per channel, as data: how long an answer stays fresh, and what a change through a channel does to the cache.
import { channelNames, type ChannelInput, type ChannelName, type ChannelOutput } from '../../../shared/contract';
import type { RunStatus } from '../../../shared/consolidate';
import type { Proposal } from '../../../shared/review';
import type { IndexStatus } from '../../../shared/search';
import { activeStates, isActive } from '../consolidate/run-state';
import type { StudioCache } from './studio-query';

/** The contract's channels of these areas (`review`, `history`, ...), for invalidating an area at once. */
export function channelsOf(...areas: readonly string[]): ChannelName[] {
  return channelNames.filter((name) => areas.includes(name.slice(0, name.indexOf('.'))));
}

export interface QueryPolicy<C extends ChannelName> {
  staleTime?: number;
  gcTime?: number;
  retry?: false;
  /** Keeps the last answer on screen while the next input's answer loads (switching files, typing a query). */
  keepPrevious?: boolean;
  refetchInterval?: (data: ChannelOutput<C> | undefined) => number | false;
  /** Runs with every fetched answer, before it is stored. */
  afterFetch?: (cache: StudioCache, value: ChannelOutput<C>) => void;
}

/** How often a run's status is polled while it is active: the fallback when `consolidate.progress` events are missed. */
const POLL_MS = 1500;
const leaseHeld = new Set(['held', 'held-by-studio', 'held-by-dead-studio']);

export const queryPolicy: { [C in ChannelName]?: QueryPolicy<C> } = {
  'app.info': { staleTime: Infinity },
  // Contents can be megabytes each: do not keep every file ever opened; keep the last one on screen while the next loads.
  'workspace.read': { keepPrevious: true, gcTime: 60_000 },
  'inspect.parse': { gcTime: 60_000 },
  'inspect.rollouts': { keepPrevious: true },
  'inspect.projects': { keepPrevious: true },
  // Switching the version or the "since" filter keeps the last ledger on screen while the next one is read.
  'coverage.get': { keepPrevious: true },
  'provenance.session': { gcTime: 60_000 },
  // Agents propose through \`memory-studio mcp\`, another process that announces nothing here: look for theirs now and then.
  'review.list': { refetchInterval: () => 10_000 },
  // A file's texts change only with a rebase or a revision, which refresh them.
  'review.fileTexts': { staleTime: Infinity },
  'review.blocks': { staleTime: 60_000 },
  'history.sinceBaseline': { retry: false },
  'history.baselineFile': { retry: false },
  // A lease held elsewhere can simply expire (nothing on disk changes): look again, so Start comes back by itself.
  'consolidate.preview': { refetchInterval: (preview) => (leaseHeld.has(preview?.lease.state ?? '') ? 10_000 : false) },
  'consolidate.status': { refetchInterval: (run) => (isActive(run) ? POLL_MS : false), afterFetch: (cache, run) => storeRun(cache, run) },
  'search.query': { keepPrevious: true },
  'search.blocks': { keepPrevious: true },
  // A check of a heavy home takes seconds: keep showing the last report while the next one runs.
  'doctor.run': { keepPrevious: true, staleTime: 30_000 },
  // The draft is read once, when the wizard opens; later the wizard's own state is the truth.
  'import.draft': { staleTime: Infinity },
  'import.detect': { keepPrevious: true, staleTime: 0 },
  'import.plan': { keepPrevious: true, staleTime: 0 },
};

/** Anything written, decided or rejected can change every review and history answer (and an agent's config): refresh them all. */
export function invalidateReview(cache: StudioCache): Promise<void> {
  return cache.invalidate(channelsOf('review', 'history', 'agents'));
}

/** A proposal answer: cached as `review.get`, and the list and the result around it refreshed. */
function proposalSettled(cache: StudioCache, proposal: Proposal): void {
  cache.set('review.get', { id: proposal.id }, proposal);
  void cache.invalidate('review.list');
  void cache.invalidate('review.result', { id: proposal.id });
}

/** Keeps a run's newest known state in the status and runs caches; an end state refreshes what it changed. */
export function storeRun(cache: StudioCache, run: RunStatus): void {
  const previous = cache.get('consolidate.status', { id: run.id });
  cache.set('consolidate.status', { id: run.id }, run);
  cache.set('consolidate.runs', {}, (runs) => {
    if (!runs) return runs;
    const index = runs.findIndex((r) => r.id === run.id);
    if (index < 0) return [run, ...runs];
    return runs.map((r) => (r.id === run.id ? run : r));
  });
  const stateChanged = !previous || previous.state !== run.state;
  // A proposal was born (Review badge).
  if (stateChanged && !activeStates.has(run.state)) void invalidateReview(cache);
  // The lease the preview shows is taken when a run starts, and released or kept for the review when it ends.
  if (stateChanged) void cache.invalidate('consolidate.preview');
}

/** The index's state (an answer or an `index.progress` event); a finished build refreshes every search on screen. */
export function storeIndexStatus(cache: StudioCache, status: IndexStatus): void {
  const before = cache.get('index.status', {});
  cache.set('index.status', {}, status);
  if (status.state === 'ready' && before?.state !== 'ready') void cache.invalidate(channelsOf('search'));
}

function settingsSaved(cache: StudioCache, view: ChannelOutput<'consolidate.settings'>): void {
  cache.set('consolidate.settings', {}, view);
  // The engine's model shows in the preview.
  void cache.invalidate('consolidate.preview');
}

/** Another home is shown: every answer is about the old one. */
function homeSwitched(cache: StudioCache, home: ChannelOutput<'home.get'>): void {
  cache.set('home.get', {}, home);
  void cache.invalidateAll();
}

interface MutationEffect<C extends ChannelName> {
  success?: (cache: StudioCache, output: ChannelOutput<C>, input: ChannelInput<C>) => void;
  /** After success or failure (an Apply that failed half-way still changed what the review shows). */
  settled?: (cache: StudioCache) => unknown;
}

const madeProposal = { success: (cache: StudioCache, proposal: Proposal) => proposalSettled(cache, proposal) };
/** A doctor proposal changes the inbox (the report itself changes only once it is applied). */
const doctorProposal = { success: (cache: StudioCache) => void invalidateReview(cache) };

export const mutationEffects: { [C in ChannelName]?: MutationEffect<C> } = {
  'home.openDemo': { success: (cache, home) => homeSwitched(cache, home) },
  'home.leaveDemo': { success: (cache, home) => homeSwitched(cache, home) },
  'review.propose': madeProposal,
  'review.redact': madeProposal,
  'review.note': madeProposal,
  'review.seen': madeProposal,
  'agents.connect': madeProposal,
  'review.forget': madeProposal,
  'history.revert': madeProposal,
  'review.decide': madeProposal,
  'review.reject': madeProposal,
  'coverage.retry': madeProposal,
  'coverage.reclaim': madeProposal,
  // An Apply may change Codex's DBs (a forget, a repair): the ledger and health read them.
  'review.apply': { settled: (cache) => Promise.all([invalidateReview(cache), cache.invalidate(['coverage.get', 'inspect.health'])]) },
  // A rebase or revision changes the file's texts, blocks and (rebase) its staleness and conflicts.
  'review.rebase': {
    success: (cache, outcome) => {
      proposalSettled(cache, outcome.proposal);
      void cache.invalidate(['review.stale', 'review.mergeTexts', 'review.blocks', 'review.fileTexts'], { id: outcome.proposal.id });
    },
  },
  'review.revise': {
    success: (cache, proposal, input) => {
      proposalSettled(cache, proposal);
      // The saved text shows at once (the edit's view goes back to the cached texts), then the stored one is asked for.
      cache.set('review.fileTexts', { id: input.id, ord: input.ord }, (old) => (old ? { ...old, proposedContent: input.content } : old));
      void cache.invalidate(['review.blocks', 'review.fileTexts'], { id: proposal.id });
    },
  },
  'index.cancel': { success: storeIndexStatus },
  'index.resume': { success: storeIndexStatus },
  'consolidate.start': { success: storeRun },
  'consolidate.cancel': { success: storeRun },
  'consolidate.saveSettings': { success: settingsSaved },
  'consolidate.chooseCodexCommand': { success: settingsSaved },
  'consolidate.setApiKey': { success: settingsSaved },
  'doctor.fix': doctorProposal,
  'doctor.fixGroup': doctorProposal,
  'doctor.promote': doctorProposal,
  'doctor.modelMerge': doctorProposal,
  // The proposal lands in the review cache so the wizard's embedded review opens at once.
  'sync.init': { success: (cache) => void cache.invalidate(['sync.status']) },
  'import.propose': {
    success: (cache, outcome) => {
      if (outcome.proposal) cache.set('review.get', { id: outcome.proposal.id }, outcome.proposal);
      void cache.invalidate('review.list');
    },
  },
};
