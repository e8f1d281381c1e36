// Fixture sources for the import tests: a Claude Code home and a Cursor home with every kind of good and bad input.
import { mkdir, realpath, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';
import { insertProvenance } from '../../../electron/core/studio-db/provenance';
import { createProposal, setDecisions } from '../../../electron/core/review';
import { markApplied } from '../../../electron/core/history';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import type { StudioDb } from '../../../electron/core/studio-db';

/** The key is Claude's folder name, never decoded: it need not match the fixture's real cwd. */
export const APP_KEY = '-home-me-app';

/** Built at run time so no secret-shaped literal sits in the repository as is. */
export const SECRETS = {
  openai: ['sk', 'proj', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6'].join('-'),
  aws: ['AKIA', 'IOSFODNN7EXAMPLE'].join(''),
  github: ['ghp', '1234567890abcdefghijABCDEFGHIJ123456'].join('_'),
};

export async function put(path: string, data: string | Buffer, mtime?: Date): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, data);
  if (mtime) await utimes(path, mtime, mtime);
}

export const FILES = {
  index: [
    '# Memory Index',
    '',
    '- [User role](user_role.md) — who I am',
    '- [Testing](feedback_testing.md) — how to test',
    '- [[project_notes]]',
    '',
  ].join('\n'),
  userRole: [
    '---',
    'name: User role',
    'description: "Senior dev, prefers terse answers"',
    'type: user',
    'created: 2026-01-02',
    '---',
    '',
    'The user is a senior developer.',
    '',
  ].join('\n'),
  // The newer layout: `metadata:` with trailing spaces, `node_type: memory`.
  feedback: [
    '---',
    'name: Testing workflow',
    'description: Run tests before commits',
    'metadata:   ',
    '  type: feedback',
    '  originSessionId: 7f1c',
    '  modified: 2026-03-01',
    'node_type: memory',
    '---',
    '',
    'Run `pnpm test` first.',
    `Use OPENAI_API_KEY=${SECRETS.openai} for the e2e run.`,
    '**Why:** CI broke once.',
    '',
  ].join('\n'),
  notes: [
    '---',
    'name: Notes',
    'description: 日本語のメモ',
    'type: project',
    '---',
    '',
    'デプロイは金曜日にしない 🚫🚀',
    'Café, naïve, Zürich — ünïcödé ✅',
    '',
  ].join('\n'),
  orphan: [
    '---',
    'name: Idea',
    'type: reference',
    '---',
    '',
    `AWS key for the sandbox: ${SECRETS.aws}`,
    `gh token ${SECRETS.github}`,
    '',
  ].join('\n'),
  deep: '# Deep note\n\nNo front matter, in a sub-folder.\n',
};

export interface ClaudeFixture {
  base: string;
  /** The real folder the app's newest session records (a session cwd counts only when it is an existing folder). */
  appCwd: string;
  claudeHome: string;
  memoryDir: string;
  outside: string;
  customDir: string;
  repo: string;
  managedDir: string;
  env: NodeJS.ProcessEnv;
}

/** A real folder under `base` (canonical), for session cwds. */
export async function realDir(base: string, ...parts: string[]): Promise<string> {
  const dir = join(base, ...parts);
  await mkdir(dir, { recursive: true });
  return realpath(dir);
}

async function sessions(projectDir: string, appCwd: string, oldCwd: string): Promise<void> {
  const old = new Date('2026-01-01T00:00:00Z');
  const recent = new Date('2026-03-01T00:00:00Z');
  await put(join(projectDir, 'old.jsonl'), `${JSON.stringify({ cwd: oldCwd })}\n`, old);
  const lines = [{ type: 'summary' }, { cwd: 'relative/path' }, { type: 'user', cwd: appCwd }, { cwd: '/home/me/later' }];
  await put(join(projectDir, 'recent.jsonl'), `not json\n${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, recent);
}

/** A Claude home with one rich project, a project without sessions, bad keys, bad files and a custom memory folder. */
export async function makeClaudeHome(tempDir: string): Promise<ClaudeFixture> {
  const base = await realpath(tempDir);
  const appCwd = await realDir(base, 'work', 'app');
  const claudeHome = join(base, 'claude');
  const projectDir = join(claudeHome, 'projects', APP_KEY);
  const memoryDir = join(projectDir, 'memory');
  await put(join(memoryDir, 'MEMORY.md'), FILES.index);
  await put(join(memoryDir, 'user_role.md'), FILES.userRole);
  await put(join(memoryDir, 'feedback_testing.md'), FILES.feedback);
  await put(join(memoryDir, 'project_notes.md'), FILES.notes);
  await put(join(memoryDir, 'orphan_idea.md'), FILES.orphan);
  await put(join(memoryDir, 'notes', 'deep.md'), FILES.deep);
  await put(join(memoryDir, 'binary.md'), Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02, 0x0a]));
  await put(join(memoryDir, 'big.md'), 'x'.repeat(2 * 1024 * 1024));
  await put(join(memoryDir, 'latin1.md'), Buffer.from('caf\xe9\n', 'latin1'));
  await put(join(memoryDir, 'attachment.png'), Buffer.from([0x89, 0x50]));
  const outside = join(base, 'outside-secret.md');
  await put(outside, 'outside the home\n');
  await symlink(outside, join(memoryDir, 'linked.md'));
  await sessions(projectDir, appCwd, await realDir(base, 'work', 'old-place'));
  await put(join(claudeHome, 'projects', '-home-me-nocwd', 'memory', 'alone.md'), '# Alone\n');
  await put(join(claudeHome, 'projects', 'CON', 'memory', 'a.md'), '# reserved\n');
  await put(join(claudeHome, 'projects', 'trailing.', 'memory', 'a.md'), '# trailing dot\n');
  await put(join(claudeHome, 'projects', '-home-me-empty', 'notes.txt'), 'no memory folder\n');
  const customDir = join(base, 'custom-memory');
  await put(join(customDir, 'MEMORY.md'), '# Custom\n\n- [Tips](tips.md)\n');
  await put(join(customDir, 'tips.md'), '---\nname: Tips\ntype: feedback\n---\n\nPrefer small commits.\n');
  await put(join(claudeHome, 'settings.json'), JSON.stringify({ autoMemoryDirectory: customDir }));
  const repo = join(base, 'repo');
  await put(join(repo, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/repo-memory' }));
  await put(join(base, 'repo-memory', 'MEMORY.md'), '# Repo memory\n');
  const managedDir = join(base, 'managed');
  await mkdir(managedDir, { recursive: true });
  return { base, appCwd, claudeHome, memoryDir, outside, customDir, repo, managedDir, env: { HOME: base } };
}

export interface CursorFixture {
  cursorHome: string;
  webCwd: string;
  stateDb: string;
  repo: string;
  userRules: string;
}

export const USER_RULES = 'Always answer in English.\nPrefer TypeScript strict mode. 👍\n';

export function writeStateDb(path: string, rules: string | null): void {
  const db = openSqlite(path);
  try {
    db.exec('CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    db.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)').run('workbench.other', 'x');
    if (rules !== null) db.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)').run('aicontext.personalContext', rules);
  } finally {
    db.close();
  }
}

export async function makeCursorHome(tempDir: string): Promise<CursorFixture> {
  const base = await realpath(tempDir);
  const cursorHome = join(base, 'cursor');
  await put(join(cursorHome, 'projects', 'web', 'memory', 'MEMORY.md'), '# Web\n\n- [Style](style.md)\n');
  await put(join(cursorHome, 'projects', 'web', 'memory', 'style.md'), '---\nname: Style\ntype: feedback\n---\n\nUse tabs.\n');
  const webCwd = await realDir(base, 'work', 'web');
  await put(join(cursorHome, 'projects', 'web', 'chat.jsonl'), `${JSON.stringify({ cwd: webCwd })}\n`);
  const stateDb = join(base, 'Cursor', 'User', 'globalStorage', 'state.vscdb');
  await mkdir(dirname(stateDb), { recursive: true });
  writeStateDb(stateDb, USER_RULES);
  const repo = join(base, 'cursor-repo');
  await put(
    join(repo, '.cursor', 'rules', 'style.mdc'),
    '---\ndescription: House style\nglobs: src/**/*.ts\nalwaysApply: false\n---\n\nUse named exports.\n',
  );
  await put(
    join(repo, '.cursor', 'rules', 'nested', 'db.mdc'),
    '---\ndescription: DB rules\nalwaysApply: true\n---\n\nNever DROP tables.\n',
  );
  await put(join(repo, '.cursorrules'), 'Legacy rules: be brief.\n');
  return { cursorHome, webCwd, stateDb, repo, userRules: USER_RULES };
}

/** A Codex home description good enough for planning (no roots exist: v1 is the configured default, so both are targets). */
export function fakeHome(base: string): HomeInfo {
  const codexHome = join(base, 'codex');
  const root = (version: 'v1' | 'v2', dir: string) => ({
    version,
    path: join(codexHome, dir),
    exists: false,
    isSymlink: false,
    hasGitBaseline: false,
    dbPath: join(codexHome, `${dir}.sqlite`),
    dbExists: false,
  });
  return {
    codexHome,
    source: 'flag',
    exists: false,
    sqliteHome: codexHome,
    sqliteHomeSource: 'codex-home',
    stateDbExists: false,
    isDemo: false,
    roots: [root('v1', 'memories'), root('v2', 'memories_v2')],
    config: {
      path: join(codexHome, 'config.toml'),
      exists: false,
      featureMemories: null,
      memories: { version: 'v1' } as HomeInfo['config']['memories'],
      sqliteHome: null,
      diagnostics: [],
    },
    codexReads: { version: 'v1', source: 'config', off: 'feature-off' },
    returnHome: null,
  };
}

/** An earlier import of `key` under `root` (`scope.json` plus files), as Codex's importer or ours left it. */
export async function earlierImport(
  root: string,
  key: string,
  files: Record<string, string>,
  cwd: string | null = '/home/me/earlier',
): Promise<string> {
  const dir = join(root, 'extensions', 'external_agent_import', 'resources', key);
  if (cwd !== null) await put(join(dir, 'scope.json'), JSON.stringify({ cwd }));
  for (const [rel, text] of Object.entries(files)) await put(join(dir, ...rel.split('/')), text);
  return dir;
}

/**
 * An earlier import as our own import leaves it: a proposal (source `import`) of `scope.json` and the files, with one
 * provenance row per file naming the source home, accepted, written and marked applied in the Studio DB.
 */
export async function recordedImport(
  db: StudioDb,
  root: string,
  key: string,
  files: Record<string, string>,
  source: { tool: 'claude' | 'cursor'; sourceHome: string | null; sourceDir: string; cwd?: string },
): Promise<void> {
  const dir = `extensions/external_agent_import/resources/${key}`;
  const entries = Object.entries({ 'scope.json': JSON.stringify({ cwd: source.cwd ?? '/home/me/earlier' }), ...files });
  const proposal = await createProposal(db, {
    title: 'Import (fixture)',
    source: 'import',
    files: entries.map(([rel, text]) => ({ version: 'v1' as const, root, relPath: `${dir}/${rel}`, proposedContent: text })),
    afterInsert: (tx, id) =>
      insertProvenance(
        tx,
        id,
        Object.keys(files).map((rel) => ({
          version: 'v1' as const,
          relPath: `${dir}/${rel}`,
          tool: source.tool,
          sourcePath: join(source.sourceDir, rel),
          sourceMtimeMs: 0,
          sourceSha256: '00',
          sourceHome: source.sourceHome,
        })),
      ),
  });
  setDecisions(
    db,
    proposal.id,
    proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
  );
  for (const [rel, text] of entries) await put(join(root, dir, ...rel.split('/')), text);
  markApplied(db, proposal.id);
}
