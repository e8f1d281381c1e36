// A fresh temporary folder for each test: a memory root `memories/` and the Studio DB of `data/`, closed and removed
// after it. The tests keep their own `dir`, `root` and `db`, set through `use`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openStudioDb, type StudioDb } from '../../../electron/core/studio-db';
import { makeTempDir } from '../helpers';

export interface ReviewDb {
  dir: string;
  root: string;
  db: StudioDb;
}

export function eachWithReviewDb(use: (t: ReviewDb) => void): void {
  let t: (ReviewDb & { cleanup: () => Promise<void> }) | null = null;
  beforeEach(async () => {
    const { dir, cleanup } = await makeTempDir();
    const root = join(dir, 'memories');
    mkdirSync(root);
    t = { dir, root, db: openStudioDb(join(dir, 'data')), cleanup };
    use(t);
  });
  afterEach(async () => {
    t?.db.close();
    await t?.cleanup();
    t = null;
  });
}

/** Writes `content` at `rel` under `root`, making its folders. */
export function putFile(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}
