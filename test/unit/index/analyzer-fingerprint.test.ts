// A rebuild of the app gives the analysis code new mtimes with the same bytes: the index is kept, without a notice.
// Only other bytes (a new rule) rebuild it. The fingerprint is taken of a copy of the code, so nothing tracked changes.
import Database from 'better-sqlite3';
import { appendFile, cp, readdir, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeInfo } from '../../../shared/domain';
import { inspectHome } from '../../../electron/core/codex/home';
import { IndexManager } from '../../../electron/core/index-store/manager';
import { indexPathFor } from '../../../electron/core/index-store/open-index';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

const repo = resolve(__dirname, '..', '..', '..');
const NOW = new Date('2026-11-20T12:00:00Z');
let tmp: { dir: string; cleanup: () => Promise<void> };
let home: HomeInfo;
let core: string;
const dataDir = () => join(tmp.dir, 'data');

beforeAll(async () => {
  tmp = await makeTempDir();
  const manifest = await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'v1', seed: 7, now: NOW });
  home = await inspectHome({ codexHome: manifest.codexHome, source: 'flag' });
  // The analysis code laid out as in the checkout: electron/core/<area>/ and shared/.
  core = join(tmp.dir, 'code', 'electron', 'core');
  for (const area of ['formats', 'lint', 'budget', 'index-store', 'sessions', 'inspect', 'codex'])
    await cp(join(repo, 'electron', 'core', area), join(core, area), { recursive: true });
  await cp(join(repo, 'shared'), join(tmp.dir, 'code', 'shared'), { recursive: true });
});
afterAll(() => tmp.cleanup());

/** Opens and refreshes the index against the copy of the code: the notice it gave. */
async function openAndRefresh(): Promise<string | null> {
  const manager = new IndexManager({ dataDir: dataDir(), scanOnPool: false, open: { analyzerCore: core } });
  try {
    expect(await manager.fresh(home)).not.toBeNull();
    return manager.status().notice;
  } finally {
    manager.dispose();
  }
}

/** Reads or changes the index file directly. */
function withIndex<T>(read: (db: Database.Database) => T): T {
  const db = new Database(indexPathFor(dataDir(), home.codexHome));
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const marker = () => withIndex((db) => db.prepare("SELECT value FROM meta WHERE key = 'test_marker'").pluck().get());
const fileRows = () => withIndex((db) => Number(db.prepare('SELECT count(*) FROM files').pluck().get()));

async function firstSource(area: string): Promise<string> {
  const name = (await readdir(join(core, area))).sort().find((n) => n.endsWith('.ts'));
  return join(core, area, name as string);
}

describe('the index and the analysis code it was built by', () => {
  it('new mtimes keep the index; new bytes rebuild it with the notice', async () => {
    expect(await openAndRefresh()).toBeNull();
    const rows = fileRows();
    expect(rows).toBeGreaterThan(5);
    // A mark only this build of the index has: gone when it is rebuilt.
    withIndex((db) => db.prepare("INSERT INTO meta (key, value) VALUES ('test_marker', 'kept')").run());
    const stat = () => withIndex((db) => db.prepare("SELECT value FROM meta WHERE key = 'analyzer'").pluck().get());
    const before = stat();

    // `npm run build`: the same bytes, new mtimes (a parser and a shared module).
    const later = new Date('2030-01-02T03:04:05Z');
    for (const file of [await firstSource('formats'), join(core, '..', '..', 'shared', 'domain.ts')]) await utimes(file, later, later);
    expect(await openAndRefresh()).toBeNull();
    expect(marker()).toBe('kept');
    expect(fileRows()).toBe(rows);
    // The new stat fingerprint is stored: the next open compares stats only.
    expect(stat()).not.toBe(before);
    expect(await openAndRefresh()).toBeNull();

    // Other bytes: other analysis, every file indexed again.
    await appendFile(await firstSource('lint'), '\n// a new rule\n');
    expect(await openAndRefresh()).toMatch(/^Memory Studio changed how it reads memory files since the index was built/);
    expect(marker()).toBeUndefined();
    expect(fileRows()).toBe(rows);
  });

  it('an index from before the content fingerprint is rebuilt once when the code changed', async () => {
    expect(await openAndRefresh()).toBeNull();
    withIndex((db) => {
      db.prepare("DELETE FROM meta WHERE key = 'analyzer_content'").run();
      db.prepare("UPDATE meta SET value = 'an older build' WHERE key = 'analyzer'").run();
    });
    expect(await openAndRefresh()).toMatch(/^Memory Studio changed how it reads memory files/);
    // Rebuilt with both fingerprints: the next rebuild of the app keeps it.
    const content = withIndex((db) => db.prepare("SELECT value FROM meta WHERE key = 'analyzer_content'").pluck().get());
    expect(content).toMatch(/^[0-9a-f]{32}$/);
    expect(await openAndRefresh()).toBeNull();
  });

  it("a rebuild that changed code the analysers import from elsewhere, or the secret rules' JSON, rebuilds it", async () => {
    expect(await openAndRefresh()).toBeNull();
    const later = (n: number) => new Date(Date.UTC(2031, 0, n));
    // A rebuild: every analyser gets new mtimes; the bytes that changed are outside their folders.
    const rebuild = async (n: number) => {
      for (const area of ['formats', 'lint']) await utimes(await firstSource(area), later(n), later(n));
    };
    await appendFile(join(core, 'codex', 'summary-head.ts'), '\n// the head is cut elsewhere now\n');
    await rebuild(1);
    expect(await openAndRefresh()).toMatch(/^Memory Studio changed how it reads memory files/);
    expect(await openAndRefresh()).toBeNull();
    await appendFile(join(core, 'lint', 'rules', 'gitleaks-rules.json'), ' ');
    await rebuild(2);
    expect(await openAndRefresh()).toMatch(/^Memory Studio changed how it reads memory files/);
  });
});
