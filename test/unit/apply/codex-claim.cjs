// Test helper: claims Codex's global Phase 2 lease exactly as `try_claim_global_phase2_job` does, cooldown included.
const { randomUUID } = require('node:crypto');
const Database = require('better-sqlite3');

const COOLDOWN = 21600;

/** Returns { claimed, reason, token }; `lease` seconds from `now` (unix seconds). */
function codexClaim(dbPath, { now = Math.floor(Date.now() / 1000), lease = 3600, workerId = randomUUID() } = {}) {
  const db = new Database(dbPath, { timeout: 10000 });
  try {
    const token = randomUUID();
    return db
      .transaction(() => {
        const row = db
          .prepare(
            "SELECT status, lease_until, retry_at, input_watermark, finished_at, last_error FROM jobs WHERE kind = 'memory_consolidate_global' AND job_key = 'global'",
          )
          .get();
        if (!row) {
          db.prepare(
            `INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until, retry_at, retry_remaining, last_error, input_watermark, last_success_watermark)
          VALUES ('memory_consolidate_global', 'global', 'running', ?, ?, ?, NULL, ?, NULL, 3, NULL, 0, 0)`,
          ).run(workerId, token, now, now + lease);
          return { claimed: true, reason: 'inserted', token, workerId };
        }
        if (row.retry_at !== null && row.retry_at > now) return { claimed: false, reason: 'skipped_retry_unavailable' };
        if (row.status === 'running' && row.lease_until !== null && row.lease_until > now)
          return { claimed: false, reason: 'skipped_running' };
        if (row.last_error === null && row.finished_at !== null && row.finished_at > now - COOLDOWN)
          return { claimed: false, reason: 'skipped_cooldown' };
        const changes = db
          .prepare(
            `UPDATE jobs SET status = 'running', worker_id = @worker, ownership_token = @token, started_at = @now, finished_at = NULL,
          lease_until = @lease, retry_at = NULL, last_error = NULL
        WHERE kind = 'memory_consolidate_global' AND job_key = 'global'
          AND (retry_at IS NULL OR retry_at <= @now)
          AND NOT (status = 'running' AND lease_until IS NOT NULL AND lease_until > @now)
          AND NOT (last_error IS NULL AND finished_at IS NOT NULL AND finished_at > @now - ${COOLDOWN})`,
          )
          .run({ worker: workerId, token, now, lease: now + lease }).changes;
        return changes === 1 ? { claimed: true, reason: 'claimed', token, workerId } : { claimed: false, reason: 'race' };
      })
      .immediate();
  } finally {
    db.close();
  }
}

module.exports = { codexClaim };

if (require.main === module) {
  const [dbPath, workerId] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(codexClaim(dbPath, { workerId })) + '\n');
}
