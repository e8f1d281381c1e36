// The core service behind every host: one handler per contract channel, dispatch with validation, and events.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { channels, isChannelName, type ChannelInput, type ChannelName, type ChannelOutput, type EventEnvelope } from '../../shared/contract';
import type { HomeInfo, MemoryVersion } from '../../shared/domain';
import type { Result } from '../../shared/result';
import { StudioFailure, toStudioError } from './errors';
import { inspectHome, type HomeChoice } from './home';
import { watchHome, type Disposable } from './watcher';
import { DEFAULT_READ_CAP_BYTES, listMemoryRoot, readMemoryFile } from './workspace';

export interface StudioServiceOptions {
  home: HomeChoice;
  dataDir: string;
  host: 'electron' | 'serve';
  appVersion: string;
  env?: NodeJS.ProcessEnv;
  readCapBytes?: number;
  /** Builds the demo home; injected so hosts that cannot load SQLite natively can swap it. */
  createDemoHome?: (dir: string) => Promise<void>;
  /** Watch the home for external changes (off in short-lived CLI runs). */
  watch?: boolean;
  log?: (line: string) => void;
}

type Handlers = { [C in ChannelName]: (input: ChannelInput<C>) => Promise<ChannelOutput<C>> };

export interface StudioService {
  dispatch(channel: string, input: unknown): Promise<Result<unknown>>;
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>;
  onEvent(listener: (event: EventEnvelope) => void): () => void;
  currentHome(): HomeChoice;
  dispose(): void;
}

export const DEMO_HOME_DIR = 'demo-home';
const DEMO_SEED = 42;

/** The demo home under the data folder, generated on first use (small, both versions, a fixed seed). */
export async function ensureDemoHome(dataDir: string, create?: (dir: string) => Promise<void>): Promise<HomeChoice> {
  const dir = join(dataDir, DEMO_HOME_DIR);
  if (!existsSync(join(dir, 'memory-studio-manifest.json'))) {
    if (create) await create(dir);
    else {
      // Loaded lazily: the generator pulls in better-sqlite3, which the read-only paths never need.
      const { generateHome } = await import('./demo-home/index.js');
      await generateHome({ dir, scale: 'small', version: 'both', seed: DEMO_SEED });
    }
  }
  return { codexHome: dir, source: 'demo' };
}

export function createStudioService(options: StudioServiceOptions): StudioService {
  const env = options.env ?? process.env;
  const readCap = options.readCapBytes ?? DEFAULT_READ_CAP_BYTES;
  const listeners = new Set<(event: EventEnvelope) => void>();
  const log = options.log ?? ((line: string) => console.error(line));
  const demoDir = join(options.dataDir, DEMO_HOME_DIR);
  let choice = options.home;
  let watcher: Disposable | undefined;
  let watchedHome = '';

  /** The last inspection, reused by file requests; dropped when the watcher sees the home change. */
  let known: HomeInfo | undefined;
  const emit = (event: EventEnvelope) => {
    if (event.event === 'home.changed') known = undefined;
    for (const listener of listeners) listener(event);
  };
  const isDemo = () => choice.source === 'demo' || choice.codexHome === demoDir;

  /** Inspects the home afresh and (re)starts the watcher when the set of roots changed. */
  const home = async (): Promise<HomeInfo> => {
    const info = await inspectHome(choice, env, isDemo());
    const watchKey = info.codexHome + JSON.stringify(info.roots.map((r) => r.exists));
    if (options.watch !== false && watchedHome !== watchKey) {
      watcher?.dispose();
      watcher = watchHome(info, emit);
      watchedHome = watchKey;
    }
    known = info;
    return info;
  };

  const rootPath = async (version: MemoryVersion): Promise<string> => {
    const info = known?.codexHome === choice.codexHome ? known : await home();
    const root = info.roots.find((r) => r.version === version);
    if (!root || !root.exists) {
      throw new StudioFailure('NotFound', `${info.codexHome} has no ${version} memory folder.`, { path: root?.path, hint: 'Pick another Codex home, or open the demo.' });
    }
    return root.path;
  };

  const handlers: Handlers = {
    'app.info': async () => ({
      name: 'Memory Studio',
      version: options.appVersion,
      host: options.host,
      dataDir: options.dataDir,
      platform: process.platform,
      readCapBytes: readCap,
    }),
    'home.get': () => home(),
    'home.openDemo': async () => {
      choice = await ensureDemoHome(options.dataDir, options.createDemoHome);
      const info = await home();
      emit({ event: 'home.changed', payload: { codexHome: info.codexHome } });
      return info;
    },
    'workspace.list': async ({ version }) => listMemoryRoot(await rootPath(version), version),
    'workspace.read': async ({ version, path }) => readMemoryFile(await rootPath(version), version, path, readCap),
  };

  const call = async <C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> => {
    const parsed = channels[channel].input.parse(input) as ChannelInput<C>;
    return (handlers[channel] as (i: ChannelInput<C>) => Promise<ChannelOutput<C>>)(parsed);
  };

  const dispatch = async (channel: string, input: unknown): Promise<Result<unknown>> => {
    if (!isChannelName(channel)) {
      return { ok: false, error: { kind: 'Invalid', message: `Unknown channel "${channel}".` } };
    }
    const spec = channels[channel];
    const parsed = spec.input.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
      return { ok: false, error: { kind: 'Invalid', message: `Invalid request for ${channel}: ${issues}.` } };
    }
    const opId = randomUUID().slice(0, 8);
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
      if (studioError.kind === 'Internal') log(`[${opId}] ${channel}: ${error instanceof Error ? error.stack : String(error)}`);
      return { ok: false, error: studioError };
    }
  };

  return {
    dispatch,
    call,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentHome: () => choice,
    dispose() {
      watcher?.dispose();
      listeners.clear();
    },
  };
}
