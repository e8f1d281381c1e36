// Import detection and planning from a fixture Claude home: keys, cwd, custom folders, bad input, front matter, secrets.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectImport, planImport, repoSettingKey } from '../../../electron/core/import';
import { makeTempDir } from '../helpers';
import { APP_KEY, fakeHome, makeClaudeHome, put, SECRETS, type ClaudeFixture } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function fixture(): Promise<ClaudeFixture> {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  return makeClaudeHome(temp.dir);
}

describe('import detection (Claude Code)', () => {
  it('lists projects with keys as folder names, cwd from the newest session, custom folders, and everything skipped with the reason', async () => {
    const f = await fixture();
    const d = await detectImport(
      { from: 'claude', sourceHome: f.claudeHome, repos: [f.repo] },
      { env: f.env, managedSettingsDir: f.managedDir },
    );
    expect(d.homes).toEqual([{ path: f.claudeHome, exists: true, origin: 'picked' }]);
    expect(d.projects.map((p) => [p.key, p.cwd, p.cwdSource, p.origin])).toEqual([
      [APP_KEY, f.appCwd, 'session', 'projects'],
      ['-home-me-nocwd', null, 'none', 'projects'],
      ['_custom', null, 'none', 'custom-setting'],
      [repoSettingKey(f.repo), f.repo, 'settings', 'repo-setting'],
    ]);
    const app = d.projects[0];
    expect(app).toMatchObject({ importableCount: 6, skippedCount: 5, fileCount: 11 });
    const reasons = Object.fromEntries(d.skipped.map((s) => [s.path.slice(f.base.length + 1), s.code]));
    expect(reasons).toEqual({
      [`claude/projects/${APP_KEY}/memory/linked.md`]: 'symlink',
      [`claude/projects/${APP_KEY}/memory/big.md`]: 'too-large',
      [`claude/projects/${APP_KEY}/memory/binary.md`]: 'binary',
      [`claude/projects/${APP_KEY}/memory/latin1.md`]: 'invalid-utf8',
      [`claude/projects/${APP_KEY}/memory/attachment.png`]: 'not-markdown',
      'claude/projects/CON': 'unsafe-name',
      'claude/projects/trailing.': 'unsafe-name',
    });
    expect(d.skipped.find((s) => s.code === 'invalid-utf8')?.reason).toMatch(/byte 3 \(line 1\)/);
    expect(d.skipped.find((s) => s.code === 'too-large')?.reason).toMatch(/2097152 bytes, over the 1048576-byte limit/);
    expect(d.keyEncodingNote).toMatch(/never decoded/);
  });

  it('takes CLAUDE_CONFIG_DIR, then ~/.claude, when no folder is picked', async () => {
    const f = await fixture();
    const fromEnv = await detectImport(
      { from: 'claude' },
      { env: { ...f.env, CLAUDE_CONFIG_DIR: f.claudeHome }, managedSettingsDir: f.managedDir },
    );
    expect(fromEnv.homes[0]).toMatchObject({ path: f.claudeHome, origin: 'env', exists: true });
    const byDefault = await detectImport({ from: 'claude' }, { env: f.env, managedSettingsDir: f.managedDir });
    expect(byDefault.homes[0]).toMatchObject({ path: join(f.base, '.claude'), origin: 'default', exists: false });
    expect(byDefault.messages.join(' ')).toMatch(/No Claude Code home/);
  });

  it('managed settings (drop-ins last) win over user and repo settings; a folder already read is not read twice', async () => {
    const f = await fixture();
    await put(join(f.managedDir, 'managed-settings.json'), JSON.stringify({ autoMemoryDirectory: '/nowhere' }));
    await put(join(f.managedDir, 'managed-settings.d', '10-memory.json'), JSON.stringify({ autoMemoryDirectory: f.memoryDir }));
    const d = await detectImport(
      { from: 'claude', sourceHome: f.claudeHome, repos: [f.repo] },
      { env: f.env, managedSettingsDir: f.managedDir },
    );
    expect(d.projects.map((p) => p.key)).toEqual([APP_KEY, '-home-me-nocwd']);
    expect(d.skipped.find((s) => s.code === 'duplicate-root')).toMatchObject({ projectKey: '_custom', path: f.memoryDir });
  });

  it('refuses a relative autoMemoryDirectory with the reason', async () => {
    const f = await fixture();
    await put(join(f.claudeHome, 'settings.json'), JSON.stringify({ autoMemoryDirectory: 'relative/memory' }));
    const d = await detectImport({ from: 'claude', sourceHome: f.claudeHome }, { env: f.env, managedSettingsDir: f.managedDir });
    expect(d.skipped.find((s) => s.code === 'invalid-setting')?.reason).toMatch(/neither absolute nor ~\/-relative/);
  });
});

describe('import plan (Claude Code)', () => {
  it('parses both front-matter layouts, classifies index/topic/orphan files and finds secrets with line numbers', async () => {
    const f = await fixture();
    const plan = await planImport({ from: 'claude', sourceHome: f.claudeHome, projects: [APP_KEY] }, fakeHome(f.base), {
      env: f.env,
      managedSettingsDir: f.managedDir,
    });
    const files = Object.fromEntries((plan.projects[0]?.files ?? []).map((x) => [x.relPath, x]));
    expect(Object.keys(files)).toEqual([
      'MEMORY.md',
      'feedback_testing.md',
      'notes/deep.md',
      'orphan_idea.md',
      'project_notes.md',
      'user_role.md',
    ]);
    expect(Object.fromEntries(Object.values(files).map((x) => [x.relPath, x.kind]))).toEqual({
      'MEMORY.md': 'index',
      'feedback_testing.md': 'topic',
      'notes/deep.md': 'orphan',
      'orphan_idea.md': 'orphan',
      'project_notes.md': 'topic',
      'user_role.md': 'topic',
    });
    expect(files['user_role.md']?.frontMatter).toEqual({
      layout: 'flat',
      name: 'User role',
      description: 'Senior dev, prefers terse answers',
      type: 'user',
      other: { created: '2026-01-02' },
    });
    expect(files['feedback_testing.md']?.frontMatter).toMatchObject({
      layout: 'nested',
      type: 'feedback',
      other: { 'metadata.originSessionId': '7f1c', node_type: 'memory' },
    });
    expect(files['project_notes.md']?.frontMatter.description).toBe('日本語のメモ');
    expect(files['feedback_testing.md']?.findings).toEqual([
      expect.objectContaining({ rule: 'secrets/openai-project-key', line: 12, column: 20, action: null }),
    ]);
    expect(files['feedback_testing.md']?.findings[0]?.preview).not.toContain(SECRETS.openai);
    expect(files['orphan_idea.md']?.findings.map((x) => [x.rule, x.line])).toEqual([
      ['secrets/aws-access-key-id', 6],
      ['secrets/github-token', 7],
    ]);
    expect(plan.unresolvedFindings).toBe(3);
    expect(plan.targets.map((t) => t.version)).toEqual(['v1', 'v2']);
    expect(plan.targetRule).toMatch(/memories.version is v1/);
  });

  it('applies choices: per-finding redact, skip-file, left-out files and projects, cwd override; exact target paths', async () => {
    const f = await fixture();
    const home = fakeHome(f.base);
    const plan = await planImport(
      {
        from: 'claude',
        sourceHome: f.claudeHome,
        choices: {
          projects: [
            { key: '_custom', cwd: '/home/me/custom' },
            { key: '-home-me-nocwd', include: false },
          ],
          files: [{ project: APP_KEY, relPath: 'notes/deep.md', include: false }],
          secrets: [
            { project: APP_KEY, relPath: 'feedback_testing.md', findingId: 'secrets/openai-project-key@12:20', action: 'redact' },
            { project: APP_KEY, relPath: 'orphan_idea.md', action: 'skip-file' },
          ],
        },
      },
      home,
      { env: f.env, managedSettingsDir: f.managedDir },
    );
    const app = plan.projects.find((p) => p.key === APP_KEY);
    const feedback = app?.files.find((x) => x.relPath === 'feedback_testing.md');
    expect(feedback?.content).toContain('OPENAI_API_KEY=[REDACTED_SECRET] for the e2e run.');
    expect(feedback?.content).not.toContain(SECRETS.openai);
    expect(app?.files.find((x) => x.relPath === 'orphan_idea.md')).toMatchObject({
      status: 'skipped',
      content: null,
      reason: expect.stringMatching(/line 6/),
    });
    expect(app?.files.find((x) => x.relPath === 'notes/deep.md')).toMatchObject({ status: 'skipped', included: false });
    expect(plan.projects.find((p) => p.key === '_custom')).toMatchObject({
      cwd: '/home/me/custom',
      cwdSource: 'override',
      status: 'importable',
    });
    expect(plan.projects.find((p) => p.key === '-home-me-nocwd')).toMatchObject({ included: false, status: 'skipped' });
    expect(plan.unresolvedFindings).toBe(0);
    const root = home.roots[0]?.path ?? '';
    expect(plan.writes.map((w) => w.relPath)).toContain(`extensions/external_agent_import/resources/${APP_KEY}/scope.json`);
    expect(plan.writes[0]).toMatchObject({
      relPath: 'extensions/external_agent_import/instructions.md',
      absPath: join(root, 'extensions', 'external_agent_import', 'instructions.md'),
      change: 'create',
    });
    expect(plan.messages.join(' ')).toMatch(/does not exist yet/);
  });

  it("keeps an existing instructions.md (Codex's importer writes its own wording) instead of rewriting it", async () => {
    const f = await fixture();
    const home = fakeHome(f.base);
    const ext = join(home.codexHome, 'memories', 'extensions', 'external_agent_import');
    await mkdir(ext, { recursive: true });
    await writeFile(join(ext, 'instructions.md'), '# Imported external-agent memory\n\nCodex wrote this wording.\n');
    const plan = await planImport({ from: 'claude', sourceHome: f.claudeHome, choices: { secretDefault: 'redact' } }, home, {
      env: f.env,
      managedSettingsDir: f.managedDir,
    });
    const instructions = plan.writes.filter((w) => w.relPath.endsWith('/instructions.md'));
    // v1 has one (kept); v2 has none yet (written).
    expect(instructions.map((w) => [w.version, w.change])).toEqual([['v2', 'create']]);
  });

  it('skips a project given a relative cwd override, with the reason', async () => {
    const f = await fixture();
    const plan = await planImport(
      { from: 'claude', sourceHome: f.claudeHome, choices: { projects: [{ key: APP_KEY, cwd: 'rel/dir' }] } },
      fakeHome(f.base),
      { env: f.env, managedSettingsDir: f.managedDir },
    );
    expect(plan.projects.find((p) => p.key === APP_KEY)).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/not an absolute path/),
    });
  });

  it('says which recorded cwd is missing instead of claiming no session records one', async () => {
    const f = await fixture();
    const gone = join(f.claudeHome, 'projects', '-home-me-moved');
    await put(join(gone, 'memory', 'a.md'), '# Moved\n');
    await put(join(gone, 's.jsonl'), `${JSON.stringify({ cwd: '/home/me/moved-away' })}\n`);
    const plan = await planImport({ from: 'claude', sourceHome: f.claudeHome }, fakeHome(f.base), {
      env: f.env,
      managedSettingsDir: f.managedDir,
    });
    const moved = plan.projects.find((p) => p.key === '-home-me-moved');
    expect(moved).toMatchObject({
      cwd: null,
      status: 'skipped',
      reason: expect.stringContaining('records /home/me/moved-away, which is not a folder on this machine'),
    });
    expect(plan.projects.find((p) => p.key === '-home-me-nocwd')?.reason).toMatch(/no session file records one/);
  });

  it('reports an unreadable file without stopping', async () => {
    if (process.getuid?.() === 0) return; // root reads everything
    const f = await fixture();
    const { chmod } = await import('node:fs/promises');
    await put(join(f.memoryDir, 'locked.md'), '# locked\n');
    await chmod(join(f.memoryDir, 'locked.md'), 0o000);
    await mkdir(join(f.memoryDir, 'closed'));
    await chmod(join(f.memoryDir, 'closed'), 0o000);
    const d = await detectImport({ from: 'claude', sourceHome: f.claudeHome }, { env: f.env, managedSettingsDir: f.managedDir });
    expect(d.skipped.filter((s) => s.code === 'unreadable').map((s) => s.path)).toEqual([
      join(f.memoryDir, 'closed'),
      join(f.memoryDir, 'locked.md'),
    ]);
    await chmod(join(f.memoryDir, 'closed'), 0o700);
  });
});
