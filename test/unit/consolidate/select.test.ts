// Codex's Phase 2 input selection on real SQLite: filters, ranking ties, enabled threads only, the limit and the order.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { comparePhase2Rank, selectPhase2Inputs } from '../../../electron/core/consolidate/select';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import { cleanupTemps, DAY, generatedHome, handMadeHome, inspect, NOW_SEC, tid } from './fixture';

afterEach(cleanupTemps);

const ids = (rows: Array<{ threadId: string }>) => rows.map((r) => r.threadId);

describe('selectPhase2Inputs', () => {
  it('keeps non-blank rows used or updated within max_unused_days; a NULL last_usage falls back to source_updated_at', async () => {
    const { home } = await handMadeHome([
      { threadId: tid(1), sourceUpdatedAt: NOW_SEC - 5 * DAY }, // fresh, never used
      { threadId: tid(2), sourceUpdatedAt: NOW_SEC - 40 * DAY }, // stale, never used
      { threadId: tid(3), sourceUpdatedAt: NOW_SEC - 40 * DAY, lastUsage: NOW_SEC - DAY, usageCount: 1 }, // old but used lately
      { threadId: tid(4), sourceUpdatedAt: NOW_SEC - DAY, lastUsage: NOW_SEC - 31 * DAY, usageCount: 2 }, // used long ago: last_usage wins
      { threadId: tid(5), sourceUpdatedAt: NOW_SEC - 30 * DAY }, // exactly at the cutoff: kept (>=)
      { threadId: tid(6), sourceUpdatedAt: NOW_SEC, rawMemory: '   ', rolloutSummary: '' }, // blank
      { threadId: tid(7), sourceUpdatedAt: NOW_SEC, rawMemory: '', rolloutSummary: 'only a summary' }, // one side is enough
    ]);
    const s = await selectPhase2Inputs(home, 'v1', NOW_SEC);
    expect(ids(s.rows)).toEqual([tid(1), tid(3), tid(5), tid(7)]);
    expect(s.eligible).toBe(4);
    expect(s.excludedNotEnabled).toBe(0);
    expect(s.maxUnusedDays).toBe(30);
    expect(s.limit).toBe(256);
    expect(s.notes).toEqual([]);
  });

  it('ranks by usage_count (NULL as 0), recency, source_updated_at, then thread_id DESC, takes the limit and returns thread_id ASC', async () => {
    const t = NOW_SEC - DAY;
    const rows = [
      { threadId: tid(1), sourceUpdatedAt: t, usageCount: null }, // 0 uses
      { threadId: tid(2), sourceUpdatedAt: t, usageCount: 0 }, // 0 uses, ties with 1 on everything but the id
      { threadId: tid(3), sourceUpdatedAt: t - 100, usageCount: 5, lastUsage: t - 50 },
      { threadId: tid(4), sourceUpdatedAt: t - 200, usageCount: 5, lastUsage: t - 10 }, // same uses as 3, used more recently
      { threadId: tid(5), sourceUpdatedAt: t - 300, usageCount: 5, lastUsage: t - 10 }, // ties 4 on recency; older source
      { threadId: tid(6), sourceUpdatedAt: t - 5, usageCount: null, lastUsage: null },
    ];
    const { home } = await handMadeHome(rows, 'max_raw_memories_for_consolidation = 4\n');
    const s = await selectPhase2Inputs(home, 'v1', NOW_SEC);
    // Rank: 4, 5, 3 (usage 5), then 2 before 1 (thread_id DESC on a full tie), then 6 (older).
    expect(s.limit).toBe(4);
    expect(s.eligible).toBe(6);
    expect(ids(s.rows)).toEqual([tid(2), tid(3), tid(4), tid(5)]);
    const ranked = rows
      .map((r) => ({
        threadId: r.threadId,
        sourceUpdatedAt: r.sourceUpdatedAt,
        usageCount: r.usageCount ?? null,
        lastUsage: r.lastUsage ?? null,
      }))
      .sort(comparePhase2Rank);
    expect(ids(ranked)).toEqual([tid(4), tid(5), tid(3), tid(2), tid(1), tid(6)]);
  });

  it('counts only enabled threads: disabled, polluted and unknown threads are excluded and counted', async () => {
    const { home } = await handMadeHome([
      { threadId: tid(1), sourceUpdatedAt: NOW_SEC - DAY, cwd: '/src/a', gitBranch: 'main' },
      { threadId: tid(2), sourceUpdatedAt: NOW_SEC - DAY, mode: 'disabled' },
      { threadId: tid(3), sourceUpdatedAt: NOW_SEC - DAY, mode: 'polluted' },
      { threadId: tid(4), sourceUpdatedAt: NOW_SEC - DAY, mode: null },
      { threadId: tid(5), sourceUpdatedAt: NOW_SEC - 90 * DAY, mode: 'disabled' }, // stale anyway: not counted
    ]);
    const s = await selectPhase2Inputs(home, 'v1', NOW_SEC);
    expect(ids(s.rows)).toEqual([tid(1)]);
    expect(s.excludedNotEnabled).toBe(3);
    expect(s.rows[0]).toMatchObject({
      cwd: '/src/a',
      gitBranch: 'main',
      rolloutPath: `/h/sessions/rollout-${tid(1)}.jsonl`,
      rawMemory: `raw ${tid(1)}`,
      selectedForPhase2: false,
    });
  });

  it('computes new_watermark as max(global input_watermark, newest selected source_updated_at)', async () => {
    const { home, memoryDb } = await handMadeHome([
      { threadId: tid(1), sourceUpdatedAt: NOW_SEC - 2 * DAY },
      { threadId: tid(2), sourceUpdatedAt: NOW_SEC - DAY },
    ]);
    expect((await selectPhase2Inputs(home, 'v1', NOW_SEC)).newWatermark).toBe(NOW_SEC - DAY);
    const db = openSqlite(memoryDb);
    db.prepare(
      `INSERT INTO jobs (kind, job_key, status, retry_remaining, input_watermark) VALUES ('memory_consolidate_global', 'global', 'pending', 3, ?)`,
    ).run(NOW_SEC + 7);
    db.close();
    expect((await selectPhase2Inputs(home, 'v1', NOW_SEC)).newWatermark).toBe(NOW_SEC + 7);
  });

  it('gives an empty selection with a note when the memory DB is missing or corrupt, or the catalog is missing', async () => {
    const { dir, memoryDb } = await handMadeHome([{ threadId: tid(1), sourceUpdatedAt: NOW_SEC }]);
    await rm(memoryDb);
    let s = await selectPhase2Inputs(await inspect(dir), 'v1', NOW_SEC);
    expect(s.rows).toEqual([]);
    expect(s.notes.join(' ')).toMatch(/does not exist/);
    await writeFile(memoryDb, Buffer.alloc(4096, 7));
    s = await selectPhase2Inputs(await inspect(dir), 'v1', NOW_SEC);
    expect(s.rows).toEqual([]);
    expect(s.notes.join(' ')).toMatch(/not a SQLite database/);

    const other = await handMadeHome([{ threadId: tid(1), sourceUpdatedAt: NOW_SEC }]);
    await rm(join(other.dir, 'state_5.sqlite'));
    s = await selectPhase2Inputs(await inspect(other.dir), 'v1', NOW_SEC);
    expect(s.rows).toEqual([]);
    expect(s.notes.join(' ')).toMatch(/thread catalog/);
  });

  it('matches the generated home: each selected row has its thread data, never a disabled thread', async () => {
    const { home, manifest } = await generatedHome('v1', false);
    const s = await selectPhase2Inputs(home, 'v1', NOW_SEC);
    expect(s.rows.length).toBeGreaterThan(0);
    expect(s.rows.length).toBeLessThanOrEqual(manifest.db.stage1Rows);
    expect(ids(s.rows)).toEqual(ids(s.rows).slice().sort());
    for (const r of s.rows) expect(r.rolloutPath).toMatch(/\.jsonl$/);
  });
});
