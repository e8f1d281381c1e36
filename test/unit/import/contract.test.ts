// The import channels through dispatch (input parsed, output validated against the contract), on v1+v2 homes.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, openGeneratedHome } from '../helpers';
import { APP_KEY, makeClaudeHome, makeCursorHome } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('import channels', () => {
  it('answer with contract-valid data for both sources, targeting v1 and v2 when both roots exist', async () => {
    const temp = await makeTempDir();
    const claude = await makeClaudeHome(temp.dir);
    const cursor = await makeCursorHome(temp.dir);
    const g = await openGeneratedHome({ scale: 'small', version: 'both', seed: 6, git: false }, { callerPaths: 'person' });
    cleanups.push(async () => {
      await g.dispose();
      await temp.cleanup();
    });
    const detect = await g.service.dispatch('import.detect', { from: 'claude', sourceHome: claude.claudeHome });
    expect(detect).toMatchObject({ ok: true });
    const plan = await g.service.dispatch('import.plan', {
      from: 'claude',
      sourceHome: claude.claudeHome,
      choices: { secretDefault: 'redact' },
    });
    expect(plan.ok, JSON.stringify(plan).slice(0, 500)).toBe(true);
    if (!plan.ok) return;
    const value = plan.value as { targets: { version: string }[]; writes: { version: string; relPath: string }[] };
    expect(value.targets.map((t) => t.version)).toEqual(['v1', 'v2']);
    const scope = `extensions/external_agent_import/resources/${APP_KEY}/scope.json`;
    expect(value.writes.filter((w) => w.relPath === scope).map((w) => w.version)).toEqual(['v1', 'v2']);
    const cursorPlan = await g.service.dispatch('import.plan', {
      from: 'cursor',
      sourceHome: cursor.cursorHome,
      cursorStateDb: cursor.stateDb,
      repos: [cursor.repo],
    });
    expect(cursorPlan).toMatchObject({ ok: true });
    const proposed = await g.service.dispatch('import.propose', {
      from: 'claude',
      sourceHome: claude.claudeHome,
      choices: { secretDefault: 'skip-file' },
    });
    expect(proposed).toMatchObject({ ok: true, value: { nothingToImport: false, enqueue: ['v1', 'v2'] } });
    const refused = await g.service.dispatch('import.propose', { from: 'claude', sourceHome: claude.claudeHome });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'Invalid', path: join(claude.memoryDir, 'feedback_testing.md') } });
    expect(await g.service.dispatch('import.plan', { from: 'vscode' })).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
  });
});
