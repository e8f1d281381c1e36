// Shared set-up for the Apply tests: a compiled engine for child processes, generated homes, plans, hashes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { generateHome } from '../../fixtures';
import type { ApplyFile, ApplyPlan } from '../../../electron/core/apply';

export const REPO = resolve(import.meta.dirname, '..', '..', '..');
export const CHILD = join(import.meta.dirname, 'apply-child.cjs');
export const CODEX_CLAIM = join(import.meta.dirname, 'codex-claim.cjs');
const require = createRequire(import.meta.url);
export const { codexClaim } = require('./codex-claim.cjs') as {
  codexClaim: (db: string, o?: { now?: number; lease?: number; workerId?: string }) => { claimed: boolean; reason: string; token?: string };
};

/** Child processes load out/; rebuild when it is missing or older than any apply source (tsc emits even if another module has type errors). */
export function ensureCompiled(): void {
  const out = join(REPO, 'out', 'electron', 'core', 'apply', 'index.js');
  const srcDir = join(REPO, 'electron', 'core', 'apply');
  const newest = Math.max(...readdirSync(srcDir).map((f) => statSync(join(srcDir, f)).mtimeMs));
  if (existsSync(out) && statSync(out).mtimeMs >= newest) return;
  try {
    execFileSync('npm', ['run', 'build:node', '--silent'], { cwd: REPO, stdio: 'pipe' });
  } catch (error) {
    if (!existsSync(out)) throw error;
  }
}

export function sha(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export interface TestHome {
  codexHome: string;
  root: string;
  dbPath: string;
  dataDir: string;
}

export async function makeHome(dir: string, seed = 11): Promise<TestHome> {
  const codexHome = join(dir, 'home');
  await generateHome({ dir: codexHome, scale: 'small', version: 'v1', seed, git: false, now: new Date() });
  const dataDir = join(dir, 'data');
  await mkdir(dataDir, { recursive: true });
  return { codexHome, root: join(codexHome, 'memories'), dbPath: join(codexHome, 'memories_1.sqlite'), dataDir };
}

/** A plan from the files' current bytes to `proposed` (null = delete); files absent now get a null base. */
export async function planFor(home: TestHome, id: string, proposed: Record<string, string | null>): Promise<ApplyPlan> {
  const files: ApplyFile[] = [];
  for (const [relPath, content] of Object.entries(proposed)) {
    const current = await readFile(join(home.root, relPath)).catch(() => null);
    files.push({ version: 'v1', root: home.root, relPath, baseSha256: current ? sha(current) : null, content });
  }
  return { id, files, dbPaths: { v1: home.dbPath } };
}

export async function writeFiles(root: string, files: Record<string, string | null>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    if (content === null) continue;
    await mkdir(join(root, rel, '..'), { recursive: true });
    await writeFile(join(root, rel), content);
  }
}

export function globalRow(dbPath: string): Record<string, unknown> | undefined {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare("SELECT * FROM jobs WHERE kind = 'memory_consolidate_global' AND job_key = 'global'").get() as
      Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

export function setGlobalRow(dbPath: string, values: Record<string, unknown>): void {
  const db = new Database(dbPath);
  try {
    const sets = Object.keys(values)
      .map((k) => `${k} = @${k}`)
      .join(', ');
    db.prepare(`UPDATE jobs SET ${sets} WHERE kind = 'memory_consolidate_global' AND job_key = 'global'`).run(values);
  } finally {
    db.close();
  }
}

/** Every `.memory-studio-*.tmp` left anywhere under `dir`. */
export function leftoverTemps(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.memory-studio-\d+(?:-n[0-9a-f]{12})?-[0-9a-f]+\.tmp$/.test(entry.name))
      found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

/** ~`mb` MB of Markdown with a marker so base and proposal differ everywhere. */
export function bigMarkdown(mb: number, marker: string): string {
  const line = `- ${marker}: remembered detail about the invoice-svc CI pipeline and its flaky PDF export test\n`;
  return `# Task Group: ${marker}\n\n` + line.repeat(Math.ceil((mb * 1024 * 1024) / line.length));
}
