// The import plan lints its files as they would be written in memory: a Claude topic without front matter is named
// with its warning before anything is proposed; imported Cursor rules are not read as Claude memory files.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planImport } from '../../../electron/core/import';
import { parseMemoryFile } from '../../../electron/core/formats';
import { makeTempDir } from '../helpers';
import { APP_KEY, fakeHome, makeClaudeHome, makeCursorHome, put } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function temp(): Promise<string> {
  const t = await makeTempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('import plan lint', () => {
  it('lists the lint warnings each planned file will raise in memory, per file', async () => {
    const f = await makeClaudeHome(await temp());
    await put(join(f.memoryDir, 'loose_note.md'), 'A note without any front matter.\n');
    const plan = await planImport({ from: 'claude', sourceHome: f.claudeHome, projects: [APP_KEY] }, fakeHome(f.base), {
      env: f.env,
      managedSettingsDir: f.managedDir,
    });
    const lint = plan.lint ?? [];
    const loose = lint.filter((l) => l.relPath.endsWith(`/${APP_KEY}/loose_note.md`));
    expect(loose.length).toBeGreaterThan(0);
    for (const l of loose) {
      expect(l.projectKey).toBe(APP_KEY);
      expect(l.relPath).toMatch(/^extensions\/external_agent_import\/resources\//);
      expect(l.diagnostics.map((d) => d.rule)).toContain('claude/front-matter');
      expect(l.diagnostics.every((d) => d.severity !== 'info')).toBe(true);
    }
    // Every listed file is one the plan writes, and a well-formed topic raises nothing.
    const written = new Set(plan.writes.map((w) => `${w.version} ${w.relPath}`));
    for (const l of lint) expect(written.has(`${l.version} ${l.relPath}`)).toBe(true);
    expect(lint.some((l) => l.relPath.endsWith('/user_role.md'))).toBe(false);
  });

  it('does not lint imported Cursor rules as Claude memory files', async () => {
    const base = await temp();
    const f = await makeCursorHome(base);
    const input = { from: 'cursor' as const, sourceHome: f.cursorHome, cursorStateDb: f.stateDb, repos: [f.repo] };
    const plan = await planImport(input, fakeHome(base), { env: { HOME: base } });
    const rules = plan.writes.filter((w) => /\/resources\/cursor-(rules-|user-rules\/)/.test(w.relPath) && w.relPath.endsWith('.md'));
    expect(rules.length).toBeGreaterThan(0);
    for (const w of rules) expect(parseMemoryFile('no front matter\n', { path: w.relPath, version: w.version }).kind).toBe('unknown');
    expect((plan.lint ?? []).filter((l) => l.projectKey?.startsWith('cursor-rules-') || l.projectKey === 'cursor-user-rules')).toEqual([]);
    // A Claude import's topic file still reads as one.
    expect(parseMemoryFile('x\n', { path: `extensions/external_agent_import/resources/${APP_KEY}/style.md`, version: 'v1' }).kind).toBe(
      'claude_memory_topic',
    );
  });
});
