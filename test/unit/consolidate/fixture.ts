// Codex homes for the consolidation tests: hand-made DBs with exact rows, or generated homes, in temp folders.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEMORY_MIGRATION_SQL } from '../../../electron/core/demo-home/databases';
import { inspectHome } from '../../../electron/core/codex/home';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import type { HomeInfo } from '../../../shared/domain';
import { generateHome, type DemoVersion, type HomeManifest } from '../../fixtures';

export const NOW = new Date('2026-03-05T12:00:00Z');
export const NOW_SEC = Math.floor(NOW.getTime() / 1000);
export const DAY = 86_400;

const temps: string[] = [];

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'consolidate-test-'));
  temps.push(dir);
  return dir;
}

export async function cleanupTemps(): Promise<void> {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
}

export const inspect = (dir: string): Promise<HomeInfo> => inspectHome({ codexHome: dir, source: 'flag' }, {});

export interface Stage1Input {
  threadId: string;
  sourceUpdatedAt: number;
  rawMemory?: string;
  rolloutSummary?: string;
  rolloutSlug?: string | null;
  usageCount?: number | null;
  lastUsage?: number | null;
  selected?: boolean;
  /** The thread's memory_mode; null leaves the thread out of the catalog. */
  mode?: 'enabled' | 'disabled' | 'polluted' | null;
  cwd?: string;
  gitBranch?: string | null;
}

/** A Codex home configured for v1 with a v1 memory DB and a thread catalog holding exactly `rows`; `memories` adds [memories] lines. */
export async function handMadeHome(rows: Stage1Input[], memories = ''): Promise<{ dir: string; home: HomeInfo; memoryDb: string }> {
  const dir = join(await tempDir(), 'home');
  await mkdir(join(dir, 'memories'), { recursive: true });
  // Without a version line Codex 0.169.0 would use v2; this home is a v1 one.
  await writeFile(join(dir, 'config.toml'), `[memories]\nversion = "v1"\n${memories}`);
  const memoryDb = join(dir, 'memories_1.sqlite');
  const mem = openSqlite(memoryDb);
  mem.exec(MEMORY_MIGRATION_SQL);
  const insert =
    mem.prepare(`INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory, rollout_summary, rollout_slug, generated_at, usage_count, last_usage, selected_for_phase2, selected_for_phase2_source_updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const r of rows) {
    insert.run(
      r.threadId,
      r.sourceUpdatedAt,
      r.rawMemory ?? `raw ${r.threadId}`,
      r.rolloutSummary ?? `# summary ${r.threadId}`,
      r.rolloutSlug ?? null,
      r.sourceUpdatedAt,
      r.usageCount ?? null,
      r.lastUsage ?? null,
      r.selected ? 1 : 0,
      r.selected ? r.sourceUpdatedAt : null,
    );
  }
  mem.close();
  const state = openSqlite(join(dir, 'state_5.sqlite'));
  state.exec(
    `CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, cwd TEXT NOT NULL, git_branch TEXT, memory_mode TEXT NOT NULL DEFAULT 'enabled')`,
  );
  const thread = state.prepare('INSERT INTO threads (id, rollout_path, cwd, git_branch, memory_mode) VALUES (?, ?, ?, ?, ?)');
  for (const r of rows) {
    if (r.mode === null) continue;
    thread.run(r.threadId, `/h/sessions/rollout-${r.threadId}.jsonl`, r.cwd ?? '/src/app', r.gitBranch ?? null, r.mode ?? 'enabled');
  }
  state.close();
  return { dir, home: await inspect(dir), memoryDb };
}

/** A generated home (v1 and/or v2) at NOW, with a git baseline when asked. */
export async function generatedHome(
  version: DemoVersion = 'v1',
  git = true,
): Promise<{ dir: string; manifest: HomeManifest; home: HomeInfo; root: string }> {
  const dir = join(await tempDir(), 'home');
  const manifest = await generateHome({ dir, scale: 'small', version, seed: 11, now: NOW, git });
  return { dir, manifest, home: await inspect(dir), root: join(dir, version === 'v2' ? 'memories_v2' : 'memories') };
}

/** SHA-256 of every file (and the link target of every symlink) under `dir`, `.git/` included. */
export async function hashTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.pop() as string;
    for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) pending.push(path);
      else if (e.isSymbolicLink()) out.set(path, 'symlink');
      else
        out.set(
          path,
          createHash('sha256')
            .update(await readFile(join(dir, path)))
            .digest('hex'),
        );
    }
  }
  return out;
}

/** A v7-looking thread id whose ordering is the suffix's (the same timestamp for all). */
export const tid = (n: number): string => `0199aaaa-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
