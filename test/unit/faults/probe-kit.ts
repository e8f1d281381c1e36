// The fault probe's kit: the real `memory-studio` process on broken files, and the judge of what it answered.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, lstatSync, mkdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { openSqlite } from '../../../electron/core/platform/sqlite';

export const repoRoot = resolve(__dirname, '..', '..', '..');
export const bin = join(repoRoot, 'electron', 'host', 'bin.cjs');
export const built = existsSync(join(repoRoot, 'out', 'electron', 'host', 'cli.js'));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** One `memory-studio` process; `shell` runs it under `sh -c` (for `ulimit -f`). */
export function cli(args: string[], options: { env?: NodeJS.ProcessEnv; shellPrefix?: string } = {}): CliRun {
  const env = { ...process.env, MEMORY_STUDIO_DEBUG: '', MEMORY_STUDIO_NO_KEEPER: '1', ...options.env };
  const result = options.shellPrefix
    ? spawnSync('sh', ['-c', `${options.shellPrefix}; exec "$0" "$@"`, process.execPath, bin, ...args], {
        encoding: 'utf8',
        timeout: 120_000,
        env,
      })
    : spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000, env });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** One try of the probe: what was done, and whether the answer was clean (else why not). */
export interface Try {
  group: string;
  name: string;
  clean: boolean;
  why: string;
}

export class Tally {
  readonly tries: Try[] = [];
  add(group: string, name: string, problems: string[]): Try {
    const t = { group, name, clean: problems.length === 0, why: problems.join('; ') };
    this.tries.push(t);
    return t;
  }
  defects(group?: string): Try[] {
    return this.tries.filter((t) => !t.clean && (group === undefined || t.group === group));
  }
  figures(): string {
    const groups = [...new Set(this.tries.map((t) => t.group))];
    const line = (label: string, list: Try[]) =>
      `${label}: ${list.length} tries, ${list.filter((t) => t.clean).length} clean, ${list.filter((t) => !t.clean).length} defects`;
    return [
      line('fault probe', this.tries),
      ...groups.map(
        (g) =>
          `  ${line(
            g,
            this.tries.filter((t) => t.group === g),
          )}`,
      ),
    ].join('\n');
  }
}

const BUG_WORDS = /This looks like a bug|Unexpected error|Maximum call stack|\n\s+at [\w.<>]+ \(/;

export interface StudioErrorJson {
  kind: string;
  message: string;
  path?: string;
  hint?: string;
  fault?: string;
}

/** The JSON a `--json` command printed, or null when stdout is not one JSON value. */
export function jsonOf(run: CliRun): unknown {
  try {
    return JSON.parse(run.stdout) as unknown;
  } catch {
    return null;
  }
}

/** The error object of a failed `--json` answer (`{ok:false,error}`, a refused or failed consolidation), or null. */
export function errorOf(json: unknown): StudioErrorJson | null {
  const value = json as { ok?: boolean; error?: StudioErrorJson | null; state?: string } | null;
  if (!value || typeof value !== 'object') return null;
  if (value.error && (value.ok === false || value.state === 'refused' || value.state === 'failed')) return value.error;
  return null;
}

/** What is wrong with a `--json` answer in general: no JSON, words of a crash, a timeout. */
export function generalProblems(run: CliRun): string[] {
  const problems: string[] = [];
  if (run.status === null) problems.push('did not finish within 120 s');
  if (jsonOf(run) === null) problems.push(`stdout is not JSON: ${JSON.stringify(run.stdout.slice(0, 160))}`);
  const both = `${run.stdout}\n${run.stderr}`;
  const bug = BUG_WORDS.exec(both);
  if (bug) problems.push(`says "${bug[0].trim()}": ${JSON.stringify(both.slice(Math.max(0, bug.index - 80), bug.index + 120))}`);
  return problems;
}

/** A digest of every file under `dir` (paths and bytes; `.git/` included): a failed command must leave it equal. */
export function treeDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const info = lstatSync(path);
      if (info.isDirectory()) walk(path, `${rel}${name}/`);
      else hash.update(`${rel}${name}\0${info.isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'other'}\n`);
    }
  };
  if (existsSync(dir)) walk(dir, '');
  return hash.digest('hex');
}

/** The ways a Codex memory DB is found broken on disks in the wild, each made for real. */
export const DB_CASES = [
  'empty',
  'truncated-header',
  'truncated-body',
  'not-sqlite',
  'locked',
  'column-renamed',
  'table-missing',
  'a-folder',
] as const;
export type DbCase = (typeof DB_CASES)[number] | 'missing';

/** Breaks `path` as `kind` says; the returned function releases a lock held for `locked`. */
export function breakDb(path: string, kind: DbCase): () => void {
  let holder: Database.Database | null = null;
  switch (kind) {
    case 'missing':
      rmSync(path);
      break;
    case 'empty':
      writeFileSync(path, '');
      break;
    case 'truncated-header':
      truncateSync(path, 50);
      break;
    case 'truncated-body':
      truncateSync(path, 20_000);
      break;
    case 'not-sqlite':
      writeFileSync(path, Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 131 + 7) % 251)));
      break;
    case 'locked':
      // Another connection holds the write lock (as Codex does mid-transaction) for as long as the try runs.
      holder = openSqlite(path, { timeout: 1000 });
      holder.exec('BEGIN EXCLUSIVE');
      break;
    case 'column-renamed': {
      const db = openSqlite(path);
      db.exec('ALTER TABLE jobs RENAME COLUMN lease_until TO lease_until_renamed');
      db.close();
      break;
    }
    case 'table-missing': {
      const db = openSqlite(path);
      db.exec('DROP TABLE jobs');
      db.close();
      break;
    }
    case 'a-folder':
      rmSync(path);
      mkdirSync(path);
      break;
  }
  return () => {
    if (holder) {
      holder.exec('ROLLBACK');
      holder.close();
    }
  };
}
