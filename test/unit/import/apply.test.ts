// Import end to end on a generated Codex home: proposal, Apply under the lease, byte-exact result, enqueue, provenance, idempotence.
import Database from 'better-sqlite3';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IMPORT_INSTRUCTIONS } from '../../../electron/core/import';
import { globalRow, setGlobalRow } from '../apply/helpers';
import { makeTempDir, openGeneratedHome, type GeneratedHomeService } from '../helpers';
import { APP_KEY, FILES, makeClaudeHome, SECRETS, type ClaudeFixture } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const EXT = 'extensions/external_agent_import';

async function setUp(): Promise<{ f: ClaudeFixture; g: GeneratedHomeService; dbPath: string }> {
  const temp = await makeTempDir();
  const f = await makeClaudeHome(temp.dir);
  // The service reads CLAUDE_CONFIG_DIR / HOME from its env; the managed folder is never /etc/claude-code in tests.
  const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 11, git: false, now: new Date() }, { callerPaths: 'person' });
  cleanups.push(async () => {
    await g.dispose();
    await temp.cleanup();
  });
  return { f, g, dbPath: join(g.manifest.codexHome, 'memories_1.sqlite') };
}

const deps = (f: ClaudeFixture) => ({ env: f.env, managedSettingsDir: f.managedDir });

async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('import apply (Claude Code into a generated v1 home)', () => {
  it('writes exactly Codex layout, redacted where chosen, removes vanished projects, enqueues consolidation and records provenance', async () => {
    const { f, g, dbPath } = await setUp();
    const { proposeImport } = await import('../../../electron/core/import');
    const { applyProposal } = await import('../../../electron/core/apply');
    const { createCoordination } = await import('../../../electron/core/service/coordination');
    const { openStudioDb } = await import('../../../electron/core/studio-db');
    const { setDecisions } = await import('../../../electron/core/review');
    const { listHistory } = await import('../../../electron/core/history');
    setGlobalRow(dbPath, {
      status: 'error',
      retry_at: Math.floor(Date.now() / 1000) + 3600,
      retry_remaining: 1,
      input_watermark: 7,
      last_error: 'boom',
    });
    const home = await g.service.call('home.get', {});
    const studio = openStudioDb(join(g.dir, 'data'));
    const proposedAt = Math.floor(Date.now() / 1000);
    const outcome = await proposeImport(
      studio,
      home,
      {
        from: 'claude',
        sourceHome: f.claudeHome,
        choices: {
          secretDefault: 'redact',
          secrets: [{ project: APP_KEY, relPath: 'orphan_idea.md', findingId: 'secrets/github-token@7:10', action: 'skip-file' }],
        },
      },
      deps(f),
    );
    expect(outcome.nothingToImport).toBe(false);
    expect(outcome.enqueue).toEqual(['v1']);
    expect(outcome.proposal?.source).toBe('import');
    // Core names the root of each DB change, so the wizard resumed at Apply or Done reads it without Codex's DB names.
    expect(outcome.proposal?.dbChanges).toEqual([
      expect.objectContaining({ db: 'memories_v1', version: 'v1', sqlKind: 'import.enqueue-consolidation' }),
    ]);
    const proposal = outcome.proposal;
    if (!proposal) throw new Error('expected a proposal');
    setDecisions(
      studio,
      proposal.id,
      proposal.files.map((x) => ({ ord: x.ord, decisions: Object.fromEntries(x.hunks.map((h) => [h.id, 'accept' as const])) })),
    );
    // The v2 target root is missing (a v1 home gets both): Apply creates it under its locks.
    const applied = await applyProposal(
      studio,
      await g.service.call('home.get', {}),
      join(g.dir, 'data'),
      proposal.id,
      createCoordination(),
    );
    expect(applied.lease).toEqual([
      { version: 'v1', previous: 'pending' },
      { version: 'v2', previous: 'absent' },
    ]);

    const ext = join(g.root, EXT);
    const tree = await listTree(join(ext, 'resources'));
    expect(tree.filter((x) => x.startsWith(`${APP_KEY}/`))).toEqual(
      ['MEMORY.md', 'feedback_testing.md', 'notes/deep.md', 'project_notes.md', 'scope.json', 'user_role.md'].map((x) => `${APP_KEY}/${x}`),
    );
    const read = (rel: string) => readFile(join(ext, 'resources', APP_KEY, rel), 'utf8');
    expect(await readFile(join(ext, 'instructions.md'), 'utf8')).toBe(IMPORT_INSTRUCTIONS);
    expect(await read('scope.json')).toBe(`{"cwd":"${f.appCwd}"}`);
    expect(await read('MEMORY.md')).toBe(FILES.index);
    expect(await read('project_notes.md')).toBe(FILES.notes);
    expect(await read('user_role.md')).toBe(FILES.userRole);
    expect(await read('feedback_testing.md')).toBe(FILES.feedback.replace(SECRETS.openai, '[REDACTED_SECRET]'));
    // The demo home's earlier import (-home-dana-src-webapp) never came from this Claude home (nothing records it):
    // it is kept and listed, not removed (it was, before: "Import deletes another source's memory").
    expect(outcome.proposal?.files.filter((x) => x.change === 'delete')).toEqual([]);
    expect(tree.filter((x) => x.startsWith('-home-dana-src-webapp/'))).toContain('-home-dana-src-webapp/scope.json');
    const plan = await g.service.call('import.plan', { from: 'claude', sourceHome: f.claudeHome, choices: { secretDefault: 'redact' } });
    expect(plan.kept).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: '-home-dana-src-webapp',
          version: 'v1',
          why: 'from-another-source',
          reason: expect.stringMatching(/No import of it is recorded here/),
        }),
      ]),
    );
    expect(plan.removed).toEqual([]);

    const row = globalRow(dbPath);
    expect(row).toMatchObject({ status: 'pending', retry_at: null, retry_remaining: 3 });
    expect(row?.input_watermark).toBeGreaterThanOrEqual(proposedAt); // enqueue_global_consolidation(now), now > 7

    const entry = listHistory(studio).find((e) => e.proposalId === outcome.proposal?.id);
    const memory = entry?.provenance?.find((p) => p.relPath === `${EXT}/resources/${APP_KEY}/MEMORY.md`);
    expect(memory).toMatchObject({ version: 'v1', tool: 'claude', sourcePath: join(f.memoryDir, 'MEMORY.md') });
    expect(memory?.sourceSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(entry?.provenance?.some((p) => p.relPath.endsWith('scope.json'))).toBe(false);

    // Idempotence: nothing changed in the source, nothing to import.
    const again = await proposeImport(
      studio,
      home,
      {
        from: 'claude',
        sourceHome: f.claudeHome,
        choices: { secretDefault: 'redact', secrets: [{ project: APP_KEY, relPath: 'orphan_idea.md', action: 'skip-file' }] },
      },
      deps(f),
    );
    expect(again).toMatchObject({ proposal: null, nothingToImport: true, writes: [] });
    studio.close();
  });

  it('enqueues with no global row yet: the row is created pending with input_watermark = now', async () => {
    const { f, g, dbPath } = await setUp();
    const db = new Database(dbPath);
    db.prepare("DELETE FROM jobs WHERE kind = 'memory_consolidate_global'").run();
    db.close();
    const before = Math.floor(Date.now() / 1000);
    const { id } = await importPlanThroughService(g, f);
    await g.service.call('review.apply', { id });
    const row = globalRow(dbPath);
    expect(row).toMatchObject({ status: 'pending', retry_remaining: 3, ownership_token: null });
    expect(row?.input_watermark).toBeGreaterThanOrEqual(before);
    expect(row?.input_watermark).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('refuses to propose while a finding is unresolved, naming the file and line', async () => {
    const { f, g } = await setUp();
    const { proposeImport } = await import('../../../electron/core/import');
    const { openStudioDb } = await import('../../../electron/core/studio-db');
    const studio = openStudioDb(join(g.dir, 'data'));
    const home = await g.service.call('home.get', {});
    await expect(proposeImport(studio, home, { from: 'claude', sourceHome: f.claudeHome }, deps(f))).rejects.toMatchObject({
      kind: 'Invalid',
      path: join(f.memoryDir, 'feedback_testing.md'),
      message: expect.stringMatching(/feedback_testing\.md line 12 has a possible secret/),
    });
    studio.close();
  });

  it('is refused with Locked while Codex holds the lease, and writes nothing', async () => {
    const { f, g, dbPath } = await setUp();
    const now = Math.floor(Date.now() / 1000);
    const outcome = await importPlanThroughService(g, f);
    setGlobalRow(dbPath, { status: 'running', worker_id: 'codex-thread', ownership_token: 'codex-token', lease_until: now + 3600 });
    const before = await listTree(join(g.root, EXT));
    const result = await g.service.dispatch('review.apply', { id: outcome.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'Locked' } });
    expect(await listTree(join(g.root, EXT))).toEqual(before);
    expect(globalRow(dbPath)).toMatchObject({ status: 'running', ownership_token: 'codex-token' });
  });

  it('removes what disappeared from the source: a deleted file, then a whole project', async () => {
    const { f, g } = await setUp();
    const applied = await importPlanThroughService(g, f);
    await g.service.call('review.apply', { id: applied.id });
    await rm(join(f.memoryDir, 'user_role.md'));
    await writeFile(join(f.memoryDir, 'MEMORY.md'), `${FILES.index}- one more line\n`);
    const input = { from: 'claude' as const, sourceHome: f.claudeHome, choices: { secretDefault: 'redact' as const } };
    const plan = await g.service.call('import.plan', input);
    const base = `${EXT}/resources/${APP_KEY}`;
    // Both roots (a v1 home: v1 where Codex's importer writes, v2 kept in step) change the same way.
    for (const version of ['v1', 'v2'] as const) {
      expect(plan.writes.filter((w) => w.version === version).map((w) => [w.relPath, w.change])).toEqual([
        [`${base}/MEMORY.md`, 'modify'],
        [`${base}/user_role.md`, 'delete'],
      ]);
    }
    await rm(join(f.claudeHome, 'projects', APP_KEY), { recursive: true });
    const gone = await g.service.call('import.plan', input);
    expect(gone.removed).toEqual(
      ['v1', 'v2'].map((version) =>
        expect.objectContaining({ key: APP_KEY, version, files: expect.arrayContaining(['scope.json', 'MEMORY.md', 'notes/deep.md']) }),
      ),
    );
    expect(gone.writes.every((w) => w.change === 'delete')).toBe(true);
    const outcome = await g.service.call('import.propose', input);
    await acceptAndApply(g, outcome.proposal?.id ?? '');
    // Only this source's own import went; the demo's earlier import, from another source, stays.
    expect((await listTree(join(g.root, EXT, 'resources'))).every((x) => x.startsWith('-home-dana-src-webapp/'))).toBe(true);
    const history = await g.service.call('history.list', {});
    expect(history[0]?.summary).toBe('Import from Claude Code: 1 removed');
  });
});

async function acceptAndApply(g: GeneratedHomeService, id: string): Promise<void> {
  const proposal = await g.service.call('review.get', { id });
  await g.service.call('review.decide', {
    id,
    files: proposal.files.map((x) => ({ ord: x.ord, decisions: Object.fromEntries(x.hunks.map((h) => [h.id, 'accept' as const])) })),
  });
  await g.service.call('review.apply', { id });
}

/** Proposes the fixture's import through the service channels (env from the fixture) and accepts every hunk. */
async function importPlanThroughService(g: GeneratedHomeService, f: ClaudeFixture): Promise<{ id: string }> {
  const outcome = await g.service.call('import.propose', {
    from: 'claude',
    sourceHome: f.claudeHome,
    choices: { secretDefault: 'redact' },
  });
  const id = outcome.proposal?.id ?? '';
  const proposal = await g.service.call('review.get', { id });
  await g.service.call('review.decide', {
    id,
    files: proposal.files.map((x) => ({ ord: x.ord, decisions: Object.fromEntries(x.hunks.map((h) => [h.id, 'accept' as const])) })),
  });
  return { id };
}
