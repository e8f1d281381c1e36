// The kept health report: at any moment it answers exactly what reading Codex's DBs answers then, and it is read
// again when its time window ends or a DB file changes.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeInfo } from '../../../shared/domain';
import type { HealthReport } from '../../../shared/health';
import { readPipelineHealth, type HealthCache } from '../../../electron/core/codex-db/health';
import { readHealthKept } from '../../../electron/core/codex-db/health-memo';
import { inspectHome } from '../../../electron/core/codex/home';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

const T0 = new Date('2026-11-20T12:00:00Z');
let tmp: { dir: string; cleanup: () => Promise<void> };
let home: HomeInfo;

/** A cache in memory that counts its writes (a write means the DBs were read again). */
function memoryCache(): HealthCache & { writes: number; kept(): { validUntil: number | null } } {
  const store = new Map<string, { signature: string; value: unknown }>();
  return {
    writes: 0,
    get: (key, signature) => (store.get(key)?.signature === signature ? structuredClone(store.get(key)?.value) : undefined),
    set(key, signature, value) {
      if (key === 'health') this.writes++;
      store.set(key, { signature, value: structuredClone(value) });
    },
    kept: () => store.get('health')?.value as { validUntil: number | null },
  };
}

const withoutTiming = (r: HealthReport) => ({ ...r, elapsedMs: 0 });

beforeAll(async () => {
  tmp = await makeTempDir();
  const manifest = await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'both', seed: 21, now: T0 });
  home = await inspectHome({ codexHome: manifest.codexHome, source: 'flag' });
});
afterAll(() => tmp.cleanup());

describe('readHealthKept', () => {
  it('answers what a fresh read answers, at every moment, reading again only when its window ends', async () => {
    const cache = memoryCache();
    const moments = [0, 1, 60, 3_600, 6 * 3_600, 86_400, 7 * 86_400, 31 * 86_400, 200 * 86_400].map(
      (s) => new Date(T0.getTime() + s * 1000),
    );
    for (const now of moments) {
      const kept = await readHealthKept(home, cache, now);
      expect(withoutTiming(kept), now.toISOString()).toEqual(withoutTiming(await readPipelineHealth(home, { now })));
    }
    expect(cache.writes).toBeGreaterThan(1); // the generated home's leases, retries and age windows end along the way
    expect(cache.writes).toBeLessThan(moments.length + 1);
    const before = cache.writes;
    await readHealthKept(home, cache, moments[moments.length - 1]);
    expect(cache.writes).toBe(before); // the same moment again: kept
  });

  it('reads again at the first second its answer changes, and after a DB file changed', async () => {
    const cache = memoryCache();
    await readHealthKept(home, cache, T0);
    const until = cache.kept().validUntil;
    expect(until).not.toBeNull();
    const edge = new Date((until as number) * 1000);
    const writes = cache.writes;
    expect(withoutTiming(await readHealthKept(home, cache, edge))).toEqual(withoutTiming(await readPipelineHealth(home, { now: edge })));
    expect(cache.writes).toBe(writes + 1);

    const db = new Database(join(home.sqliteHome, 'memories_1.sqlite'));
    db.prepare(
      "UPDATE jobs SET last_error = 'boom' WHERE kind = 'memory_stage1' AND rowid = (SELECT min(rowid) FROM jobs WHERE kind = 'memory_stage1')",
    ).run();
    db.close();
    const changed = await readHealthKept(home, cache, edge);
    expect(cache.writes).toBe(writes + 2);
    expect(withoutTiming(changed)).toEqual(withoutTiming(await readPipelineHealth(home, { now: edge })));
  });
});
