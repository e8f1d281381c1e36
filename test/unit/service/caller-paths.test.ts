// A path a page names is never trusted on its own: promotion targets are projects Codex knows or a folder the person
// chose in main's dialog; an import's source home is a detected one, a chosen one, or one named when serve started.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrustedSettingsUi } from '../../../electron/core/consolidate/trusted-settings';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import { createStudioService, type StudioService, type StudioServiceOptions } from '../../../electron/core/service/service';
import { startServeHost } from '../../../electron/host/serve';
import { createDoctorHome, type DoctorHome } from '../../fixtures/doctor-home';
import { makeTempDir } from '../helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(options: Partial<StudioServiceOptions> = {}): Promise<{ dir: string; home: DoctorHome; service: StudioService }> {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  const home = await createDoctorHome(temp.dir);
  const service = createStudioService({
    home: { codexHome: home.codexHome, source: 'flag' },
    dataDir: join(temp.dir, 'data'),
    host: 'serve',
    appVersion: 'test',
    watch: false,
    indexing: false,
    log: () => undefined,
    env: { HOME: join(temp.dir, 'user') },
    ...options,
  });
  cleanups.push(() => service.dispose());
  return { dir: temp.dir, home, service };
}

async function ingestionId(service: StudioService): Promise<string> {
  const report = await service.call('doctor.run', { version: 'v1' });
  return report.entries.find((e) => e.title === 'data-pipeline ingestion')?.id as string;
}

/** A Claude Code home with one project, somewhere a page could name. */
async function claudeHome(dir: string): Promise<string> {
  const home = join(dir, 'other-claude');
  await mkdir(join(home, 'projects', '-p', 'memory'), { recursive: true });
  await writeFile(join(home, 'projects', '-p', 'memory', 'MEMORY.md'), '# Private notes\n');
  return home;
}

describe('promotion targets named by a page', () => {
  it('refuses a folder Codex does not know, and writes nothing there', async () => {
    const { dir, service } = await setup();
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(elsewhere);
    const id = await ingestionId(service);
    await expect(
      service.call('doctor.promote', { version: 'v1', file: 'MEMORY.md', entryId: id, project: elsewhere }),
    ).rejects.toMatchObject({
      kind: 'Invalid',
      path: elsewhere,
      message: expect.stringContaining('is not a project Codex knows'),
    });
    expect((await service.call('review.list', {})).proposals).toEqual([]);
    expect(existsSync(join(elsewhere, 'AGENTS.md'))).toBe(false);
  });

  it('accepts a folder a memory entry applies to, a thread cwd, and a folder chosen in main’s dialog', async () => {
    const picks: string[] = [];
    const ui: TrustedSettingsUi = {
      pickCodexCommand: async () => null,
      confirm: async () => false,
      pickPath: async () => picks.shift() ?? null,
    };
    const { dir, home, service } = await setup({ trustedSettingsUi: ui });
    const id = await ingestionId(service);
    const promote = (project: string) => service.call('doctor.promote', { version: 'v1', file: 'MEMORY.md', entryId: id, project });
    expect((await promote(home.webapp)).files[1]).toMatchObject({ target: 'project', root: home.webapp });
    const threaded = join(dir, 'threaded');
    await mkdir(threaded);
    const state = openSqlite(join(home.codexHome, 'state_5.sqlite'));
    state.prepare('UPDATE threads SET cwd = ? WHERE id = (SELECT id FROM threads LIMIT 1)').run(threaded);
    state.close();
    expect((await promote(threaded)).files[1]).toMatchObject({ root: threaded });
    const picked = join(dir, 'picked');
    await mkdir(picked);
    await expect(promote(picked)).rejects.toMatchObject({ kind: 'Invalid' });
    picks.push(picked);
    expect(await service.call('app.choosePath', { purpose: 'project' })).toEqual({ path: picked });
    expect((await promote(picked)).files[1]).toMatchObject({ root: picked });
  });

  it('on the command line the folder is the person’s own', async () => {
    const { dir, service } = await setup({ callerPaths: 'person' });
    const typed = join(dir, 'typed');
    await mkdir(typed);
    const proposal = await service.call('doctor.promote', {
      version: 'v1',
      file: 'MEMORY.md',
      entryId: await ingestionId(service),
      project: typed,
    });
    expect(proposal.files[1]).toMatchObject({ root: typed });
  });
});

describe('import sources named by a page', () => {
  it('refuses a crafted source home or Cursor DB over real HTTP, and has no dialog to offer there', async () => {
    const { dir, service } = await setup();
    const other = await claudeHome(dir);
    const rendererDir = join(dir, 'renderer');
    await mkdir(rendererDir);
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html>');
    const host = await startServeHost({ service, rendererDir });
    cleanups.push(() => host.close());
    const call = async (channel: string, body: unknown) =>
      (await fetch(`http://127.0.0.1:${host.port}/api/${channel}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
        body: JSON.stringify(body),
      }).then((r) => r.json())) as { ok: boolean; error?: { kind: string; message: string; path?: string } };
    for (const channel of ['import.detect', 'import.plan', 'import.propose']) {
      const answer = await call(channel, { from: 'claude', sourceHome: other });
      expect(answer, channel).toMatchObject({ ok: false, error: { kind: 'Invalid', path: other } });
      expect(JSON.stringify(answer)).not.toContain('Private notes');
    }
    const db = join(dir, 'some.sqlite');
    expect(await call('import.detect', { from: 'cursor', cursorStateDb: db })).toMatchObject({ ok: false, error: { path: db } });
    expect(await call('app.choosePath', { purpose: 'import-source' })).toMatchObject({ ok: false, error: { kind: 'Unsupported' } });
    expect((await call('import.detect', { from: 'claude' })).ok).toBe(true);
  });

  it('accepts the detected home, a folder named when serve started, and one chosen in main’s dialog', async () => {
    const temp = await makeTempDir();
    cleanups.push(temp.cleanup);
    const other = await claudeHome(temp.dir);
    const keys = (d: { projects: Array<{ key: string }> }) => d.projects.map((p) => p.key);
    const byEnv = await setup({ env: { HOME: temp.dir, CLAUDE_CONFIG_DIR: other } });
    expect(keys(await byEnv.service.call('import.detect', { from: 'claude', sourceHome: other }))).toEqual(['-p']);
    const named = await setup({ importSources: [temp.dir] });
    expect(keys(await named.service.call('import.detect', { from: 'claude', sourceHome: other }))).toEqual(['-p']);
    const ui: TrustedSettingsUi = { pickCodexCommand: async () => null, confirm: async () => false, pickPath: async () => other };
    const picked = await setup({ trustedSettingsUi: ui });
    await expect(picked.service.call('import.detect', { from: 'claude', sourceHome: other })).rejects.toMatchObject({ kind: 'Invalid' });
    await picked.service.call('app.choosePath', { purpose: 'import-source' });
    expect(keys(await picked.service.call('import.detect', { from: 'claude', sourceHome: other }))).toEqual(['-p']);
  });
});

describe('project folders a doctor run reads, named by a page', () => {
  it('refuses one Codex does not know, accepts a known one, one chosen in main’s dialog, and any on the command line', async () => {
    const picks: string[] = [];
    const ui: TrustedSettingsUi = {
      pickCodexCommand: async () => null,
      confirm: async () => false,
      pickPath: async () => picks.shift() ?? null,
    };
    const { dir, home, service } = await setup({ trustedSettingsUi: ui });
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'AGENTS.md'), '# Private rules\n');
    await expect(service.call('doctor.run', { version: 'v1', projects: [home.webapp, elsewhere] })).rejects.toMatchObject({
      kind: 'Invalid',
      path: elsewhere,
      message: expect.stringContaining('does not read its AGENTS.md'),
    });
    const finding = (await service.call('doctor.run', { version: 'v1' })).findings.find((f) => f.kind === 'duplicate');
    expect(finding, 'the doctor home has a duplicate finding').toBeDefined();
    const fixId = `${finding?.id ?? ''}.merge`;
    await expect(service.call('doctor.fix', { version: 'v1', fixId, projects: [elsewhere] })).rejects.toMatchObject({ path: elsewhere });
    // Explain and model merge run the doctor on the same projects (and would send their rules to a model).
    for (const channel of ['doctor.explain', 'doctor.modelMerge'] as const)
      await expect(
        service.call(channel, { version: 'v1', findingId: finding?.id ?? '', projects: [elsewhere] }),
        channel,
      ).rejects.toMatchObject({
        kind: 'Invalid',
        path: elsewhere,
      });
    await expect(service.call('doctor.run', { version: 'v1', projects: ['elsewhere'] })).rejects.toMatchObject({
      message: expect.stringContaining('not an absolute path'),
    });
    expect((await service.call('doctor.run', { version: 'v1', projects: [home.webapp] })).codexHome).toBe(home.codexHome);
    picks.push(elsewhere);
    await service.call('app.choosePath', { purpose: 'project' });
    await expect(service.call('doctor.run', { version: 'v1', projects: [elsewhere] })).resolves.toBeDefined();
    const person = await setup({ callerPaths: 'person' });
    const typed = join(person.dir, 'typed');
    await mkdir(typed);
    await expect(person.service.call('doctor.run', { version: 'v1', projects: [typed] })).resolves.toBeDefined();
  });
});

describe('repositories an import looks in, named by a page', () => {
  /** A repository with one Cursor project rule. */
  async function repoWithRule(dir: string): Promise<string> {
    await mkdir(join(dir, '.cursor', 'rules'), { recursive: true });
    await writeFile(
      join(dir, '.cursor', 'rules', 'style.mdc'),
      '---\ndescription: Private style\nalwaysApply: true\n---\n\nPrivate rule.\n',
    );
    return dir;
  }
  const ruleProjects = (d: { projects: Array<{ key: string }> }) => d.projects.filter((p) => p.key.startsWith('cursor-rules-')).length;

  it('refuses one that is neither known, chosen nor inside an import source, on every import channel, and a relative one', async () => {
    const { dir, service } = await setup();
    const repo = await repoWithRule(join(dir, 'stranger'));
    const tries: Array<[string, unknown]> = [
      ...(['import.detect', 'import.plan', 'import.propose'] as const).flatMap((channel) => [
        [channel, { from: 'cursor', repos: [repo] }] as [string, unknown],
        [channel, { from: 'claude', repos: [repo] }] as [string, unknown],
      ]),
      ['import.fileText', { plan: { from: 'cursor', repos: [repo] }, project: 'cursor-rules-x', relPath: 'style.mdc' }],
    ];
    for (const [channel, input] of tries)
      await expect(service.call(channel as 'import.detect', input as never), channel).rejects.toMatchObject({
        kind: 'Invalid',
        path: repo,
        message: expect.stringContaining('is not inside an import source'),
      });
    await expect(service.call('import.detect', { from: 'cursor', repos: ['stranger'] })).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringContaining('not an absolute path'),
    });
  });

  it('accepts a project Codex knows, one inside a folder named when serve started, one chosen in main’s dialog', async () => {
    const picks: string[] = [];
    const ui: TrustedSettingsUi = {
      pickCodexCommand: async () => null,
      confirm: async () => false,
      pickPath: async () => picks.shift() ?? null,
    };
    const { dir, home, service } = await setup({ trustedSettingsUi: ui });
    const known = await repoWithRule(home.webapp);
    expect(ruleProjects(await service.call('import.detect', { from: 'cursor', repos: [known] }))).toBe(1);
    const chosen = await repoWithRule(join(dir, 'chosen'));
    await expect(service.call('import.detect', { from: 'cursor', repos: [chosen] })).rejects.toMatchObject({ path: chosen });
    picks.push(chosen);
    expect(await service.call('app.choosePath', { purpose: 'repo' })).toEqual({ path: chosen });
    expect(ruleProjects(await service.call('import.detect', { from: 'cursor', repos: [chosen] }))).toBe(1);
    const temp = await makeTempDir();
    cleanups.push(temp.cleanup);
    const inside = await repoWithRule(join(temp.dir, 'src', 'inside'));
    const named = await setup({ importSources: [temp.dir] });
    expect(ruleProjects(await named.service.call('import.detect', { from: 'cursor', repos: [inside] }))).toBe(1);
  });
});
