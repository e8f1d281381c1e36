// The health report kept between runs: the same DB files, config and clock window give the same report, so a warm
// `inspect` answers it from the index instead of reading Codex's DBs again.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';
import type { HealthReport } from '../../../shared/health';
import { knownCodexDbFiles } from '../codex-schema';
import { MEMORY_DB_FILES, STATE_DB_FILE } from '../codex/constants';
import { readPipelineHealth, type HealthCache } from './health';
import { Horizon } from './horizon';
import { unusedCutoff, unusedCutoffTime } from './outputs';
import { nowSeconds, requiredTime } from './time';

interface Kept {
  /** The first second at which the report would read differently (null: never, for this content). */
  validUntil: number | null;
  report: HealthReport;
}

/** Everything the report reads besides the clock: each Codex DB file and its -wal, the SQLite folder's files, the config. */
function signatureOf(home: HomeInfo): string {
  const dbs = new Set([
    join(home.sqliteHome, STATE_DB_FILE),
    ...(['v1', 'v2'] as const).map((v) => home.roots.find((r) => r.version === v)?.dbPath ?? join(home.sqliteHome, MEMORY_DB_FILES[v])),
    // Codex's other files: the release report reads their migration records.
    ...knownCodexDbFiles().map((name) => join(home.sqliteHome, name)),
  ]);
  const files = [...dbs]
    .flatMap((db) => [db, `${db}-wal`])
    .map((p) => {
      const s = statSync(p, { throwIfNoEntry: false });
      return s ? `${p}:${s.size}:${s.mtimeMs}:${s.ino}` : `${p}:-`;
    });
  let names: string[] = [];
  try {
    names = readdirSync(home.sqliteHome)
      .filter((n) => n.endsWith('.sqlite'))
      .sort();
  } catch {
    names = [];
  }
  return JSON.stringify([
    files,
    names,
    home.codexHome,
    home.config.featureMemories,
    home.config.memories,
    home.roots.map((r) => [r.version, r.path, r.exists]),
  ]);
}

/** The kept report brought to `nowSec`: its own clock fields move, nothing else can have changed before validUntil. */
function atNow(kept: HealthReport, home: HomeInfo, nowSec: number, started: number): HealthReport {
  const cutoff = unusedCutoffTime(unusedCutoff(nowSec, home.config.memories));
  return {
    ...kept,
    now: requiredTime(nowSec),
    versions: kept.versions.map((v) => (v.outputs ? { ...v, outputs: { ...v.outputs, unusedCutoff: cutoff } } : v)),
    elapsedMs: Math.round((performance.now() - started) * 10) / 10,
  };
}

/** The health report, from the cache while nothing it depends on changed; read anew (and kept) otherwise. */
export async function readHealthKept(home: HomeInfo, cache: HealthCache, now?: Date): Promise<HealthReport> {
  const started = performance.now();
  const nowSec = nowSeconds(now);
  const signature = signatureOf(home);
  const hit = cache.get('health', signature) as Kept | undefined;
  if (hit && nowSec >= hit.report.now.seconds && nowSec < (hit.validUntil ?? Infinity)) return atNow(hit.report, home, nowSec, started);
  const horizon = new Horizon(nowSec);
  const report = await readPipelineHealth(home, { now, cache, horizon });
  // A problem (a locked DB) may be gone at the next look: such a report is not kept.
  if (report.problems.length === 0)
    cache.set('health', signature, { validUntil: Number.isFinite(horizon.next) ? horizon.next : null, report } satisfies Kept);
  return report;
}

/** Only the cache: the kept report at `now`, or null (the caller then reads the DBs, on a worker). */
export function keptHealth(home: HomeInfo, cache: HealthCache, now?: Date): HealthReport | null {
  const started = performance.now();
  const nowSec = nowSeconds(now);
  const hit = cache.get('health', signatureOf(home)) as Kept | undefined;
  return hit && nowSec >= hit.report.now.seconds && nowSec < (hit.validUntil ?? Infinity) ? atNow(hit.report, home, nowSec, started) : null;
}
