// The demo Codex home under Memory Studio's data folder, generated on first use, shared by the CLI and the app.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HomeChoice } from '../codex/home';

export const DEMO_HOME_DIR = 'demo-home';
const DEMO_SEED = 42;

export function demoHomeDir(dataDir: string): string {
  return join(dataDir, DEMO_HOME_DIR);
}

/** The demo home (small, both versions, a fixed seed); `create` replaces the generator in tests. */
export async function ensureDemoHome(dataDir: string, create?: (dir: string) => Promise<void>): Promise<HomeChoice> {
  const dir = demoHomeDir(dataDir);
  if (!existsSync(join(dir, 'memory-studio-manifest.json'))) {
    if (create) await create(dir);
    else {
      // Loaded lazily: the generator pulls in better-sqlite3, which the read-only paths never need.
      const { generateHome } = await import('../demo-home/index.js');
      await generateHome({ dir, scale: 'small', version: 'both', seed: DEMO_SEED });
    }
  }
  return { codexHome: dir, source: 'demo' };
}
