// Discovery of Cursor sources: `~/.cursor/projects/*/memory`, User Rules in `state.vscdb` (read only), project rules in picked repos.
import { appendAll } from '../platform/append';
import { createHash } from 'node:crypto';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SkippedEntry } from '../../../shared/import';
import { openSqlite } from '../platform/sqlite';
import { readMemoryDir } from './memory-dir';
import { claudeEncodePath, projectKeyProblem } from './names';
import {
  decodeSource,
  hasExtension,
  IMPORT_FILE_LIMIT_BYTES,
  pathKind,
  readSourceFile,
  readSourceFiles,
  skip,
  walkMarkdown,
  type WalkBudget,
} from './read-source';
import { realHome } from './claude';
import { sessionCwdInfo } from './session-cwd';
import { sortDiscovery, userHome, type Discovery, type DiscoveryDeps, type SourceFile, type SourceProject } from './sources';

/** Keys of Cursor sources all start with this, so they never collide with Claude Code's keys (which start with `-`, a drive letter, `_custom` or `project-`). */
export const CURSOR_KEY_PREFIX = 'cursor-';
export const CURSOR_USER_RULES_KEY = 'cursor-user-rules';
export const CURSOR_USER_RULES_FILE = 'user-rules.md';
export const CURSOR_USER_RULES_DB_KEY = 'aicontext.personalContext';

export const CURSOR_RULES_KEY_PREFIX = `${CURSOR_KEY_PREFIX}rules-`;

/** `cursor-rules-<encoded repo path>` (hashed when long): one target folder per picked repository. */
export function cursorRulesKey(repo: string): string {
  const key = `${CURSOR_RULES_KEY_PREFIX}${claudeEncodePath(repo)}`;
  return key.length <= 200 ? key : `${key.slice(0, 200)}-${createHash('sha256').update(repo).digest('hex').slice(0, 8)}`;
}

async function cursorProjects(root: string, skipped: SkippedEntry[], budget: WalkBudget): Promise<SourceProject[]> {
  const projectsDir = join(root, 'projects');
  const out: SourceProject[] = [];
  const entries = await readdir(projectsDir, { withFileTypes: true }).catch(() => []);
  budget.spend(entries.length, projectsDir, projectsDir);
  for (const entry of entries) {
    const dir = join(projectsDir, entry.name);
    const key = `${CURSOR_KEY_PREFIX}${entry.name}`;
    if (entry.isSymbolicLink()) {
      skipped.push(skip(dir, 'symlink', `${dir} is a symlink; imports never follow symlinks.`, key));
      continue;
    }
    const memoryDir = join(dir, 'memory');
    const kind = entry.isDirectory() ? await pathKind(memoryDir) : 'missing';
    if (kind === 'symlink') skipped.push(skip(memoryDir, 'symlink', `${memoryDir} is a symlink; imports never follow symlinks.`, key));
    if (kind !== 'dir') continue;
    const problem = projectKeyProblem(key);
    if (problem) {
      skipped.push(skip(dir, 'unsafe-name', `The project folder "${entry.name}" cannot be a target folder name: ${problem}.`, key));
      continue;
    }
    const read = await readMemoryDir(memoryDir, key, budget);
    appendAll(skipped, read.skipped);
    const { cwd, gone, unread } = await sessionCwdInfo(dir);
    for (const u of unread) skipped.push(skip(u.path, 'unreadable', u.reason, key));
    out.push({
      key,
      cwd,
      cwdSource: cwd ? 'session' : 'none',
      goneCwd: gone,
      sourceDir: memoryDir,
      origin: 'projects',
      files: read.files,
      skippedCount: read.skipped.length,
    });
  }
  return out;
}

type UserRulesRead = { ok: true; file: SourceFile } | { ok: false; entry: SkippedEntry | null };

function sqliteCode(error: unknown): string {
  return String((error as { code?: unknown } | null)?.code ?? '');
}

/** Reads `aicontext.personalContext` from Cursor's DB, read only; a locked DB asks the person to close Cursor or retry. */
export async function readUserRules(dbPath: string): Promise<UserRulesRead> {
  const key = CURSOR_USER_RULES_KEY;
  const kind = await pathKind(dbPath);
  if (kind === 'missing')
    return {
      ok: false,
      entry: skip(
        dbPath,
        'missing',
        `Cursor's state database ${dbPath} does not exist, so there are no User Rules to import (is Cursor installed for this user?).`,
        key,
      ),
    };
  if (kind === 'symlink')
    return { ok: false, entry: skip(dbPath, 'symlink', `${dbPath} is a symlink; imports never follow symlinks.`, key) };
  if (kind === 'other')
    return {
      ok: false,
      entry: skip(dbPath, 'unreadable', `${dbPath} is not a regular file (a socket, device or pipe), so it is not read.`, key),
    };
  if (kind !== 'file') return { ok: false, entry: skip(dbPath, 'unreadable', `${dbPath} is not a readable file.`, key) };
  let db;
  try {
    db = openSqlite(dbPath, { readonly: true, fileMustExist: true, timeout: 300 });
    const row = db.prepare('SELECT value FROM ItemTable WHERE key = ?').get(CURSOR_USER_RULES_DB_KEY) as { value: unknown } | undefined;
    const info = await lstat(dbPath);
    if (!row || row.value === null || row.value === undefined) return { ok: false, entry: null };
    const bytes = Buffer.isBuffer(row.value) ? row.value : Buffer.from(String(row.value), 'utf8');
    if (bytes.length > IMPORT_FILE_LIMIT_BYTES)
      return {
        ok: false,
        entry: skip(
          dbPath,
          'too-large',
          `Cursor's User Rules in ${dbPath} are ${bytes.length} bytes, over the ${IMPORT_FILE_LIMIT_BYTES}-byte limit.`,
          key,
        ),
      };
    const decoded = decodeSource(bytes, `${dbPath} (User Rules)`, info.mtimeMs);
    if (!decoded.ok) return { ok: false, entry: skip(dbPath, decoded.code, decoded.reason, key) };
    if (decoded.file.text.trim() === '') return { ok: false, entry: null };
    return { ok: true, file: { relPath: CURSOR_USER_RULES_FILE, sourcePath: dbPath, kind: 'user-rules', ...decoded.file } };
  } catch (error) {
    const code = sqliteCode(error);
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      return {
        ok: false,
        entry: skip(dbPath, 'locked', `Cursor's state database ${dbPath} is locked by Cursor; close Cursor or retry in a moment.`, key),
      };
    }
    return {
      ok: false,
      entry: skip(
        dbPath,
        'unreadable',
        `Cursor's state database ${dbPath} cannot be read (${(error as Error).message}); User Rules were not imported.`,
        key,
      ),
    };
  } finally {
    db?.close();
  }
}

/** `<repo>/.cursor/rules/**\/*.mdc` (as `rules/<path>`) and `<repo>/.cursorrules` (as `cursorrules.md`). */
async function repoRules(repo: string, skipped: SkippedEntry[], budget: WalkBudget): Promise<SourceProject | null> {
  const realRepo = await realpath(repo).catch(() => null);
  const key = cursorRulesKey(realRepo ?? repo);
  if (!realRepo) {
    skipped.push(skip(repo, 'missing', `The repository ${repo} does not exist.`, key));
    return null;
  }
  const files: SourceFile[] = [];
  let skippedCount = 0;
  const rulesDir = join(realRepo, '.cursor', 'rules');
  const rulesKind = await pathKind(join(realRepo, '.cursor'));
  if (rulesKind === 'dir' && (await pathKind(rulesDir)) === 'dir') {
    const walked = await walkMarkdown(rulesDir, await realpath(rulesDir), key, (n) => hasExtension(n, '.mdc'), '*.mdc', budget);
    appendAll(skipped, walked.skipped);
    skippedCount += walked.skipped.length;
    const reads = await readSourceFiles(walked.files, undefined, budget.signal, budget.sharedLoop);
    for (const { f, outcome } of reads) {
      if (outcome.ok) files.push({ relPath: `rules/${f.relPath}`, sourcePath: f.path, kind: 'rule', ...outcome.file });
      else {
        skipped.push(skip(f.path, outcome.code, outcome.reason, key));
        skippedCount++;
      }
    }
  } else if (rulesKind === 'symlink' || (await pathKind(rulesDir)) === 'symlink') {
    skipped.push(skip(rulesDir, 'symlink', `${rulesDir} goes through a symlink; imports never follow symlinks.`, key));
    skippedCount++;
  }
  const legacy = join(realRepo, '.cursorrules');
  if ((await pathKind(legacy)) !== 'missing') {
    const outcome = await readSourceFile(legacy);
    if (outcome.ok) files.push({ relPath: 'cursorrules.md', sourcePath: legacy, kind: 'rule', ...outcome.file });
    else {
      skipped.push(skip(legacy, outcome.code, outcome.reason, key));
      skippedCount++;
    }
  }
  if (files.length === 0 && skippedCount === 0) return null;
  return { key, cwd: realRepo, cwdSource: 'repo', sourceDir: realRepo, origin: 'cursor-rules', files, skippedCount };
}

export async function discoverCursor(
  sourceHome: Discovery['homes'][number],
  repos: readonly string[],
  stateDb: string,
  deps: DiscoveryDeps,
): Promise<Discovery> {
  const skipped: SkippedEntry[] = [];
  const messages: string[] = [];
  const root = await realHome(sourceHome.path);
  const projects = root ? await cursorProjects(root, skipped, deps.walk) : [];
  const rules = await readUserRules(stateDb);
  if (rules.ok) {
    const home = userHome(deps.env);
    projects.push({
      key: CURSOR_USER_RULES_KEY,
      cwd: home,
      cwdSource: 'home',
      sourceDir: stateDb,
      origin: 'cursor-user-rules',
      files: [rules.file],
      skippedCount: 0,
    });
  } else if (rules.entry) skipped.push(rules.entry);
  else messages.push(`Cursor has no User Rules set in ${stateDb}.`);
  const pickedKeys: string[] = [];
  const sourceHomes = [root ?? resolve(sourceHome.path), resolve(stateDb)];
  for (const repo of repos) {
    const real = await realpath(resolve(repo)).catch(() => resolve(repo));
    pickedKeys.push(cursorRulesKey(real));
    sourceHomes.push(real);
    const project = await repoRules(resolve(repo), skipped, deps.walk);
    if (project) projects.push(project);
    else if (!skipped.some((s) => s.path === resolve(repo)))
      messages.push(`${resolve(repo)} has no .cursor/rules/*.mdc and no .cursorrules.`);
  }
  if (repos.length === 0) messages.push('Pick repositories to import their Cursor project rules (.cursor/rules/*.mdc, .cursorrules).');
  return {
    from: 'cursor',
    homes: [{ ...sourceHome, exists: root !== null }],
    projects: sortDiscovery(projects),
    skipped,
    messages,
    pickedKeys,
    sourceHomes,
  };
}
