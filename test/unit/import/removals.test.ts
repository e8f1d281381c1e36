// Which earlier imports a plan removes: only this source's own (recorded provenance), whose source is really gone, never on doubt.
import { chmod, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cursorProvenanceHeader, cursorRulesKey, earlierImportsOf, planImport, repoSettingKey } from '../../../electron/core/import';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import { openStudioDb } from '../../../electron/core/studio-db';
import { makeTempDir } from '../helpers';
import { APP_KEY, earlierImport, fakeHome, makeClaudeHome, makeCursorHome, put, recordedImport, writeStateDb } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A Studio DB in the temp folder: the records of earlier imports the plans consult. */
function studioIn(dir: string) {
  const db = openStudioDb(join(dir, 'data'));
  cleanups.unshift(async () => db.close());
  return db;
}

async function claude() {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  const f = await makeClaudeHome(temp.dir);
  const home = fakeHome(f.base);
  const db = studioIn(temp.dir);
  const v1 = home.roots[0]?.path ?? '';
  /** An earlier import of `key` that our import made from this Claude home. */
  const ours = (key: string, files: Record<string, string>, cwd = f.appCwd) =>
    recordedImport(db, v1, key, files, {
      tool: 'claude',
      sourceHome: f.claudeHome,
      sourceDir: join(f.claudeHome, 'projects', key, 'memory'),
      cwd,
    });
  return { f, home, v1, db, ours, deps: () => ({ env: f.env, managedSettingsDir: f.managedDir, earlier: earlierImportsOf(db) }) };
}

async function cursor() {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  const f = await makeCursorHome(temp.dir);
  const home = fakeHome(temp.dir);
  const db = studioIn(temp.dir);
  return { f, home, v1: home.roots[0]?.path ?? '', db, deps: () => ({ env: { HOME: temp.dir }, earlier: earlierImportsOf(db) }) };
}

const deletedKeys = (plan: Awaited<ReturnType<typeof planImport>>) => [
  ...new Set(plan.writes.filter((w) => w.change === 'delete').map((w) => w.projectKey)),
];

describe('removals (Claude Code)', () => {
  it('a mistyped or missing home removes nothing, and says so', async () => {
    const { f, home, ours, deps } = await claude();
    await ours(APP_KEY, { 'MEMORY.md': '# App\n' });
    const plan = await planImport({ from: 'claude', sourceHome: join(f.base, 'claude-typo') }, home, deps());
    expect(plan.removed).toEqual([]);
    expect(deletedKeys(plan)).toEqual([]);
    expect(plan.messages.join(' ')).toMatch(/nothing imported earlier is removed/);
  });

  it("removes only what this Claude home imported: a stray folder and an import no record knows (Codex's own) stay, listed", async () => {
    const { f, home, v1, ours, deps } = await claude();
    await earlierImport(v1, 'my-notes', { 'todo.md': 'mine\n' }, null);
    await earlierImport(v1, '-home-me-by-codex', { 'MEMORY.md': '# Codex imported this\n' });
    await ours('-home-me-vanished', { 'MEMORY.md': '# Gone\n' });
    const plan = await planImport({ from: 'claude', sourceHome: f.claudeHome, choices: { secretDefault: 'redact' } }, home, deps());
    expect(plan.removed.map((r) => r.key)).toEqual(['-home-me-vanished']);
    expect(deletedKeys(plan)).toEqual(['-home-me-vanished']);
    expect(plan.writes.filter((w) => w.change === 'delete').every((w) => w.removal)).toBe(true);
    expect(plan.kept).toEqual([
      expect.objectContaining({
        key: '-home-me-by-codex',
        why: 'from-another-source',
        reason: expect.stringMatching(/No import of it is recorded here: Codex's own importer/),
      }),
    ]);
  });

  it('an import from another Claude home is kept and listed, not "source gone" (the five files of -home-dana-src-webapp)', async () => {
    const { f, home, v1, db, deps } = await claude();
    const other = await realpath(join(f.base, 'work'));
    const files = { 'MEMORY.md': '# webapp\n', 'a.md': 'a\n', 'b.md': 'b\n', 'c.md': 'c\n' };
    await recordedImport(db, v1, '-home-dana-src-webapp', files, {
      tool: 'claude',
      sourceHome: other,
      sourceDir: join(other, 'projects', '-home-dana-src-webapp', 'memory'),
    });
    const plan = await planImport({ from: 'claude', sourceHome: f.claudeHome, choices: { secretDefault: 'redact' } }, home, deps());
    expect(plan.removed).toEqual([]);
    expect(deletedKeys(plan)).toEqual([]);
    expect(plan.kept).toEqual([
      expect.objectContaining({
        key: '-home-dana-src-webapp',
        files: expect.arrayContaining(['scope.json', 'MEMORY.md']),
        why: 'from-another-source',
        reason: `Imported from ${other}, not from ${f.claudeHome}.`,
      }),
    ]);
    expect(plan.kept[0]?.files).toHaveLength(5);
  });

  it('one switch keeps every removal: nothing is deleted and each is listed as kept by you', async () => {
    const { f, home, ours, deps } = await claude();
    await ours('-home-me-vanished', { 'MEMORY.md': '# Gone\n' });
    const plan = await planImport(
      { from: 'claude', sourceHome: f.claudeHome, choices: { secretDefault: 'redact', keepRemoved: true } },
      home,
      deps(),
    );
    expect(plan.removed).toEqual([]);
    expect(deletedKeys(plan)).toEqual([]);
    expect(plan.kept).toEqual([expect.objectContaining({ key: '-home-me-vanished', why: 'kept-by-you' })]);
  });

  it("lists the other tool's imports as kept, and a project re-imported from here keeps the files another home left in it", async () => {
    const { f, home, v1, db, deps } = await claude();
    await earlierImport(v1, 'cursor-web', { 'MEMORY.md': '# Cursor web\n' });
    await recordedImport(
      db,
      v1,
      APP_KEY,
      { 'MEMORY.md': '# from elsewhere\n', 'only_there.md': 'x\n' },
      { tool: 'claude', sourceHome: '/home/someone/.claude', sourceDir: '/home/someone/.claude/projects/x/memory', cwd: f.appCwd },
    );
    const plan = await planImport(
      { from: 'claude', sourceHome: f.claudeHome, projects: [APP_KEY], choices: { secretDefault: 'redact' } },
      home,
      deps(),
    );
    expect(plan.kept).toEqual([
      expect.objectContaining({
        key: APP_KEY,
        files: ['only_there.md'],
        why: 'from-another-source',
        reason: 'Imported from /home/someone/.claude, not from ' + f.claudeHome + '.',
      }),
      expect.objectContaining({ key: 'cursor-web', reason: 'Imported from Cursor, not from Claude Code.' }),
    ]);
    expect(plan.writes.filter((w) => w.version === 'v1' && w.relPath.endsWith('only_there.md'))).toEqual([]);
    expect(plan.writes.find((w) => w.version === 'v1' && w.relPath.endsWith(`${APP_KEY}/MEMORY.md`))?.change).toBe('modify');
  });

  it("a repo's own autoMemoryDirectory import stays when the repo is not picked this run, and goes when the picked repo lost it", async () => {
    const { f, home, v1, db, deps } = await claude();
    const key = repoSettingKey(f.repo);
    await recordedImport(
      db,
      v1,
      key,
      { 'MEMORY.md': '# Repo memory\n' },
      { tool: 'claude', sourceHome: await realpath(f.repo), sourceDir: join(f.base, 'repo-memory'), cwd: f.repo },
    );
    const unpicked = await planImport({ from: 'claude', sourceHome: f.claudeHome, choices: { secretDefault: 'redact' } }, home, deps());
    expect(unpicked.removed.map((r) => r.key)).not.toContain(key);
    await rm(join(f.repo, '.claude', 'settings.json'));
    const picked = await planImport(
      { from: 'claude', sourceHome: f.claudeHome, repos: [f.repo], choices: { secretDefault: 'redact' } },
      home,
      deps(),
    );
    expect(picked.removed.map((r) => r.key)).toContain(key);
  });

  it('keeps a project whose sessions were pruned, with the cwd of its scope.json', async () => {
    const { f, home, v1, deps } = await claude();
    await earlierImport(v1, APP_KEY, { 'MEMORY.md': '# old\n' }, f.appCwd);
    for (const name of ['old.jsonl', 'recent.jsonl']) await rm(join(f.claudeHome, 'projects', APP_KEY, name));
    const plan = await planImport(
      { from: 'claude', sourceHome: f.claudeHome, projects: [APP_KEY], choices: { secretDefault: 'redact' } },
      home,
      deps(),
    );
    expect(plan.projects[0]).toMatchObject({ key: APP_KEY, cwd: f.appCwd, cwdSource: 'scope', status: 'importable' });
    const scope = `extensions/external_agent_import/resources/${APP_KEY}/scope.json`;
    expect(plan.writes.filter((w) => w.relPath === scope && w.version === 'v1')).toEqual([]);
    expect(plan.removed).toEqual([]);
  });

  it('leaves a project untouched while none of its files can be read (unreadable, not UTF-8, too large)', async () => {
    const { f, home, v1, deps } = await claude();
    const key = '-home-me-broken';
    const memory = join(f.claudeHome, 'projects', key, 'memory');
    await put(join(memory, 'MEMORY.md'), Buffer.from('caf\xe9\n', 'latin1'));
    await put(join(memory, 'big.md'), 'x'.repeat(2 * 1024 * 1024));
    const asRoot = process.getuid?.() === 0; // root reads a 000 file, so only the other refusals apply then
    if (!asRoot) await put(join(memory, 'locked.md'), '# locked\n');
    if (!asRoot) await chmod(join(memory, 'locked.md'), 0o000);
    await put(join(f.claudeHome, 'projects', key, 's.jsonl'), `${JSON.stringify({ cwd: f.appCwd })}\n`);
    await earlierImport(v1, key, { 'MEMORY.md': '# imported when it was readable\n' }, f.appCwd);
    const plan = await planImport(
      { from: 'claude', sourceHome: f.claudeHome, projects: [key], choices: { secretDefault: 'redact' } },
      home,
      deps(),
    );
    expect(plan.projects[0]).toMatchObject({ key, status: 'skipped', reason: expect.stringMatching(/left as it is/) });
    expect(plan.writes).toEqual([]);
    expect(plan.removed).toEqual([]);
    if (!asRoot) await chmod(join(memory, 'locked.md'), 0o600);
  });

  it('empties the earlier import of a project whose memory folder has no Markdown left (gone, as Codex sees it)', async () => {
    const { f, home, ours, deps } = await claude();
    const key = '-home-me-emptied';
    await put(join(f.claudeHome, 'projects', key, 'memory', 'notes.txt'), 'not markdown\n');
    await put(join(f.claudeHome, 'projects', key, 's.jsonl'), `${JSON.stringify({ cwd: f.appCwd })}\n`);
    await ours(key, { 'MEMORY.md': '# old\n' });
    const plan = await planImport({ from: 'claude', sourceHome: f.claudeHome, projects: [key] }, home, deps());
    expect(
      plan.writes.filter((w) => w.version === 'v1' && w.projectKey === key).map((w) => [w.relPath.split('/').pop(), w.change]),
    ).toEqual([
      ['MEMORY.md', 'delete'],
      ['scope.json', 'delete'],
    ]);
  });

  it('a relative cwd typed for one project skips that project with the reason instead of failing the plan', async () => {
    const { f, home, deps } = await claude();
    const plan = await planImport(
      { from: 'claude', sourceHome: f.claudeHome, choices: { secretDefault: 'redact', projects: [{ key: APP_KEY, cwd: 'rel/dir' }] } },
      home,
      deps(),
    );
    expect(plan.projects.find((p) => p.key === APP_KEY)).toMatchObject({
      status: 'skipped',
      cwd: 'rel/dir',
      cwdSource: 'override',
      reason: expect.stringMatching(/not an absolute path/),
    });
    expect(plan.projects.find((p) => p.key === '_custom')).toBeDefined();
  });
});

describe('removals (Cursor)', () => {
  it('User Rules imported earlier stay while state.vscdb is locked or missing, and go once Cursor has none', async () => {
    const { f, home, v1, db, deps } = await cursor();
    await recordedImport(
      db,
      v1,
      'cursor-user-rules',
      { 'user-rules.md': 'old rules\n' },
      { tool: 'cursor', sourceHome: f.stateDb, sourceDir: f.stateDb, cwd: f.webCwd },
    );
    const input = { from: 'cursor' as const, sourceHome: f.cursorHome, cursorStateDb: f.stateDb };
    const holder = openSqlite(f.stateDb);
    try {
      holder.exec('BEGIN EXCLUSIVE');
      holder.prepare("UPDATE ItemTable SET value = 'y' WHERE key = 'workbench.other'").run();
      const locked = await planImport(input, home, deps());
      expect(locked.skipped.map((s) => s.code)).toEqual(['locked']);
      expect(locked.removed).toEqual([]);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const missing = await planImport({ ...input, cursorStateDb: join(f.cursorHome, 'nope.vscdb') }, home, deps());
    expect(missing.removed).toEqual([]);
    await rm(f.stateDb);
    writeStateDb(f.stateDb, null);
    const none = await planImport(input, home, deps());
    expect(none.removed.map((r) => r.key)).toEqual(['cursor-user-rules']);
  });

  it("a repo's rules imported earlier stay when no repo is picked this run, and go when the picked repo has none left", async () => {
    const { f, home, v1, db, deps } = await cursor();
    const key = cursorRulesKey(f.repo);
    await recordedImport(
      db,
      v1,
      key,
      { 'cursorrules.md': 'old\n' },
      { tool: 'cursor', sourceHome: await realpath(f.repo), sourceDir: f.repo, cwd: f.repo },
    );
    const input = { from: 'cursor' as const, sourceHome: f.cursorHome, cursorStateDb: f.stateDb };
    expect((await planImport(input, home, deps())).removed).toEqual([]);
    await rm(join(f.repo, '.cursor'), { recursive: true });
    await rm(join(f.repo, '.cursorrules'));
    await put(join(f.repo, 'README.md'), 'no rules\n');
    const picked = await planImport({ ...input, repos: [f.repo] }, home, deps());
    expect(picked.removed.map((r) => r.key)).toEqual([key]);
  });

  it('without a record, the header line of a Cursor file says where it came from: this home removes its own, not another', async () => {
    const { f, home, v1, deps } = await cursor();
    const header = (path: string) => cursorProvenanceHeader({ sourcePath: path, mtimeMs: 0, sha256: '00', kind: 'topic' });
    await earlierImport(v1, 'cursor-gone', {
      'MEMORY.md': `${header(join(f.cursorHome, 'projects', 'gone', 'memory', 'MEMORY.md'))}# Gone\n`,
    });
    await earlierImport(v1, 'cursor-elsewhere', {
      'MEMORY.md': `${header('/home/other/.cursor/projects/elsewhere/memory/MEMORY.md')}# Elsewhere\n`,
    });
    const plan = await planImport({ from: 'cursor', sourceHome: f.cursorHome, cursorStateDb: f.stateDb }, home, deps());
    expect(plan.removed.map((r) => r.key)).toEqual(['cursor-gone']);
    expect(plan.kept).toEqual([
      expect.objectContaining({
        key: 'cursor-elsewhere',
        reason: expect.stringMatching(/^Imported from \/home\/other\/\.cursor\/projects\/elsewhere\/memory\/MEMORY\.md, not from /),
      }),
    ]);
  });
});
