// The core service behind every host: the handlers of every area, dispatch with validation, and events.
import { randomUUID } from 'node:crypto';
import { channels, isChannelName, type ChannelInput, type ChannelName, type ChannelOutput, type EventEnvelope } from '../../shared/contract';
import type { HomeInfo, MemoryVersion } from '../../shared/domain';
import type { Result } from '../../shared/result';
import type { IndexStatus } from '../../shared/search';
import { demoHomeDir } from './demo-home-choice';
import { StudioFailure, toStudioError } from './errors';
import { createExternalHistory } from './external-history';
import type { HandlerContext, IndexAccess } from './handlers/context';
import { appHandlers, homeHandlers } from './handlers/home-handlers';
import { inspectHandlers } from './handlers/inspect-handlers';
import { provenanceHandlers } from './handlers/provenance-handlers';
import { importHandlers } from './handlers/import-handlers';
import { consolidateHandlers } from './handlers/consolidate-handlers';
import { doctorHandlers } from './handlers/doctor-handlers';
import { loadEngineSettings, resolveApiKey, type SecretStore } from './consolidate/engine-settings';
import { recoverAtStartup } from './apply';
import { createRunManager, type RunManager } from './consolidate/run';
import type { TrustedSettingsUi } from './consolidate/trusted-settings';
import type { Engine } from './consolidate/types';
import type { EngineName } from '../../shared/consolidate';
import { historyHandlers, reviewHandlers } from './handlers/review-handlers';
import { workspaceHandlers } from './handlers/workspace-handlers';
import { inspectHome, type HomeChoice } from './home';
import { maskSecretsInText } from './lint/mask-secrets';
import { openStudioDb, type StudioDb } from './studio-db';
import { watchHome, type Disposable } from './watcher';
import { DEFAULT_READ_CAP_BYTES } from './workspace';
import { IndexManager } from './index-store/manager';
import { indexPathFor } from './index-store/open-index';
import { searchHandlers } from './handlers/search-handlers';

/** How long after a change the background index refresh waits (the watcher's events come in bursts). */
const INDEX_REFRESH_DELAY_MS = 300;

export interface StudioServiceOptions {
  home: HomeChoice;
  dataDir: string;
  host: 'electron' | 'serve';
  appVersion: string;
  env?: NodeJS.ProcessEnv;
  readCapBytes?: number;
  /** Builds the demo home; tests may swap it. */
  createDemoHome?: (dir: string) => Promise<void>;
  /** Watch the home for external changes (off in short-lived CLI runs). */
  watch?: boolean;
  log?: (line: string) => void;
  /** The OS keychain (Electron's safeStorage) for an OpenAI-compatible API key; none in serve and CLI. */
  secretStore?: SecretStore | null;
  /** Electron's native dialogs for the settings that run a program or send the key; none in serve and CLI. */
  trustedSettingsUi?: TrustedSettingsUi | null;
  /** Keep Codex's lease while a consolidation waits for review (the app); the CLI releases it at once. */
  holdConsolidationLease?: boolean;
  /** Tests only: replace an engine (the run pipeline around it stays real). */
  engines?: Partial<Record<EngineName, Engine>>;
  /** Keep the home's index in the data folder (on by default; a CLI fallback that reads files directly turns it off). */
  indexing?: boolean;
  /** SQLite's page limit for the index: a real "database or disk is full" at that size (tests of the full-disk path). */
  indexMaxPages?: number;
}

type Handlers = { [C in ChannelName]: (input: ChannelInput<C>) => Promise<ChannelOutput<C>> };

export interface StudioService {
  dispatch(channel: string, input: unknown): Promise<Result<unknown>>;
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>;
  onEvent(listener: (event: EventEnvelope) => void): () => void;
  currentHome(): HomeChoice;
  /** The consolidation runs of this service (the CLI waits on them). */
  consolidation(): RunManager;
  dispose(): void;
  /** dispose(), then waits until running consolidations have stopped (their engines killed) and Codex's lease is back. */
  shutdown(): Promise<void>;
}

/** The home's index, kept in the data folder and built on workers; its progress goes out as `index.progress`. */
function indexerFor(options: StudioServiceOptions, emit: (event: EventEnvelope) => void, log: (line: string) => void): IndexManager {
  const onStatus = (payload: IndexStatus) => emit({ event: 'index.progress', payload });
  return new IndexManager({ dataDir: options.dataDir, scanOnPool: true, onStatus, log, open: { maxPages: options.indexMaxPages } });
}

/** After the watcher saw a change: refresh the index in the background (on workers), so search is current when asked. */
function indexRefresher(indexer: IndexManager | null, knownHome: () => Promise<HomeInfo>, closed: () => boolean, log: (line: string) => void) {
  let timer: NodeJS.Timeout | undefined;
  const refresh = () => {
    if (!indexer) return;
    knownHome()
      .then((info) => indexer.fresh(info))
      .catch((error: unknown) => log(`[index] ${String(error)}`));
  };
  return {
    soon: () => {
      if (!indexer || closed()) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(refresh, INDEX_REFRESH_DELAY_MS);
      timer.unref();
    },
    cancel: () => {
      if (timer) clearTimeout(timer);
    },
  };
}

/** The folder of a memory version in the home, or a clear refusal when the home has none. */
function rootPathOf(info: HomeInfo, version: MemoryVersion): string {
  const root = info.roots.find((r) => r.version === version);
  if (!root?.exists) {
    throw new StudioFailure('NotFound', `${info.codexHome} has no ${version} memory folder.`, { path: root?.path, hint: 'Pick another Codex home, or open the demo.' });
  }
  return root.path;
}

/** The handlers' view of the index manager (null: the index is off in this mode). */
function indexAccess(
  indexer: IndexManager | null,
  options: StudioServiceOptions,
  home: { codexHome: () => string; knownHome: () => Promise<HomeInfo>; refreshSoon: () => void },
): IndexAccess {
  return {
    // Without a watcher nothing says a file changed: every request refreshes (a stat-only pass).
    fresh: async (opts = {}) => (indexer ? indexer.fresh(await home.knownHome(), options.watch === false ? {} : opts) : null),
    last: () => indexer?.last(home.codexHome()) ?? null,
    status: () => indexer?.status() ?? { state: 'off', done: 0, total: 0, message: 'The index is not kept in this mode.', notice: null, path: null },
    cancel: () => indexer?.cancel(),
    resume: () => {
      indexer?.resume();
      home.refreshSoon();
    },
    path: () => (indexer && indexer.status().state !== 'off' ? indexPathFor(options.dataDir, home.codexHome()) : null),
  };
}

/** Holds the current home, its cached inspection and its watcher; hands handlers what they share. */
function createContext(options: StudioServiceOptions, emitToListeners: (event: EventEnvelope) => void): HandlerContext & { choice(): HomeChoice; dispose(): void } {
  const env = options.env ?? process.env;
  const demoDir = demoHomeDir(options.dataDir);
  let choice = options.home;
  let known: HomeInfo | undefined;
  let watcher: Disposable | undefined;
  let watchKey = '';
  let studio: StudioDb | undefined;
  let closed = false;
  // After dispose nothing may reopen the Studio DB (late watcher work would recreate files in a folder being removed).
  const studioDb = () => {
    if (closed) throw new StudioFailure('Busy', 'Memory Studio is closing; the change was not recorded.');
    return (studio ??= openStudioDb(options.dataDir));
  };
  const log = options.log ?? ((line: string) => console.error(line));
  const external = createExternalHistory({ studioDb, log });
  const indexer = options.indexing === false ? null : indexerFor(options, emitToListeners, log);
  const refresher = indexRefresher(indexer, () => knownHome(), () => closed, log);
  const refreshSoon = refresher.soon;
  const emit = (event: EventEnvelope) => {
    if (event.event === 'workspace.changed' || event.event === 'home.changed') {
      indexer?.markDirty();
      refreshSoon();
    }
    if (event.event === 'home.changed') known = undefined; // The watcher saw a root appear or vanish, or config change.
    // Both the watcher and our own Apply announce changes; external history tells Codex's from ours by content.
    if (event.event === 'workspace.changed' && options.watch !== false) void external.onChanged(event.payload.version, event.payload.paths);
    emitToListeners(event);
  };
  const home = async (): Promise<HomeInfo> => {
    const info = await inspectHome(choice, env, choice.source === 'demo' || choice.codexHome === demoDir);
    const key = info.codexHome + JSON.stringify(info.roots.map((r) => r.exists));
    if (options.watch !== false && key !== watchKey) {
      watcher?.dispose();
      watcher = watchHome(info, emit);
      watchKey = key;
      // "Before" must be known when the first change arrives: snapshot the roots now (once per root, capped).
      await external.prime(info).catch((error: unknown) => log(`[external-history] snapshot failed: ${String(error)}`));
    }
    const first = known === undefined;
    known = info;
    if (first && options.watch !== false) refreshSoon(); // the first look at a home starts its index (cold builds run on workers)
    return info;
  };
  const knownHome = async () => (known?.codexHome === choice.codexHome ? known : home());
  return {
    home,
    knownHome,
    rootPath: async (version: MemoryVersion) => rootPathOf(await knownHome(), version),
    switchHome(next) {
      choice = next;
      known = undefined;
    },
    emit,
    dataDir: options.dataDir,
    host: options.host,
    appVersion: options.appVersion,
    readCapBytes: options.readCapBytes ?? DEFAULT_READ_CAP_BYTES,
    createDemoHome: options.createDemoHome,
    studioDb,
    index: indexAccess(indexer, options, { codexHome: () => choice.codexHome, knownHome, refreshSoon }),
    choice: () => choice,
    dispose: () => {
      closed = true;
      refresher.cancel();
      indexer?.dispose();
      watcher?.dispose();
      external.dispose();
      studio?.close();
      studio = undefined;
    },
  };
}

/** The consolidation runs of a service: settings and the API key are read when a run starts, not before. */
function runManagerFor(options: StudioServiceOptions, ctx: HandlerContext, env: NodeJS.ProcessEnv, secretStore: SecretStore | null): RunManager {
  return createRunManager({
    dataDir: options.dataDir,
    home: () => ctx.home(),
    studioDb: () => ctx.studioDb(),
    emit: (status) => ctx.emit({ event: 'consolidate.progress', payload: status }),
    settings: async () => (await loadEngineSettings(options.dataDir)).settings,
    engineOptions: {
      env,
      apiKey: async () => (await resolveApiKey(options.dataDir, secretStore, (await loadEngineSettings(options.dataDir)).settings, env)).key,
      engines: options.engines,
    },
    holdForReview: options.holdConsolidationLease ?? true,
  });
}

/** A request that failed the contract's input schema, in words (a malformed id typed on the command line), not a zod dump. */
function invalidRequest(channel: string, issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return `Invalid request for ${channel}: ${issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}.`;
}

/**
 * One request from a host: checked against the contract on the way in and out. An unexpected failure is logged with
 * an operation id the answer quotes; no secret leaves in a message.
 */
async function dispatchChecked(handlers: Handlers, ready: () => Promise<void>, log: (line: string) => void, channel: string, input: unknown): Promise<Result<unknown>> {
  if (!isChannelName(channel)) {
    return { ok: false, error: { kind: 'Invalid', message: `Unknown channel "${channel}".` } };
  }
  const spec = channels[channel];
  const parsed = spec.input.safeParse(input);
  if (!parsed.success) return { ok: false, error: { kind: 'Invalid', message: invalidRequest(channel, parsed.error.issues) } };
  const opId = randomUUID().slice(0, 8);
  await ready();
  try {
    const value = await (handlers[channel] as (i: unknown) => Promise<unknown>)(parsed.data);
    const checked = spec.output.safeParse(value);
    if (!checked.success) {
      log(`[${opId}] ${channel}: output failed the contract: ${checked.error.message}`);
      return { ok: false, error: { kind: 'Internal', message: `Memory Studio produced an invalid answer for ${channel} (operation ${opId}).` } };
    }
    return { ok: true, value: checked.data };
  } catch (error) {
    const studioError = toStudioError(error);
    if (studioError.kind === 'Internal') {
      log(`[${opId}] ${channel}: ${error instanceof Error ? error.stack : String(error)}`);
      studioError.message += ` (operation ${opId})`;
    }
    // An error can quote what it failed on (a value, a line of a file): no secret leaves in one.
    studioError.message = maskSecretsInText(studioError.message);
    return { ok: false, error: studioError };
  }
}

export function createStudioService(options: StudioServiceOptions): StudioService {
  const listeners = new Set<(event: EventEnvelope) => void>();
  // A log line can quote what failed (an input, a stack): secrets in it are masked before it is written.
  const writeLog = options.log ?? ((line: string) => console.error(line));
  const log = (line: string) => writeLog(maskSecretsInText(line));
  const ctx = createContext(options, (event) => {
    for (const listener of listeners) listener(event);
  });
  const env = options.env ?? process.env;
  const secretStore = options.secretStore ?? null;
  let runManager: RunManager | undefined;
  const runs = () => (runManager ??= runManagerFor(options, ctx, env, secretStore));
  const handlers: Handlers = {
    ...appHandlers(ctx),
    ...homeHandlers(ctx),
    ...workspaceHandlers(ctx),
    ...searchHandlers(ctx),
    ...inspectHandlers(ctx),
    ...provenanceHandlers(ctx),
    ...reviewHandlers(ctx),
    ...historyHandlers(ctx),
    ...importHandlers(ctx, options.env),
    ...consolidateHandlers(ctx, { runs, secretStore, env, trustedUi: options.trustedSettingsUi ?? null }),
    ...doctorHandlers(ctx, { secretStore, env }),
  };

  // At the start of every Memory Studio process (CLI, serve, app): what a killed one left (Codex's lease still
  // `running` under its pid, temp files, a journal) is put right before the first request is answered.
  let recovery: Promise<void> | undefined;
  const recoverOnce = () =>
    (recovery ??= (async () => {
      const home = await ctx.knownHome();
      const report = await recoverAtStartup(options.dataDir, home.roots.filter((r) => r.exists).map((r) => r.path));
      if (report) log(`[recovery] after a crash: ${JSON.stringify(report)}`);
    })().catch((error: unknown) => log(`[recovery] could not check for an interrupted Apply: ${error instanceof Error ? error.message : String(error)}`)));

  const call = async <C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> => {
    await recoverOnce();
    const checked = channels[channel].input.safeParse(input);
    if (!checked.success) throw new StudioFailure('Invalid', invalidRequest(channel, checked.error.issues));
    const parsed = checked.data as ChannelInput<C>;
    return (handlers[channel] as (i: ChannelInput<C>) => Promise<ChannelOutput<C>>)(parsed);
  };

  const dispatch = (channel: string, input: unknown) => dispatchChecked(handlers, recoverOnce, log, channel, input);

  return {
    dispatch,
    call,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentHome: () => ctx.choice(),
    consolidation: runs,
    dispose() {
      // Runs are cancelled and hand Codex's lease back (restored); that finishes in the background.
      void runManager?.dispose();
      ctx.dispose();
      listeners.clear();
    },
    async shutdown() {
      const stopping = runManager?.dispose();
      ctx.dispose();
      listeners.clear();
      await stopping;
    },
  };
}
