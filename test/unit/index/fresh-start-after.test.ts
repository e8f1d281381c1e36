// A manager shared by the app and its keeper: a command's refresh must begin after the change its client made just
// before, even when another refresh (the app's own) is already running and may have walked past that file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HomeInfo } from '../../../shared/domain';
import { inspectHome } from '../../../electron/core/codex/home';
import type { IndexedHome } from '../../../electron/core/index-store/indexed-home';
import { IndexManager } from '../../../electron/core/index-store/manager';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

let tmp: { dir: string; cleanup: () => Promise<void> };
let home: HomeInfo;

beforeAll(async () => {
  tmp = await makeTempDir();
  const manifest = await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'both', seed: 5, now: new Date() });
  home = await inspectHome({ codexHome: manifest.codexHome, source: 'flag' });
});
afterAll(() => tmp.cleanup());

const listed = (indexed: IndexedHome | null, path: string) => indexed?.roots.get('v2')?.list.files.some((f) => f.path === path) ?? false;

it('joins a running refresh by default, and with startAfter waits for it and refreshes again', async () => {
  const manager = new IndexManager({ dataDir: join(tmp.dir, 'data'), scanOnPool: false });
  try {
    await manager.fresh(home); // built
    const running = manager.fresh(home); // the app's refresh, under way
    const joined = manager.fresh(home); // concurrent callers share one refresh
    // The client's change, then its command: made while that refresh runs (its walk may be past the folder already).
    writeFileSync(join(home.codexHome, 'memories_v2', 'extensions', 'late-note.md'), 'Late note.\n');
    manager.markDirty();
    const after = manager.fresh(home, { startAfter: true });
    // The running refresh had walked the roots before the note was written: joining it misses the note.
    expect(listed(await running, 'extensions/late-note.md')).toBe(false);
    expect(listed(await joined, 'extensions/late-note.md')).toBe(false);
    expect(listed(await after, 'extensions/late-note.md')).toBe(true);
  } finally {
    manager.dispose();
  }
});
