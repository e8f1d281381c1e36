// Temporary folders for tests: real directories under the OS temp folder, removed afterwards.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStudioService, type StudioService } from '../../electron/core/service/service';
import { generateHome, type GenerateOptions, type HomeManifest } from '../fixtures';
import { turnClock, type TurnClock } from '../../electron/core/platform/turn-clock';

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'memory-studio-test-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

export async function makeTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'memory-studio-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }) };
}

/** A generated Codex home in a temp folder with a core service on it; `dispose` stops the service and removes both. */
export interface GeneratedHomeService {
  dir: string;
  manifest: HomeManifest;
  service: StudioService;
  /** The v1 root (`<home>/memories`). */
  root: string;
  dispose(): Promise<void>;
}

export async function openGeneratedHome(
  options: Omit<GenerateOptions, 'dir'>,
  service: { watch?: boolean; callerPaths?: 'person' | 'page' } = {},
): Promise<GeneratedHomeService> {
  const temp = await makeTempDir();
  const manifest = await generateHome({ ...options, dir: join(temp.dir, 'home') });
  const studio = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir: join(temp.dir, 'data'),
    host: 'serve',
    appVersion: 'test',
    watch: service.watch ?? false,
    callerPaths: service.callerPaths,
    log: () => undefined,
  });
  return {
    dir: temp.dir,
    manifest,
    service: studio,
    root: join(manifest.codexHome, 'memories'),
    async dispose() {
      studio.dispose();
      await temp.cleanup();
    },
  };
}

/**
 * The hang guard of a FIFO test. A blocking open of a FIFO waits for a writer, and a synchronous one stops the test's
 * thread, so no timer in it could fire: a separate process opens `fifo` for writing after `ms` instead. That frees a
 * reader stuck in the open (it then reads an empty file, which fails the test's assertions, not its timeout); the
 * returned function kills the process unused when the code under test never waited.
 */
export function releaseFifoAfter(fifo: string, ms: number): () => void {
  const script = `setTimeout(() => require('node:fs').closeSync(require('node:fs').openSync(process.argv[1], 'w')), ${ms});`;
  const watchdog = spawn(process.execPath, ['-e', script, fifo], { stdio: 'ignore' });
  return () => watchdog.kill();
}

/**
 * Waits until `check` holds, polling; past `ms` it fails the test naming `what` (a hang, never a timing: the guard is
 * generous so a busy machine passes). The one waiting helper of the unit tests.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A turn clock that is always due (a turn before every item), counting its turns: work cut into turns is cut everywhere. */
export function everyItemClock(): TurnClock & { turns: number } {
  const inner = turnClock(0);
  const clock = {
    turns: 0,
    due: () => true,
    turn: async () => {
      clock.turns++;
      await inner.turn();
    },
  };
  return clock;
}
