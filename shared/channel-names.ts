// The names of the contract's channels and nothing else: what the sandboxed preload needs to expose one function per
// channel. The schemas stay in contract.ts (zod), which asserts at compile time that this list names exactly its channels,
// so the preload bundle carries no schema library.
import type { ChannelName, EventEnvelope, StudioApi } from './contract';
import type { Result } from './result';

export const CHANNEL_NAMES = [
  'app.info',
  'app.choosePath',
  'home.get',
  'home.openDemo',
  'home.leaveDemo',
  'workspace.list',
  'workspace.read',
  'inspect.parse',
  'inspect.budget',
  'inspect.lint',
  'inspect.health',
  'inspect.rollouts',
  'inspect.projects',
  'coverage.get',
  'coverage.retry',
  'coverage.reclaim',
  'provenance.pointer',
  'provenance.citedBy',
  'provenance.neverCited',
  'provenance.line',
  'provenance.session',
  'review.list',
  'review.get',
  'review.propose',
  'review.redact',
  'review.note',
  'review.agentPropose',
  'review.seen',
  'review.decide',
  'review.result',
  'review.apply',
  'review.forget',
  'review.reject',
  'review.rebase',
  'review.stale',
  'review.blocks',
  'review.mergeTexts',
  'review.fileTexts',
  'review.revise',
  'history.list',
  'history.diff',
  'history.entryDiff',
  'history.sinceBaseline',
  'history.baselineFile',
  'history.revert',
  'consolidate.preview',
  'consolidate.start',
  'consolidate.status',
  'consolidate.runs',
  'consolidate.cancel',
  'consolidate.settings',
  'consolidate.saveSettings',
  'consolidate.chooseCodexCommand',
  'consolidate.setApiKey',
  'search.query',
  'search.blocks',
  'search.projects',
  'index.status',
  'index.cancel',
  'index.resume',
  'agents.status',
  'agents.connect',
  'import.detect',
  'import.plan',
  'import.propose',
  'import.fileText',
  'import.draft',
  'import.saveDraft',
  'import.clearDraft',
  'doctor.run',
  'doctor.fix',
  'doctor.fixGroup',
  'doctor.promote',
  'doctor.explain',
  'doctor.modelMerge',
  'sync.status',
  'sync.init',
  'sync.push',
  'sync.pull',
] as const;

/** IPC channel prefix, so our handlers never collide with Electron's own or a library's. */
export const IPC_PREFIX = 'studio:';
export const IPC_EVENT_CHANNEL = 'studio:event';

/**
 * Builds the named-function API from the channel names, over any transport.
 * The preload (IPC) and the browser client (HTTP) both use it, so neither exposes a generic invoke.
 */
export function buildApi(
  call: (channel: ChannelName, input: unknown) => Promise<Result<unknown>>,
  subscribe: (listener: (envelope: EventEnvelope) => void) => () => void,
): StudioApi {
  const api: Record<string, Record<string, (input: unknown) => Promise<unknown>>> = {};
  for (const name of CHANNEL_NAMES) {
    const [area, verb] = name.split('.') as [string, string];
    api[area] ??= {};
    api[area][verb] = (input: unknown) => call(name, input ?? {});
  }
  return Object.assign(api, { onEvent: subscribe }) as unknown as StudioApi;
}
