// Markdown and rule files are recognised whatever the case of their extension (NOTES.MD, Style.MDC).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cursorRulesKey, detectImport } from '../../../electron/core/import';
import { makeTempDir } from '../helpers';
import { APP_KEY, makeClaudeHome, makeCursorHome, put } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('file extensions', () => {
  it('imports .MD memory files and .MDC rules like .md and .mdc', async () => {
    const temp = await makeTempDir();
    cleanups.push(temp.cleanup);
    const claude = await makeClaudeHome(temp.dir);
    await put(join(claude.memoryDir, 'NOTES.MD'), '# Upper case\n');
    const d = await detectImport(
      { from: 'claude', sourceHome: claude.claudeHome },
      { env: claude.env, managedSettingsDir: claude.managedDir },
    );
    expect(d.projects.find((p) => p.key === APP_KEY)?.importableCount).toBe(7);
    expect(d.skipped.some((s) => s.path.endsWith('NOTES.MD'))).toBe(false);

    const cursor = await makeCursorHome(temp.dir);
    await put(join(cursor.repo, '.cursor', 'rules', 'Upper.MDC'), '---\ndescription: Upper\n---\n\nBody.\n');
    const c = await detectImport(
      { from: 'cursor', sourceHome: cursor.cursorHome, cursorStateDb: cursor.stateDb, repos: [cursor.repo] },
      { env: { HOME: temp.dir } },
    );
    expect(c.projects.find((p) => p.key === cursorRulesKey(cursor.repo))?.importableCount).toBe(4);
    expect(c.skipped).toEqual([]);
  });
});
