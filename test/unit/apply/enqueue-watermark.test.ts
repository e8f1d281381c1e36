// Leaving the global row pending as Codex's enqueue_global_consolidation(now) does: input_watermark = now, or prev + 1.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { restoreLeaseRow, type LeaseRowState } from '../../../electron/core/lease/lease-row';

const NOW = 1_780_000_000;

function db(): Database.Database {
  const d = new Database(':memory:');
  d.exec(`CREATE TABLE jobs (kind TEXT NOT NULL, job_key TEXT NOT NULL, status TEXT NOT NULL, worker_id TEXT, ownership_token TEXT,
    started_at INTEGER, finished_at INTEGER, lease_until INTEGER, retry_at INTEGER, retry_remaining INTEGER NOT NULL, last_error TEXT,
    input_watermark INTEGER, last_success_watermark INTEGER, PRIMARY KEY (kind, job_key))`);
  // Our claim: the row is running under our token.
  d.prepare(
    `INSERT INTO jobs VALUES ('memory_consolidate_global', 'global', 'running', 'memory-studio:1', 'tok', ${NOW}, NULL, ${NOW + 60}, NULL, 3, NULL, NULL, NULL)`,
  ).run();
  return d;
}

const previous = (input_watermark: number | null): LeaseRowState => ({
  status: 'done',
  worker_id: null,
  ownership_token: null,
  started_at: NOW - 100,
  finished_at: NOW - 50,
  lease_until: null,
  retry_at: null,
  retry_remaining: 1,
  last_error: null,
  input_watermark,
});

const watermark = (d: Database.Database) =>
  (d.prepare('SELECT input_watermark FROM jobs').get() as { input_watermark: number }).input_watermark;

describe('enqueue watermark', () => {
  it('is now (unix seconds) for a row that did not exist before our claim', () => {
    const d = db();
    expect(restoreLeaseRow(d, 'tok', null, true, NOW)).toBe(true);
    expect(d.prepare('SELECT status, retry_remaining, input_watermark FROM jobs').get()).toEqual({
      status: 'pending',
      retry_remaining: 3,
      input_watermark: NOW,
    });
  });

  it('is now when now is past the previous watermark, else the previous one + 1', () => {
    const older = db();
    restoreLeaseRow(older, 'tok', previous(41), true, NOW);
    expect(watermark(older)).toBe(NOW);
    const none = db();
    restoreLeaseRow(none, 'tok', previous(null), true, NOW);
    expect(watermark(none)).toBe(NOW);
    const ahead = db();
    restoreLeaseRow(ahead, 'tok', previous(NOW + 500), true, NOW);
    expect(watermark(ahead)).toBe(NOW + 501);
  });

  it('is left as it was when nothing changed', () => {
    const d = db();
    restoreLeaseRow(d, 'tok', previous(41), false, NOW);
    expect(watermark(d)).toBe(41);
  });
});
