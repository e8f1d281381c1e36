// Generated Codex homes for the codex-db and sessions tests: real folders, real SQLite, removed after the run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectHome } from '../../../electron/core/codex/home';
import type { HomeInfo } from '../../../shared/domain';
import { generateHome, type DemoScale, type DemoVersion, type HomeManifest } from '../../fixtures';

/** The generator's clock for every test home, so times in assertions are stable. */
export const FIXTURE_NOW = new Date('2026-03-05T12:00:00Z');

export interface TestHome {
  dir: string;
  manifest: HomeManifest;
  home: HomeInfo;
  /** Re-inspect after changing files (roots, DB existence). */
  reload: () => Promise<HomeInfo>;
}

const temps: string[] = [];

export async function tempDir(prefix = 'codex-db-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** Inspect a folder as a Codex home, ignoring the machine's CODEX_SQLITE_HOME. */
export function inspect(dir: string): Promise<HomeInfo> {
  return inspectHome({ codexHome: dir, source: 'flag' }, {});
}

export async function makeHome(options: { scale?: DemoScale; version?: DemoVersion; seed?: number } = {}): Promise<TestHome> {
  const dir = join(await tempDir(), 'home');
  const manifest = await generateHome({
    dir,
    scale: options.scale ?? 'small',
    version: options.version ?? 'both',
    seed: options.seed,
    now: FIXTURE_NOW,
    git: false,
  });
  const home = await inspect(dir);
  return { dir, manifest, home, reload: () => inspect(dir) };
}

export async function cleanupHomes(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}
