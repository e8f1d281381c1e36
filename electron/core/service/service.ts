// The core service behind every host: the handlers of every area, dispatch with validation, and events.
import { installTasks } from '../tasks/registry';
import { randomUUID } from 'node:crypto';
import {
  channels,
  isChannelName,
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
  type EventEnvelope,
} from '../../../shared/contract';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { Result } from '../../../shared/result';
import { createCallerPaths } from '../handlers/caller-paths';
import { checkDataDirPlacement } from './data-dir-check';
import { checkOutput } from './checked-output';
import { demoHomeDir } from '../handlers/demo-home-choice';
import { invalidRequest, StudioFailure, toStudioError } from '../platform/errors';
import { createExternalHistory, type SnapshotState } from '../history';
import { createCoordination } from './coordination';
import type { HandlerContext, IndexAccess, RequestContext } from '../handlers/context';
import { cancelledFailure } from '../runtime/pool';
import { appHandlers, homeHandlers } from '../handlers/home-handlers';
import { inspectHandlers } from '../handlers/inspect-handlers';
import { coverageHandlers } from '../handlers/coverage-handlers';
import { provenanceHandlers } from '../handlers/provenance-handlers';
import { importHandlers } from '../handlers/import-handlers';
import { syncHandlers } from '../handlers/sync-handlers';
import { consolidateHandlers } from '../handlers/consolidate-handlers';
import { doctorHandlers } from '../handlers/doctor-handlers';
import { loadEngineSettings, resolveApiKey, type SecretStore } from '../consolidate/engine-settings';
import { recoverAtStart } from './start-recovery';
import { createRunManager, type RunManager } from '../consolidate/run';
import type { TrustedSettingsUi } from '../consolidate/trusted-settings';
import type { Engine } from '../consolidate/types';
import type { EngineName } from '../../../shared/consolidate';
import { historyHandlers, reviewHandlers } from '../handlers/review-handlers';
import { workspaceHandlers } from '../handlers/workspace-handlers';
import { inspectHome, type HomeChoice } from '../codex/home';
import { maskSecretsInText } from '../lint/mask-secrets';
import { openStudioDb, type StudioDb } from '../studio-db';
import { watchHome, type Disposable } from '../codex/watcher';
import { DEFAULT_READ_CAP_BYTES } from '../codex/workspace';
import { IndexManager } from '../index-store/manager';
import { indexPathFor } from '../index-store/open-index';
import { searchHandlers } from '../handlers/search-handlers';
import { agentsHandlers } from '../handlers/agents-handlers';
import type { ServerLauncher } from '../agent-config/targets';

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
  /** How this host starts `memory-studio`, for connecting an agent to `memory-studio mcp` (set by the host, never a page). */
  mcpLauncher?: ServerLauncher | null;
  /** Whose paths requests carry: `person` for the CLI (typed arguments), `page` (the default) for serve and the app. */
  callerPaths?: 'person' | 'page';
  /** Folders the person named when starting the host (serve's `--import-source DIR`): import sources a page may use. */
  importSources?: readonly string[];
  /**
   * The host's main loop answers other callers while a request runs (the app, serve, mcp: the default): long work such as
   * an import plan goes to the pool and takes turns. Off for a one-shot CLI command, which runs it in its own thread.
   */
  sharedLoop?: boolean;
  /** Tests only: external history's snapshot starts once this settles (held, it shows the first answer does not wait). */
  holdHistorySnapshot?: Promise<unknown>;
}

type Handlers = { [C in ChannelName]: (input: ChannelInput<C>) => Promise<ChannelOutput<C>> };

export interface StudioService {
  /** One request from a host; `signal` stops it when its caller is gone (an aborted HTTP request), answered Cancelled. */
  dispatch(channel: string, input: unknown, request?: RequestContext): Promise<Result<unknown>>;
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>;
  onEvent(listener: (event: EventEnvelope) => void): () => void;
  currentHome(): HomeChoice;
  /** The consolidation runs of this service (the CLI waits on them). */
  consolidation(): RunManager;
  /** External history's snapshot of the roots, taken after the first answer: outside changes are told once it is ready. */
  historySnapshot(): SnapshotState;
  dispose(): void;
  /** dispose(), then waits until running consolidations have stopped (their engines killed) and Codex's lease is back. */
  shutdown(): Promise<void>;
}

/** The folder of a memory version in the home, or a refusal that says what to do when the home has none. */
function rootPathOf(info: HomeInfo, version: MemoryVersion): string {
  const root = info.roots.find((r) => r.version === version);
  if (!root?.exists) {
    throw new StudioFailure('NotFound', `${info.codexHome} has no ${version} memory folder.`, {
      path: root?.path,
      hint: 'Pick another Codex home, or open the demo.',
    });
  }
  return root.path;
}

/** What the index needs of the context: the current home (inspected, or only its folder) and whether it is closing. */
interface IndexedHomeSource {
  knownHome(): Promise<HomeInfo>;
  codexHome(): string;
  closed(): boolean;
}

/**
 * The home's index in the data folder (none when indexing is off): the handlers' access to it, and a refresh in the
 * background shortly after a change.
 */
function createIndexing(
  options: StudioServiceOptions,
  emitToListeners: (event: EventEnvelope) => void,
  log: (line: string) => void,
  home: IndexedHomeSource,
) {
  const indexer =
    options.indexing === false
      ? null
      : new IndexManager({
          dataDir: options.dataDir,
          scanOnPool: true,
          onStatus: (payload) => emitToListeners({ event: 'index.progress', payload }),
          log,
          open: { maxPages: options.indexMaxPages },
        });
  let refreshTimer: NodeJS.Timeout | undefined;
  // After the watcher saw a change: refresh in the background (on workers), so search is current when asked.
  const refreshSoon = () => {
    if (!indexer || home.closed()) return;
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(
      () =>
        void home
          .knownHome()
          .then((info) => indexer.fresh(info))
          .catch((error: unknown) => log(`[index] ${String(error)}`)),
      INDEX_REFRESH_DELAY_MS,
    );
    refreshTimer.unref();
  };
  const access: IndexAccess = {
    // Without a watcher nothing says a file changed: every request refreshes (a stat-only pass).
    fresh: async (opts = {}) => (indexer ? indexer.fresh(await home.knownHome(), options.watch === false ? {} : opts) : null),
    last: () => indexer?.last(home.codexHome()) ?? null,
    status: () =>
      indexer?.status() ?? { state: 'off', done: 0, total: 0, message: 'The index is not kept in this mode.', notice: null, path: null },
    cancel: () => indexer?.cancel(),
    resume: () => {
      indexer?.resume();
      refreshSoon();
    },
    path: () => (indexer && indexer.status().state !== 'off' ? indexPathFor(options.dataDir, home.codexHome()) : null),
  };
  return {
    access,
    /** A file or a root changed: the index is stale, and refreshed soon. */
    changed: () => {
      indexer?.markDirty();
      refreshSoon();
    },
    refreshSoon,
    dispose: () => {
      if (refreshTimer) clearTimeout(refreshTimer);
      indexer?.dispose();
    },
  };
}

/** Holds the current home, its cached inspection and its watcher; hands handlers what they share. */
function createContext(
  options: StudioServiceOptions,
  emitToListeners: (event: EventEnvelope) => void,
): HandlerContext & { choice(): HomeChoice; snapshot(): SnapshotState; dispose(): void } {
  const env = options.env ?? process.env;
  const demoDir = demoHomeDir(options.dataDir);
  const log = options.log ?? ((line: string) => console.error(line));
  let choice = options.home;
  let known: HomeInfo | undefined;
  let watcher: Disposable | undefined;
  let watchKey = '';
  let studio: StudioDb | undefined;
  let closed = false;
  // After dispose nothing may reopen the Studio DB (late watcher work would recreate files in a folder being removed).
  const studioDb = () => {
    if (closed) throw new StudioFailure('Cancelled', 'Memory Studio is closing; the change was not recorded.');
    return (studio ??= openStudioDb(options.dataDir));
  };
  const coordination = createCoordination();
  const external = createExternalHistory({ studioDb, ownWrites: coordination.ownWrites, log, startAfter: options.holdHistorySnapshot });
  const indexing = createIndexing(options, emitToListeners, log, {
    knownHome: () => knownHome(),
    codexHome: () => choice.codexHome,
    closed: () => closed,
  });
  const emit = (event: EventEnvelope) => {
    if (event.event === 'workspace.changed' || event.event === 'home.changed') indexing.changed();
    if (event.event === 'home.changed') known = undefined; // The watcher saw a root appear or vanish, or config change.
    // Both the watcher and our own Apply announce changes; external history tells Codex's from ours by content.
    if (event.event === 'workspace.changed' && options.watch !== false) void external.onChanged(event.payload.version, event.payload.paths);
    emitToListeners(event);
  };
  const home = async (): Promise<HomeInfo> => {
    const inspected = await inspectHome(choice, env, choice.source === 'demo' || choice.codexHome === demoDir);
    const left = options.home.codexHome !== inspected.codexHome && inspected.isDemo;
    const info: HomeInfo = { ...inspected, returnHome: left ? options.home.codexHome : null };
    const key = info.codexHome + JSON.stringify(info.roots.map((r) => r.exists));
    if (options.watch !== false && key !== watchKey) {
      watcher?.dispose();
      watcher = watchHome(info, emit);
      watchKey = key;
      // "Before" must be known when the first change arrives: snapshot the roots now (once per root, capped), on the
      // worker pool and without waiting for it: the first answer goes out from the listing (changes wait for it).
      void external.prime(info).catch((error: unknown) => log(`[external-history] snapshot failed: ${String(error)}`));
    }
    const first = known === undefined;
    known = info;
    if (first && options.watch !== false) indexing.refreshSoon(); // the first look at a home starts its index (cold builds run on workers)
    return info;
  };
  const knownHome = async () => (known?.codexHome === choice.codexHome ? known : home());
  return {
    home,
    knownHome,
    rootPath: async (version: MemoryVersion) => rootPathOf(await knownHome(), version),
    startHome: options.home,
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
    coordination,
    mcpLauncher: options.mcpLauncher ?? null,
    sharedLoop: options.sharedLoop ?? true,
    callerPaths: createCallerPaths(options.callerPaths ?? 'page', { 'import-source': options.importSources ?? [] }),
    index: indexing.access,
    choice: () => choice,
    snapshot: () => external.snapshot(),
    dispose: () => {
      closed = true;
      indexing.dispose();
      watcher?.dispose();
      external.dispose();
      studio?.close();
      studio = undefined;
    },
  };
}

/** The consolidation runs of a service: the settings and the API key are read when a run starts, not before. */
function runManagerFor(options: StudioServiceOptions, ctx: HandlerContext, env: NodeJS.ProcessEnv, secretStore: SecretStore | null) {
  return createRunManager({
    dataDir: options.dataDir,
    home: () => ctx.home(),
    studioDb: () => ctx.studioDb(),
    emit: (status) => ctx.emit({ event: 'consolidate.progress', payload: status }),
    settings: async () => (await loadEngineSettings(options.dataDir)).settings,
    engineOptions: {
      env,
      apiKey: async () =>
        (await resolveApiKey(options.dataDir, secretStore, (await loadEngineSettings(options.dataDir)).settings, env)).key,
      engines: options.engines,
    },
    holdForReview: options.holdConsolidationLease ?? true,
    coordination: ctx.coordination,
  });
}

/** Every channel's handler, each area's from its own module. */
function handlersFor(
  ctx: HandlerContext,
  options: StudioServiceOptions,
  deps: { runs: () => RunManager; secretStore: SecretStore | null; env: NodeJS.ProcessEnv },
): Handlers {
  const { runs, secretStore, env } = deps;
  return {
    ...appHandlers(ctx, options.trustedSettingsUi ?? null),
    ...homeHandlers(ctx),
    ...workspaceHandlers(ctx),
    ...searchHandlers(ctx, env),
    ...inspectHandlers(ctx),
    ...coverageHandlers(ctx),
    ...provenanceHandlers(ctx),
    ...reviewHandlers(ctx),
    ...historyHandlers(ctx),
    ...importHandlers(ctx, options.env),
    ...consolidateHandlers(ctx, { runs, secretStore, env, trustedUi: options.trustedSettingsUi ?? null }),
    ...doctorHandlers(ctx, { secretStore, env }),
    ...agentsHandlers(ctx, options.env),
    ...syncHandlers(ctx, options.env),
  };
}

/**
 * At the start of every Memory Studio process (CLI, serve, app): what a killed one left (Codex's lease still `running`
 * under its pid, temp files, a journal) is put right before the first request is answered. Checked once.
 */
function recoveryFor(ctx: HandlerContext, log: (line: string) => void): () => Promise<void> {
  let recovery: Promise<void> | undefined;
  return () =>
    (recovery ??= (async () => {
      const home = await ctx.knownHome();
      // An Apply finished here is this service's own write: the watcher, already running, must not call it external.
      const noteWrites = (files: Parameters<typeof ctx.coordination.ownWrites.note>[0]) => ctx.coordination.ownWrites.note(files);
      for (const line of await recoverAtStart(home, ctx.dataDir, { noteWrites })) log(`[start] ${line}`);
    })().catch((error: unknown) => log(`[start] ${error instanceof Error ? error.message : String(error)}`)));
}

/** A typed call (the CLI, tests): the input is checked against the contract, a failure is thrown. */
async function callChecked<C extends ChannelName>(
  handlers: Handlers,
  ready: () => Promise<void>,
  channel: C,
  input: ChannelInput<C>,
): Promise<ChannelOutput<C>> {
  await ready();
  const checked = channels[channel].input.safeParse(input);
  if (!checked.success) throw new StudioFailure('Invalid', invalidRequest(channel, checked.error.issues));
  const parsed = checked.data as ChannelInput<C>;
  return (handlers[channel] as (i: ChannelInput<C>) => Promise<ChannelOutput<C>>)(parsed);
}

/**
 * One request from a host, checked against the contract on the way in and out, answered as a Result. An unexpected
 * failure is logged under an operation id the answer quotes; no secret leaves in a message.
 */
async function dispatchChecked(
  handlers: Handlers,
  ready: () => Promise<void>,
  log: (line: string) => void,
  channel: string,
  input: unknown,
  request: RequestContext = {},
): Promise<Result<unknown>> {
  if (!isChannelName(channel)) {
    return { ok: false, error: { kind: 'Invalid', message: `Unknown channel "${channel}".` } };
  }
  const spec = channels[channel];
  const parsed = spec.input.safeParse(input);
  if (!parsed.success) return { ok: false, error: { kind: 'Invalid', message: invalidRequest(channel, parsed.error.issues) } };
  const opId = randomUUID().slice(0, 8);
  await ready();
  try {
    // A caller that already gave up gets Cancelled without the work being started.
    if (request.signal?.aborted) throw cancelledFailure(request.signal);
    const value = await (handlers[channel] as (i: unknown, r: RequestContext) => Promise<unknown>)(parsed.data, request);
    const checked = await checkOutput(spec.output, value, { signal: request.signal });
    if (!checked.success) {
      log(`[${opId}] ${channel}: output failed the contract: ${checked.message}`);
      return {
        ok: false,
        error: { kind: 'Internal', message: `Memory Studio produced an invalid answer for ${channel} (operation ${opId}).` },
      };
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
  checkDataDirPlacement(options.dataDir, options.home.codexHome);
  installTasks();
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
  const handlers = handlersFor(ctx, options, { runs, secretStore, env });
  const recoverOnce = recoveryFor(ctx, log);

  return {
    dispatch: (channel, input, request) => dispatchChecked(handlers, recoverOnce, log, channel, input, request),
    call: (channel, input) => callChecked(handlers, recoverOnce, channel, input),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentHome: () => ctx.choice(),
    consolidation: runs,
    historySnapshot: () => ctx.snapshot(),
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
