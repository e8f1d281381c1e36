// Engine settings on disk and the API key store: defaults, round trip, corrupt file, encrypted key, env first.
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  API_KEY_FILE,
  ENGINE_SETTINGS_FILE,
  defaultEngineSettings,
  loadEngineSettings,
  resolveApiKey,
  saveApiKey,
  saveEngineSettings,
  type SecretStore,
} from '../../../electron/core/consolidate/engine-settings';
import { consolidationInstructions, readInstructionFacts } from '../../../electron/core/consolidate/instructions';
import { makeTempDir } from '../helpers';

/** A real (if weak) implementation of the interface: XOR with a fixed pad, then reversed. */
function xorStore(available = true): SecretStore {
  const pad = 0x5a;
  const flip = (buf: Buffer) => Buffer.from(buf.map((b) => b ^ pad)).reverse();
  return {
    available: () => available,
    encrypt: (plain) => flip(Buffer.from(plain, 'utf8')),
    decrypt: (buf) => flip(Buffer.from(buf)).toString('utf8'),
  };
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(async () => {
  await cleanup();
});

describe('engine settings', () => {
  it('gives the defaults when there is no file', async () => {
    const { settings, notes } = await loadEngineSettings(dir);
    expect(settings).toEqual(defaultEngineSettings());
    expect(settings).toMatchObject({
      engine: 'builtin',
      codex: { command: null, model: null, timeoutSeconds: 1800 },
      openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-5.4', apiKeyEnv: 'OPENAI_API_KEY', timeoutSeconds: 600, maxRetries: 4 },
    });
    expect(notes).toEqual([]);
  });

  it('saves atomically and loads back, normalising the base URL and blank strings', async () => {
    const input = defaultEngineSettings();
    input.engine = 'openai';
    input.codex.command = '  ';
    input.codex.model = 'gpt-5.4-mini';
    input.openai.baseUrl = 'http://localhost:8080/v1/';
    const saved = await saveEngineSettings(dir, input);
    expect(saved.codex.command).toBeNull();
    expect(saved.openai.baseUrl).toBe('http://localhost:8080/v1');
    expect((await loadEngineSettings(dir)).settings).toEqual(saved);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a base URL that is not http(s)', async () => {
    const input = defaultEngineSettings();
    input.openai.baseUrl = 'file:///etc/passwd';
    await expect(saveEngineSettings(dir, input)).rejects.toMatchObject({ kind: 'Invalid' });
    input.openai.baseUrl = 'not a url';
    await expect(saveEngineSettings(dir, input)).rejects.toMatchObject({ kind: 'Invalid' });
    expect(existsSync(join(dir, ENGINE_SETTINGS_FILE))).toBe(false);
  });

  it('refuses a model name that is an option or holds what a model name never does, and stores nothing', async () => {
    for (const bad of ['--dangerously-bypass-approvals-and-sandbox', '-m', 'gpt 5', 'gpt"5', 'a\u0007b']) {
      const codex = defaultEngineSettings();
      codex.codex.model = bad;
      await expect(saveEngineSettings(dir, codex)).rejects.toMatchObject({
        kind: 'Invalid',
        message: expect.stringContaining('codex model'),
      });
      const openai = defaultEngineSettings();
      openai.openai.model = bad;
      await expect(saveEngineSettings(dir, openai)).rejects.toMatchObject({ kind: 'Invalid' });
    }
    expect(existsSync(join(dir, ENGINE_SETTINGS_FILE))).toBe(false);
    const good = defaultEngineSettings();
    good.codex.model = 'openai/gpt-oss:20b';
    await saveEngineSettings(dir, good);
    expect((await loadEngineSettings(dir)).settings.codex.model).toBe('openai/gpt-oss:20b');
  });

  it('falls back to the defaults with a note when the file is corrupt or invalid', async () => {
    await writeFile(join(dir, ENGINE_SETTINGS_FILE), '{ not json');
    const corrupt = await loadEngineSettings(dir);
    expect(corrupt.settings).toEqual(defaultEngineSettings());
    expect(corrupt.notes[0]).toContain('not valid JSON');
    await writeFile(join(dir, ENGINE_SETTINGS_FILE), JSON.stringify({ engine: 'nope' }));
    const invalid = await loadEngineSettings(dir);
    expect(invalid.settings).toEqual(defaultEngineSettings());
    expect(invalid.notes).toHaveLength(1);
  });

  it('fills keys missing from an older file with the defaults', async () => {
    await writeFile(join(dir, ENGINE_SETTINGS_FILE), JSON.stringify({ engine: 'codex', codex: { model: 'o3' } }));
    const { settings, notes } = await loadEngineSettings(dir);
    expect(notes).toEqual([]);
    expect(settings.engine).toBe('codex');
    expect(settings.codex).toEqual({ command: null, model: 'o3', timeoutSeconds: 1800 });
  });
});

describe('API key', () => {
  const key = 'sk-proj-SECRET-1234567890';

  it('stores only the encrypted bytes and reads them back through the store', async () => {
    const store = xorStore();
    await saveApiKey(dir, store, key);
    const bytes = await readFile(join(dir, API_KEY_FILE));
    expect(bytes.includes(Buffer.from(key))).toBe(false);
    expect(bytes.toString('latin1')).not.toContain('SECRET');
    if (process.platform !== 'win32') expect((await stat(join(dir, API_KEY_FILE))).mode & 0o777).toBe(0o600);
    const resolved = await resolveApiKey(dir, store, defaultEngineSettings(), {});
    expect(resolved.key).toBe(key);
    expect(resolved.status).toMatchObject({ source: 'keychain', keychainAvailable: true });
    await saveApiKey(dir, store, null);
    expect(existsSync(join(dir, API_KEY_FILE))).toBe(false);
  });

  it('refuses to store a key without a usable store', async () => {
    await expect(saveApiKey(dir, null, key)).rejects.toMatchObject({
      kind: 'Unsupported',
      hint: expect.stringContaining('OPENAI_API_KEY'),
    });
    await expect(saveApiKey(dir, xorStore(false), key)).rejects.toMatchObject({ kind: 'Unsupported' });
    expect(existsSync(join(dir, API_KEY_FILE))).toBe(false);
  });

  it('refuses a store that does not encrypt', async () => {
    const identity: SecretStore = { available: () => true, encrypt: (p) => Buffer.from(p), decrypt: (b) => b.toString() };
    await expect(saveApiKey(dir, identity, key)).rejects.toMatchObject({ kind: 'Internal' });
    expect(existsSync(join(dir, API_KEY_FILE))).toBe(false);
  });

  it('prefers the environment variable over the stored key', async () => {
    const store = xorStore();
    await saveApiKey(dir, store, key);
    const settings = defaultEngineSettings();
    settings.openai.apiKeyEnv = 'MY_KEY';
    const resolved = await resolveApiKey(dir, store, settings, { MY_KEY: ' sk-env ', OPENAI_API_KEY: 'ignored' });
    expect(resolved).toEqual({
      key: 'sk-env',
      status: { source: 'env', keychainAvailable: true, message: expect.stringContaining('MY_KEY') },
    });
  });

  it('says where to put a key when there is none', async () => {
    const serve = await resolveApiKey(dir, null, defaultEngineSettings(), {});
    expect(serve).toEqual({
      key: null,
      status: { source: 'none', keychainAvailable: false, message: expect.stringContaining('OPENAI_API_KEY') },
    });
    const desktop = await resolveApiKey(dir, xorStore(), defaultEngineSettings(), { OPENAI_API_KEY: '   ' });
    expect(desktop.status).toMatchObject({ source: 'none', keychainAvailable: true });
  });
});

describe('consolidation instructions', () => {
  it('states the per-version rules and the extension blocks', () => {
    const v1 = consolidationInstructions('v1', { extensions: ['ad_hoc', 'external_agent_import'], workspaceDiff: true });
    expect(v1).toContain('Read `phase2_workspace_diff.md` first and do not edit it');
    expect(v1).toContain('Never create symlinks. Never touch `.git`');
    expect(v1).toContain('# Task Group:');
    expect(v1).toContain('`extensions/ad_hoc/instructions.md`');
    expect(v1).toContain('[ad-hoc note]');
    expect(v1).toContain('### extension_resource_files');
    expect(v1).toContain('scope.json');
    const v2 = consolidationInstructions('v2', { extensions: [] });
    expect(v2).toContain('under 10,000 bytes');
    expect(v2).toContain('thread_id=<exact full thread id>');
    expect(v2).not.toContain('# Task Group:');
    expect(v2).not.toContain('[ad-hoc note]');
  });

  it('reads the facts from a staged folder', async () => {
    expect(await readInstructionFacts(dir)).toEqual({ extensions: [], workspaceDiff: false, adHocNotes: false, imports: false });
    await mkdir(join(dir, 'extensions', 'ad_hoc', 'notes'), { recursive: true });
    await mkdir(join(dir, 'extensions', 'external_agent_import', 'resources'), { recursive: true });
    await mkdir(join(dir, 'extensions', 'other'), { recursive: true });
    await writeFile(join(dir, 'extensions', 'external_agent_import', 'instructions.md'), 'rules');
    await writeFile(join(dir, 'phase2_workspace_diff.md'), '# Memory Workspace Diff\n');
    const facts = await readInstructionFacts(dir);
    expect(facts).toEqual({ extensions: ['external_agent_import'], workspaceDiff: true, adHocNotes: true, imports: true });
    const text = consolidationInstructions('v2', facts);
    expect(text).toContain('[ad-hoc note]');
    expect(text).toContain('`extensions/external_agent_import/instructions.md`');
    expect(text).not.toContain('extensions/other');
  });
});
