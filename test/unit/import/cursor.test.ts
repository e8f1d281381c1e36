// Cursor import: memory folders, User Rules from state.vscdb (read only; locked and missing DBs), project rules, provenance header.
import { readFile, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cursorRulesKey, detectImport, planImport } from '../../../electron/core/import';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import { makeTempDir, openGeneratedHome } from '../helpers';
import { makeCursorHome, USER_RULES, type CursorFixture } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function fixture(): Promise<CursorFixture & { base: string; env: NodeJS.ProcessEnv }> {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  return { ...(await makeCursorHome(temp.dir)), base: temp.dir, env: { HOME: temp.dir } };
}

const HEADER = /^<!-- imported-from: cursor; source: (.+); mtime: (\d{4}-\d\d-\d\dT[\d:.]+Z); sha256: ([0-9a-f]{64}) -->\n/;
/** User Rules: no mtime (state.vscdb's changes all the time). */
const RULES_HEADER = /^<!-- imported-from: cursor; source: (.+); sha256: ([0-9a-f]{64}) -->\n/;
/** A rule with front matter: the header right after its closing `---`. */
const AFTER_FRONT = /^(---\n[\s\S]*?\n---\n)(<!-- imported-from: cursor; source: (.+); mtime: [^;]+; sha256: [0-9a-f]{64} -->\n)/;

describe('import detection (Cursor)', () => {
  it('finds memory folders, User Rules and the picked repo rules under keys of their own', async () => {
    const f = await fixture();
    const d = await detectImport({ from: 'cursor', sourceHome: f.cursorHome, cursorStateDb: f.stateDb, repos: [f.repo] }, { env: f.env });
    expect(d.projects.map((p) => [p.key, p.cwd, p.cwdSource, p.origin, p.importableCount])).toEqual([
      [cursorRulesKey(f.repo), f.repo, 'repo', 'cursor-rules', 3],
      ['cursor-user-rules', f.base, 'home', 'cursor-user-rules', 1],
      ['cursor-web', f.webCwd, 'session', 'projects', 2],
    ]);
    expect(d.skipped).toEqual([]);
    expect(d.keyEncodingNote).toMatch(/cursor-user-rules/);
  });

  it('a locked state.vscdb says to close Cursor or retry; a missing one is skipped with the reason', async () => {
    const f = await fixture();
    const holder = openSqlite(f.stateDb);
    try {
      holder.exec('BEGIN EXCLUSIVE');
      holder.prepare("UPDATE ItemTable SET value = 'x' WHERE key = 'workbench.other'").run();
      const d = await detectImport({ from: 'cursor', sourceHome: f.cursorHome, cursorStateDb: f.stateDb }, { env: f.env });
      expect(d.skipped).toEqual([
        expect.objectContaining({
          code: 'locked',
          projectKey: 'cursor-user-rules',
          reason: expect.stringMatching(/close Cursor or retry/),
        }),
      ]);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const missing = await detectImport(
      { from: 'cursor', sourceHome: f.cursorHome, cursorStateDb: join(f.base, 'nope', 'state.vscdb') },
      { env: f.env },
    );
    expect(missing.skipped).toEqual([expect.objectContaining({ code: 'missing', reason: expect.stringMatching(/does not exist/) })]);
    expect(await readdir(join(f.base, 'Cursor', 'User', 'globalStorage'))).toEqual(['state.vscdb']);
  });
});

describe('import plan and apply (Cursor)', () => {
  it('prefixes every file with the provenance header, parses rule front matter, and leaves Claude imports alone', async () => {
    const f = await fixture();
    const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 4, git: false }, { callerPaths: 'person' });
    cleanups.push(() => g.dispose());
    const home = await g.service.call('home.get', {});
    const input = { from: 'cursor' as const, sourceHome: f.cursorHome, cursorStateDb: f.stateDb, repos: [f.repo] };
    const plan = await planImport(input, home, { env: f.env });
    const rules = plan.projects.find((p) => p.key === cursorRulesKey(f.repo));
    expect(rules?.files.map((x) => [x.relPath, x.kind])).toEqual([
      ['cursorrules.md', 'rule'],
      ['rules/nested/db.mdc', 'rule'],
      ['rules/style.mdc', 'rule'],
    ]);
    expect(rules?.files[2]?.frontMatter).toEqual({
      layout: 'flat',
      name: null,
      description: 'House style',
      type: null,
      other: { globs: 'src/**/*.ts', alwaysApply: 'false' },
    });
    const userRules = plan.projects.find((p) => p.key === 'cursor-user-rules')?.files[0];
    const match = RULES_HEADER.exec(userRules?.content ?? '');
    expect(match?.[1]).toBe(`${f.stateDb}#aicontext.personalContext`);
    expect(userRules?.content?.slice(match?.[0].length)).toBe(USER_RULES);
    expect(plan.removed).toEqual([]);
    expect(plan.writes.some((w) => w.relPath.includes('-home-dana-src-webapp'))).toBe(false);

    const outcome = await g.service.call('import.propose', input);
    const id = outcome.proposal?.id ?? '';
    const proposal = await g.service.call('review.get', { id });
    await g.service.call('review.decide', {
      id,
      files: proposal.files.map((x) => ({ ord: x.ord, decisions: Object.fromEntries(x.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    const applied = await g.service.call('review.apply', { id });
    expect(applied.entry.provenance?.map((p) => p.tool)).toEqual(expect.arrayContaining(['cursor']));
    const resources = join(g.root, 'extensions', 'external_agent_import', 'resources');
    const style = await readFile(join(resources, cursorRulesKey(f.repo), 'rules', 'style.mdc'), 'utf8');
    const header = AFTER_FRONT.exec(style);
    expect(header?.[3]).toBe(join(f.repo, '.cursor', 'rules', 'style.mdc'));
    expect(style.replace(header?.[2] ?? '', '')).toBe(await readFile(join(f.repo, '.cursor', 'rules', 'style.mdc'), 'utf8'));
    const legacy = await readFile(join(resources, cursorRulesKey(f.repo), 'cursorrules.md'), 'utf8');
    expect(HEADER.exec(legacy)?.[1]).toBe(join(f.repo, '.cursorrules'));
    expect(await readFile(join(resources, cursorRulesKey(f.repo), 'scope.json'), 'utf8')).toBe(JSON.stringify({ cwd: f.repo }));
    expect((await readdir(resources)).sort()).toEqual(
      ['-home-dana-src-webapp', cursorRulesKey(f.repo), 'cursor-user-rules', 'cursor-web'].sort(),
    );
    const again = await g.service.call('import.propose', input);
    expect(again.nothingToImport).toBe(true);
    // Cursor rewrites state.vscdb all the time: a new mtime with the same User Rules is no change.
    const later = new Date(Date.now() + 60_000);
    await utimes(f.stateDb, later, later);
    expect((await g.service.call('import.propose', input)).nothingToImport).toBe(true);
  });
});
