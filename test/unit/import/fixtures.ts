// Fixture sources for the import tests: a Claude Code home and a Cursor home with every kind of good and bad input.
import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { openSqlite } from '../../../electron/core/sqlite';

export const APP_KEY = '-home-me-app';
export const APP_CWD = '/home/me/app';

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
  index: ['# Memory Index', '', '- [User role](user_role.md) — who I am', '- [Testing](feedback_testing.md) — how to test', '- [[project_notes]]', ''].join('\n'),
  userRole: ['---', 'name: User role', 'description: "Senior dev, prefers terse answers"', 'type: user', 'created: 2026-01-02', '---', '', 'The user is a senior developer.', ''].join('\n'),
  // The newer layout: `metadata:` with trailing spaces, `node_type: memory`.
  feedback: ['---', 'name: Testing workflow', 'description: Run tests before commits', 'metadata:   ', '  type: feedback', '  originSessionId: 7f1c', '  modified: 2026-03-01', 'node_type: memory', '---', '', 'Run `pnpm test` first.', `Use OPENAI_API_KEY=${SECRETS.openai} for the e2e run.`, '**Why:** CI broke once.', ''].join('\n'),
  notes: ['---', 'name: Notes', 'description: 日本語のメモ', 'type: project', '---', '', 'デプロイは金曜日にしない 🚫🚀', 'Café, naïve, Zürich — ünïcödé ✅', ''].join('\n'),
  orphan: ['---', 'name: Idea', 'type: reference', '---', '', `AWS key for the sandbox: ${SECRETS.aws}`, `gh token ${SECRETS.github}`, ''].join('\n'),
  deep: '# Deep note\n\nNo front matter, in a sub-folder.\n',
};

export interface ClaudeFixture {
  base: string;
  claudeHome: string;
  memoryDir: string;
  outside: string;
  customDir: string;
  repo: string;
  managedDir: string;
  env: NodeJS.ProcessEnv;
}

async function sessions(projectDir: string): Promise<void> {
  const old = new Date('2026-01-01T00:00:00Z');
  const recent = new Date('2026-03-01T00:00:00Z');
  await put(join(projectDir, 'old.jsonl'), `${JSON.stringify({ cwd: '/home/me/old-place' })}\n`, old);
  const lines = [{ type: 'summary' }, { cwd: 'relative/path' }, { type: 'user', cwd: APP_CWD }, { cwd: '/home/me/later' }];
  await put(join(projectDir, 'recent.jsonl'), `not json\n${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, recent);
}

/** A Claude home with one rich project, a project without sessions, bad keys, bad files and a custom memory folder. */
export async function makeClaudeHome(base: string): Promise<ClaudeFixture> {
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
  await sessions(projectDir);
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
  return { base, claudeHome, memoryDir, outside, customDir, repo, managedDir, env: { HOME: base } };
}

export interface CursorFixture {
  cursorHome: string;
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

export async function makeCursorHome(base: string): Promise<CursorFixture> {
  const cursorHome = join(base, 'cursor');
  await put(join(cursorHome, 'projects', 'web', 'memory', 'MEMORY.md'), '# Web\n\n- [Style](style.md)\n');
  await put(join(cursorHome, 'projects', 'web', 'memory', 'style.md'), '---\nname: Style\ntype: feedback\n---\n\nUse tabs.\n');
  await put(join(cursorHome, 'projects', 'web', 'chat.jsonl'), `${JSON.stringify({ cwd: '/home/me/web' })}\n`);
  const stateDb = join(base, 'Cursor', 'User', 'globalStorage', 'state.vscdb');
  await mkdir(dirname(stateDb), { recursive: true });
  writeStateDb(stateDb, USER_RULES);
  const repo = join(base, 'cursor-repo');
  await put(join(repo, '.cursor', 'rules', 'style.mdc'), '---\ndescription: House style\nglobs: src/**/*.ts\nalwaysApply: false\n---\n\nUse named exports.\n');
  await put(join(repo, '.cursor', 'rules', 'nested', 'db.mdc'), '---\ndescription: DB rules\nalwaysApply: true\n---\n\nNever DROP tables.\n');
  await put(join(repo, '.cursorrules'), 'Legacy rules: be brief.\n');
  return { cursorHome, stateDb, repo, userRules: USER_RULES };
}
