// Only programs and hosts the person chose: over HTTP the codex command, base URL and key variable are read-only;
// in Electron main's dialogs choose them; the command line sets them for serve. Real HTTP, real child processes.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineSettings, EngineSettingsView } from '../../../shared/consolidate';
import { validateBaseUrl } from '../../../electron/core/consolidate/engine-settings';
import type { TrustedSettingsUi } from '../../../electron/core/consolidate/trusted-settings';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { applyEngineFlags } from '../../../electron/host/cli-engine-flags';
import { startServeHost } from '../../../electron/host/serve';
import { makeTempDir } from '../helpers';

const root = resolve(__dirname, '..', '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js'));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(
  ui: TrustedSettingsUi | null = null,
): Promise<{ dir: string; service: StudioService; codex: string; notCodex: string }> {
  const temp = await makeTempDir();
  const codex = join(temp.dir, 'codex');
  const notCodex = join(temp.dir, 'not-codex');
  await writeFile(codex, '#!/bin/sh\necho "codex-cli 0.169.0"\n', { mode: 0o755 });
  await writeFile(notCodex, '#!/bin/sh\necho "hello from a script"\n', { mode: 0o755 });
  const service = createStudioService({
    home: { codexHome: join(temp.dir, 'home'), source: 'flag' },
    dataDir: join(temp.dir, 'data'),
    host: ui ? 'electron' : 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
    trustedSettingsUi: ui,
  });
  cleanups.push(async () => {
    service.dispose();
    await temp.cleanup();
  });
  return { dir: temp.dir, service, codex, notCodex };
}

const withChange = (s: EngineSettings, change: (s: EngineSettings) => void): EngineSettings => {
  const copy = structuredClone(s);
  change(copy);
  return copy;
};

describe('serve mode: the settings that run a program or send the key are read-only over HTTP', () => {
  it('refuses to change the command, base URL or key variable, accepts the rest, and says where the key goes', async () => {
    const { service } = await setup();
    const handle = await startServeHost({ service, rendererDir: join(root, 'out', 'renderer') });
    cleanups.unshift(() => handle.close());
    const call = async (channel: string, input: unknown) =>
      (
        await fetch(`http://127.0.0.1:${handle.port}/api/${channel}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${handle.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        })
      ).json() as Promise<{ ok: true; value: EngineSettingsView } | { ok: false; error: { kind: string; message: string; hint?: string } }>;
    const view = await call('consolidate.settings', {});
    if (!view.ok) throw new Error(view.error.message);
    expect(view.value.trust).toMatchObject({ keyTargetEditable: false, canChooseCodexCommand: false, keyHost: 'api.openai.com' });
    const base = view.value.settings;
    for (const change of [
      (s: EngineSettings) => void (s.codex.command = '/bin/sh'),
      (s: EngineSettings) => void (s.openai.baseUrl = 'https://collector.example/v1'),
      (s: EngineSettings) => void (s.openai.apiKeyEnv = 'GITHUB_TOKEN'),
    ]) {
      const refused = await call('consolidate.saveSettings', { settings: withChange(base, change) });
      expect(refused).toMatchObject({ ok: false, error: { kind: 'Unsupported', hint: expect.stringContaining('--codex-command') } });
    }
    expect(await call('consolidate.chooseCodexCommand', {})).toMatchObject({ ok: false, error: { kind: 'Unsupported' } });
    const saved = await call('consolidate.saveSettings', { settings: withChange(base, (s) => void (s.openai.model = 'gpt-test')) });
    expect(saved).toMatchObject({
      ok: true,
      value: { settings: { openai: { model: 'gpt-test', baseUrl: 'https://api.openai.com/v1' }, codex: { command: null } } },
    });
  });

  it('the command line sets them: --codex-command must answer --version as codex-cli, the base URL https or loopback', async () => {
    const { dir, codex, notCodex } = await setup();
    const data = join(dir, 'flags-data');
    expect(
      await applyEngineFlags(data, {
        'codex-command': codex,
        'openai-base-url': 'http://127.0.0.1:8080/v1',
        'openai-key-env': 'LOCAL_LLM_TOKEN',
      }),
    ).toEqual([
      `Codex command: ${codex} (codex-cli 0.169.0)`,
      'OpenAI-compatible engine: http://127.0.0.1:8080/v1, key from $LOCAL_LLM_TOKEN',
    ]);
    const file = JSON.parse(await readFile(join(data, 'engine-settings.json'), 'utf8')) as EngineSettings;
    expect(file).toMatchObject({
      codex: { command: codex },
      openai: { baseUrl: 'http://127.0.0.1:8080/v1', apiKeyEnv: 'LOCAL_LLM_TOKEN' },
    });
    await expect(applyEngineFlags(data, { 'codex-command': notCodex })).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringContaining('is not the Codex CLI: `--version` printed "hello from a script"'),
    });
    await expect(applyEngineFlags(data, { 'openai-base-url': 'http://10.1.2.3/v1' })).rejects.toMatchObject({ kind: 'Invalid' });
    // A refused flag changed nothing.
    expect(JSON.parse(await readFile(join(data, 'engine-settings.json'), 'utf8'))).toEqual(file);
    const settingsFile = join(dir, 'settings.json');
    await writeFile(
      settingsFile,
      JSON.stringify({ engine: 'openai', openai: { baseUrl: 'https://llm.internal.example/v1', apiKeyEnv: 'INTERNAL_API_KEY' } }),
    );
    await applyEngineFlags(data, { 'engine-settings': settingsFile });
    expect(JSON.parse(await readFile(join(data, 'engine-settings.json'), 'utf8'))).toMatchObject({
      engine: 'openai',
      codex: { command: null },
      openai: { baseUrl: 'https://llm.internal.example/v1' },
    });
  });

  it.skipIf(!built)('serve refuses to start with a program that is not codex (exit 2, the reason)', async () => {
    const { dir, notCodex } = await setup();
    const result = spawnSync(
      process.execPath,
      [bin, 'serve', '--codex-home', join(dir, 'home'), '--data-dir', join(dir, 'd'), '--port', '0', '--codex-command', notCodex],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not the Codex CLI');
  });

  it('the openai engine accepts https, and plain http only to this machine', () => {
    expect(validateBaseUrl('https://api.example.com/v1/')).toBe('https://api.example.com/v1');
    for (const ok of ['http://127.0.0.1:8080/v1', 'http://127.9.9.9/v1', 'http://localhost:1234', 'http://[::1]:8080/v1'])
      expect(validateBaseUrl(ok)).toBe(ok);
    for (const bad of [
      'http://192.168.1.10/v1',
      'http://example.com/v1',
      'http://127.0.0.1.nip.io/v1',
      'ftp://127.0.0.1/',
      'https://user:pw@api.example.com',
    ]) {
      expect(() => validateBaseUrl(bad), bad).toThrow(/https:\/\/, or http:\/\/ to this machine/);
    }
  });
});

describe('Electron: main chooses the command with a file dialog and confirms an unusual key variable', () => {
  it('saves a picked codex that answers codex-cli; refuses another program; a cancelled dialog changes nothing', async () => {
    const picks: Array<string | null> = [];
    const ui: TrustedSettingsUi = { pickCodexCommand: async () => picks.shift() ?? null, confirm: async () => false };
    const { service, codex, notCodex } = await setup(ui);
    picks.push(notCodex);
    await expect(service.call('consolidate.chooseCodexCommand', {})).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringContaining('is not the Codex CLI'),
    });
    expect((await service.call('consolidate.settings', {})).settings.codex.command).toBeNull();
    picks.push(codex);
    const chosen = await service.call('consolidate.chooseCodexCommand', {});
    expect(chosen.settings.codex.command).toBe(codex);
    expect(chosen.trust).toMatchObject({ canChooseCodexCommand: true, keyTargetEditable: true });
    picks.push(null);
    expect((await service.call('consolidate.chooseCodexCommand', {})).settings.codex.command).toBe(codex);
    // The page may not type a path, even one that is codex.
    await expect(
      service.call('consolidate.saveSettings', { settings: withChange(chosen.settings, (s) => void (s.codex.command = notCodex)) }),
    ).rejects.toMatchObject({ kind: 'Invalid' });
  });

  it('a key variable not named like an API key needs the confirmation main asks for', async () => {
    const answers: boolean[] = [];
    const asked: string[] = [];
    const ui: TrustedSettingsUi = {
      pickCodexCommand: async () => null,
      confirm: async (message, detail) => (asked.push(`${message} ${detail}`), answers.shift() ?? false),
    };
    const { service } = await setup(ui);
    const base = (await service.call('consolidate.settings', {})).settings;
    const pat = withChange(base, (s) => void (s.openai.apiKeyEnv = 'GITHUB_PAT'));
    answers.push(false);
    await expect(service.call('consolidate.saveSettings', { settings: pat })).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringContaining('was not confirmed'),
    });
    expect(asked[0]).toContain('GITHUB_PAT');
    expect(asked[0]).toContain('api.openai.com');
    answers.push(true);
    expect((await service.call('consolidate.saveSettings', { settings: pat })).settings.openai.apiKeyEnv).toBe('GITHUB_PAT');
    const named = withChange(base, (s) => void (s.openai.apiKeyEnv = 'AZURE_OPENAI_API_KEY'));
    expect((await service.call('consolidate.saveSettings', { settings: named })).settings.openai.apiKeyEnv).toBe('AZURE_OPENAI_API_KEY');
    expect(asked).toHaveLength(2);
  });
});
