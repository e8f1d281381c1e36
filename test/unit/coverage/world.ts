// Codex homes for the coverage ledger's tests: real SQLite files with Codex's captured schema, one thread per situation
// the ledger tells apart, a v2 memory root naming some of them, and direct SQL that counts the stages on the same files.
import Database from 'better-sqlite3';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inspectHome } from '../../../electron/core/codex/home';
import { createCodexSchema } from '../../../electron/core/codex-schema';
import { rolloutSummaryStem } from '../../../electron/core/formats/phase2-files';
import type { HomeInfo } from '../../../shared/domain';
import { makeTempDir } from '../helpers';

export const HOUR = 3_600;
export const DAY = 86_400;

export interface ThreadSpec {
  id: string;
  source?: string;
  memoryMode?: string;
  archived?: boolean;
  /** Seconds; `'garbage'` stores a value that is no time at all. */
  updatedAt: number | 'garbage';
  preview?: string;
  cwd?: string;
  title?: string;
}

export interface OutputSpec {
  threadId: string;
  sourceUpdatedAt: number;
  selected?: boolean;
  slug?: string | null;
  usageCount?: number | null;
  lastUsage?: number | null;
}

export interface JobSpec {
  kind?: string;
  key: string;
  status: string;
  startedAt?: number | null;
  finishedAt?: number | null;
  leaseUntil?: number | null;
  retryAt?: number | null;
  retryRemaining?: number | null;
  lastError?: string | null;
  inputWatermark?: number | null;
  lastSuccessWatermark?: number | null;
}

export interface World {
  dir: string;
  home: HomeInfo;
  stateDb: string;
  memoryDb: string;
  root: string;
  now: number;
  cleanup: () => Promise<void>;
}

/** A version-7 thread id whose time is `ms` (so Codex's summary stem is derived from it) and whose tail is `n`. */
export function threadId(n: number, ms = 1_790_000_000_000 + n * 1000): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-${n.toString(16).padStart(12, '0')}`;
}

export function stemOf(o: OutputSpec): string {
  return rolloutSummaryStem(o.threadId, o.sourceUpdatedAt, o.slug ?? null);
}

function insertThreads(db: Database.Database, threads: readonly ThreadSpec[], codexHome: string): void {
  const insert = db.prepare(`INSERT INTO threads (id, rollout_path, created_at, updated_at, updated_at_ms, source, model_provider,
    cwd, title, sandbox_policy, approval_mode, has_user_event, archived, archived_at, memory_mode, first_user_message, preview)
    VALUES (@id, @path, @created, @updated, @updatedMs, @source, 'openai', @cwd, @title, 'workspace-write', 'on-request', 1,
    @archived, @archivedAt, @mode, @preview, @preview)`);
  for (const t of threads) {
    const garbage = t.updatedAt === 'garbage';
    const updated = garbage ? 'garbage' : t.updatedAt;
    insert.run({
      id: t.id,
      path: join(codexHome, 'sessions', `rollout-${t.id}.jsonl`),
      created: garbage ? 0 : (t.updatedAt as number) - HOUR,
      updated,
      updatedMs: garbage ? null : (t.updatedAt as number) * 1000 + 250,
      source: t.source ?? 'cli',
      cwd: t.cwd ?? '/home/dana/src/app',
      title: t.title ?? `Session ${t.id.slice(-4)}`,
      archived: t.archived ? 1 : 0,
      archivedAt: t.archived && !garbage ? (t.updatedAt as number) + HOUR : null,
      mode: t.memoryMode ?? 'enabled',
      preview: t.preview ?? `Fix the thing in ${t.id.slice(-4)}`,
    });
    // Codex's insert trigger derives updated_at_ms from updated_at: a row with no usable time has neither.
    if (garbage) db.prepare('UPDATE threads SET updated_at_ms = NULL WHERE id = ?').run(t.id);
  }
}

function insertMemory(db: Database.Database, outputs: readonly OutputSpec[], jobs: readonly JobSpec[]): void {
  const output = db.prepare(`INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory, rollout_summary, rollout_slug,
    generated_at, usage_count, last_usage, selected_for_phase2, selected_for_phase2_source_updated_at)
    VALUES (?, ?, 'raw memory', 'summary', ?, ?, ?, ?, ?, ?)`);
  for (const o of outputs)
    output.run(
      o.threadId,
      o.sourceUpdatedAt,
      o.slug ?? null,
      o.sourceUpdatedAt + HOUR,
      o.usageCount ?? null,
      o.lastUsage ?? null,
      o.selected ? 1 : 0,
      o.selected ? o.sourceUpdatedAt : null,
    );
  const job = db.prepare(`INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until,
    retry_at, retry_remaining, last_error, input_watermark, last_success_watermark) VALUES (?, ?, ?, 'worker-1', 'token', ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const j of jobs)
    job.run(
      j.kind ?? 'memory_stage1',
      j.key,
      j.status,
      j.startedAt ?? null,
      j.finishedAt ?? null,
      j.leaseUntil ?? null,
      j.retryAt ?? null,
      j.retryRemaining === undefined ? 3 : j.retryRemaining,
      j.lastError ?? null,
      j.inputWatermark ?? null,
      j.lastSuccessWatermark ?? null,
    );
}

export interface WorldSpec {
  now: number;
  threads: readonly ThreadSpec[];
  outputs?: readonly OutputSpec[];
  jobs?: readonly JobSpec[];
  /** Root-relative files of `memories_v2/`. */
  files?: Record<string, string>;
  /** Lines added to config.toml's `[memories]`. */
  memories?: string[];
  features?: boolean;
}

/** Writes the home (config, state DB, v2 memory DB, v2 root) in a temp folder and reads it as the app does. */
export async function makeWorld(spec: WorldSpec): Promise<World> {
  const temp = await makeTempDir();
  const codexHome = join(temp.dir, 'home');
  const root = join(codexHome, 'memories_v2');
  await mkdir(root, { recursive: true });
  const features = spec.features === false ? '' : '[features]\nmemories = true\n\n';
  await writeFile(join(codexHome, 'config.toml'), `${features}[memories]\nversion = "v2"\n${(spec.memories ?? []).join('\n')}\n`);
  const stateDb = join(codexHome, 'state_5.sqlite');
  const memoryDb = join(codexHome, 'memories_v2_1.sqlite');
  const state = new Database(stateDb);
  createCodexSchema(state, 'state_5.sqlite', spec.now - 30 * DAY);
  insertThreads(state, spec.threads, codexHome);
  state.close();
  const memory = new Database(memoryDb);
  createCodexSchema(memory, 'memories_v2_1.sqlite', spec.now - 30 * DAY);
  insertMemory(memory, spec.outputs ?? [], spec.jobs ?? []);
  memory.close();
  for (const [rel, text] of Object.entries(spec.files ?? {})) {
    await mkdir(join(root, rel, '..'), { recursive: true });
    await writeFile(join(root, rel), text);
  }
  const home = await inspectHome({ codexHome, source: 'flag' }, {});
  return { dir: temp.dir, home, stateDb, memoryDb, root, now: spec.now, cleanup: temp.cleanup };
}

/**
 * Each thread's stage and reason straight from Codex's tables at `now`, written from Codex's queries (the startup
 * claim's filter, `try_claim_stage1_job`'s up-to-date and retry conditions), not from the ledger's code.
 */
export const STAGES_SQL = `
WITH t AS (
  SELECT id, source, memory_mode, archived, archived_at, preview,
    CASE WHEN typeof(updated_at_ms) = 'integer' THEN updated_at_ms / 1000
         WHEN typeof(updated_at) = 'integer' THEN updated_at END AS upd
  FROM threads),
j AS (SELECT * FROM m.jobs WHERE kind = 'memory_stage1'),
r AS (
  SELECT t.*, o.thread_id AS has_output, o.selected_for_phase2 AS selected, j.status, j.lease_until, j.retry_at,
    j.retry_remaining, j.input_watermark, j.last_success_watermark,
    CASE WHEN t.source NOT IN ('cli', 'vscode') OR t.preview = '' THEN 'source'
         WHEN t.memory_mode = 'polluted' THEN 'polluted'
         WHEN t.memory_mode <> 'enabled' THEN 'memory-disabled'
         WHEN t.archived <> 0 OR t.archived_at IS NOT NULL THEN 'archived'
         WHEN t.upd IS NULL THEN 'no-time'
         WHEN t.upd < @now - @maxAge THEN 'too-old'
         WHEN t.upd > @now - @idle THEN 'too-recent' END AS reason
  FROM t LEFT JOIN m.stage1_outputs o ON o.thread_id = t.id LEFT JOIN j ON j.job_key = t.id)
SELECT id, reason,
  CASE WHEN has_output IS NOT NULL AND selected = 1 THEN 'selected'
       WHEN has_output IS NOT NULL THEN 'extracted'
       WHEN status = 'running' AND lease_until > @now THEN 'extracting'
       WHEN last_success_watermark IS NOT NULL AND upd IS NOT NULL AND last_success_watermark >= upd THEN 'extracted'
       WHEN status = 'error' AND retry_remaining <= 0 AND NOT (upd IS NOT NULL AND upd > COALESCE(input_watermark, -1))
            THEN 'exhausted'
       WHEN status = 'error' OR status = 'running' THEN 'failed'
       WHEN reason IS NULL THEN 'waiting'
       ELSE 'not-eligible' END AS stage
FROM r`;

/** Totals per stage and not-eligible sessions per reason, by direct SQL on the world's files. */
export function totalsBySql(
  stateDb: string,
  memoryDb: string,
  now: number,
  window: { maxAgeDays: number; idleHours: number },
  sinceDays?: number,
): { totals: Record<string, number>; notEligible: Record<string, number> } {
  const db = new Database(stateDb, { readonly: true });
  try {
    db.prepare('ATTACH DATABASE ? AS m').run(memoryDb);
    const params = { now, maxAge: window.maxAgeDays * DAY, idle: window.idleHours * HOUR };
    const rows = db.prepare(STAGES_SQL).all(params) as Array<{ id: string; reason: string | null; stage: string }>;
    const since = sinceDays === undefined ? null : now - sinceDays * DAY;
    const upd = new Map(
      (
        db
          .prepare(
            "SELECT id, CASE WHEN typeof(updated_at_ms) = 'integer' THEN updated_at_ms / 1000 WHEN typeof(updated_at) = 'integer' THEN updated_at END AS upd FROM threads",
          )
          .all() as Array<{ id: string; upd: number | null }>
      ).map((r) => [r.id, r.upd]),
    );
    const totals: Record<string, number> = {};
    const notEligible: Record<string, number> = {};
    for (const row of rows) {
      if (since !== null && ((upd.get(row.id) ?? null) === null || (upd.get(row.id) as number) < since)) continue;
      totals[row.stage] = (totals[row.stage] ?? 0) + 1;
      if (row.stage === 'not-eligible' && row.reason) notEligible[row.reason] = (notEligible[row.reason] ?? 0) + 1;
    }
    return { totals, notEligible };
  } finally {
    db.close();
  }
}

/** A report's counts without the zeros, to compare with `totalsBySql`. */
export function nonZero(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([, v]) => v > 0));
}
