// Engine settings in the data folder (engine-settings.json) and the OpenAI-compatible API key: env var or encrypted file.
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type ApiKeyStatus, type EngineSettings, EngineSettingsSchema } from '../../../shared/consolidate';
import { StudioFailure } from '../platform/errors';
import { writeFileAtomic } from '../platform/atomic-write';
import { PRIVATE_FILE_MODE } from '../platform/private-files';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { modelNameProblem } from './model-name';
import { isLoopbackHost } from './trusted-settings';

export const ENGINE_SETTINGS_FILE = 'engine-settings.json';
export const API_KEY_FILE = 'openai-key.bin';

/** Encrypts secrets with the OS keychain (Electron's safeStorage in electron/main); hosts without one pass null. */
export interface SecretStore {
  available(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(buf: Buffer): string;
}

export function defaultEngineSettings(): EngineSettings {
  return {
    engine: 'builtin',
    codex: { command: null, model: null, timeoutSeconds: 1800 },
    openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-5.4', apiKeyEnv: 'OPENAI_API_KEY', timeoutSeconds: 600, maxRetries: 4 },
  };
}

/**
 * Checks that `url` is https, or http to a loopback address (127.0.0.0/8, ::1, localhost): the key travels with every
 * request, so plain http may not leave this machine. Returns it without trailing slashes; anything else → Invalid.
 */
export function validateBaseUrl(url: string): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url.trim());
  } catch {
    parsed = null;
  }
  const allowed = parsed !== null && (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)));
  if (!parsed || !allowed || parsed.username || parsed.password) {
    throw new StudioFailure(
      'Invalid',
      `"${url}" is not a usable base URL: it must be https://, or http:// to this machine (127.0.0.1, localhost), without a user name or password.`,
      {
        hint: 'Use the endpoint root that ends before /chat/completions, for example https://api.openai.com/v1.',
      },
    );
  }
  return url.trim().replace(/\/+$/, '');
}

/** Refuses a model name that is not one (an option such as `--dangerously-bypass-approvals-and-sandbox`, spaces, quotes). */
export function checkModelName(value: string, what = 'The model'): string {
  const problem = modelNameProblem(value);
  if (problem)
    throw new StudioFailure('Invalid', `${what} cannot be used: ${problem}.`, {
      hint: 'Give the model as its provider names it, for example gpt-5.4 or o4-mini.',
    });
  return value;
}

/** Validates and normalises settings (baseUrl, blank strings → null or default); throws Invalid with the first problem. */
export function normalizeEngineSettings(input: unknown): EngineSettings {
  const result = EngineSettingsSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.join('.') || 'settings';
    throw new StudioFailure('Invalid', `The engine settings are not valid: ${where}: ${issue?.message ?? 'invalid'}.`, {
      hint: 'Correct the value and save again.',
    });
  }
  const settings = result.data;
  const command = settings.codex.command?.trim() || null;
  const model = settings.codex.model?.trim() || null;
  const apiKeyEnv = settings.openai.apiKeyEnv.trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv)) {
    throw new StudioFailure('Invalid', `"${settings.openai.apiKeyEnv}" is not an environment variable name.`, {
      hint: 'Use letters, digits and underscores, e.g. OPENAI_API_KEY.',
    });
  }
  if (settings.openai.model.trim().length === 0)
    throw new StudioFailure('Invalid', 'The OpenAI model name is empty.', { hint: 'Enter a model name such as gpt-5.4.' });
  checkModelName(settings.openai.model.trim(), 'The OpenAI model');
  if (model) checkModelName(model, 'The codex model');
  return {
    engine: settings.engine,
    codex: { ...settings.codex, command, model },
    openai: { ...settings.openai, baseUrl: validateBaseUrl(settings.openai.baseUrl), model: settings.openai.model.trim(), apiKeyEnv },
  };
}

/** Reads the settings; a missing file gives the defaults, a corrupt or invalid one the defaults plus a note. */
export async function loadEngineSettings(dataDir: string): Promise<{ settings: EngineSettings; notes: string[] }> {
  const path = join(dataDir, ENGINE_SETTINGS_FILE);
  let text: string;
  try {
    text = (await readRegularFile(path, path, NO_CAP, undefined, { follow: true })).bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: defaultEngineSettings(), notes: [] };
    return {
      settings: defaultEngineSettings(),
      notes: [`${path} could not be read (${(error as Error).message}); the default engine settings are used.`],
    };
  }
  try {
    return { settings: normalizeEngineSettings(mergeDefaults(JSON.parse(text))), notes: [] };
  } catch (error) {
    const why = error instanceof StudioFailure ? error.message : 'it is not valid JSON';
    return {
      settings: defaultEngineSettings(),
      notes: [`${path} was ignored (${why}); the default engine settings are used until you save them again.`],
    };
  }
}

/** Fills keys missing from an older or hand-written file with the defaults (one level deep). */
export function mergeDefaults(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const defaults = defaultEngineSettings();
  const value = raw as Record<string, unknown>;
  const section = (key: 'codex' | 'openai') => {
    const given = value[key];
    return typeof given === 'object' && given !== null && !Array.isArray(given)
      ? { ...defaults[key], ...given }
      : given === undefined
        ? defaults[key]
        : given;
  };
  return { engine: value.engine ?? defaults.engine, codex: section('codex'), openai: section('openai') };
}

/** Validates and writes the settings atomically; returns what was saved. */
export async function saveEngineSettings(dataDir: string, input: unknown): Promise<EngineSettings> {
  const settings = normalizeEngineSettings(input);
  await writeFileAtomic(
    join(dataDir, ENGINE_SETTINGS_FILE),
    Buffer.from(JSON.stringify(settings, null, 2) + '\n', 'utf8'),
    PRIVATE_FILE_MODE,
  );
  return settings;
}

/**
 * Stores the key encrypted by `store` in `<dataDir>/openai-key.bin` (never in clear text), or removes it when `key` is
 * null. Without a usable store it refuses: the person should use the environment variable instead.
 */
export async function saveApiKey(dataDir: string, store: SecretStore | null, key: string | null): Promise<void> {
  const path = join(dataDir, API_KEY_FILE);
  if (key === null || key.trim().length === 0) {
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    return;
  }
  if (!store || !store.available()) {
    throw new StudioFailure('Unsupported', 'This host cannot keep an API key in the OS keychain, so the key was not stored.', {
      hint: 'Set the key in the environment variable named in the engine settings (OPENAI_API_KEY by default) before starting Memory Studio.',
    });
  }
  const encrypted = store.encrypt(key.trim());
  if (encrypted.includes(Buffer.from(key.trim(), 'utf8'))) {
    throw new StudioFailure('Internal', 'The keychain returned the key unencrypted, so it was not stored.', {
      hint: 'Use the environment variable instead.',
    });
  }
  await writeFileAtomic(path, encrypted, 0o600);
}

/** The key to use and where it comes from: the environment variable wins, then the keychain-encrypted file. */
export async function resolveApiKey(
  dataDir: string,
  store: SecretStore | null,
  settings: EngineSettings,
  env: NodeJS.ProcessEnv,
): Promise<{ key: string | null; status: ApiKeyStatus }> {
  const keychainAvailable = store?.available() ?? false;
  const envName = settings.openai.apiKeyEnv;
  const fromEnv = env[envName]?.trim();
  if (fromEnv)
    return {
      key: fromEnv,
      status: { source: 'env', keychainAvailable, message: `Using the API key from the environment variable ${envName}.` },
    };
  const keyFile = join(dataDir, API_KEY_FILE);
  const stored = await readRegularFile(keyFile, keyFile, NO_CAP, undefined, { follow: true }).then(
    (file) => file.bytes,
    () => null,
  );
  if (stored && store && keychainAvailable) {
    try {
      const key = store.decrypt(stored).trim();
      if (key) return { key, status: { source: 'keychain', keychainAvailable, message: 'Using the API key stored with the OS keychain.' } };
    } catch {
      return none(
        keychainAvailable,
        `The stored API key could not be decrypted (the keychain may have changed); store it again or set ${envName}.`,
      );
    }
  }
  if (stored && !keychainAvailable)
    return none(false, `A stored API key exists but this host cannot decrypt it; set ${envName} or use the desktop app.`);
  const how = keychainAvailable
    ? `set ${envName} or store a key in the engine settings`
    : `set the environment variable ${envName} (this host cannot store keys)`;
  return none(keychainAvailable, `No API key: ${how}.`);
}

function none(keychainAvailable: boolean, message: string): { key: null; status: ApiKeyStatus } {
  return { key: null, status: { source: 'none', keychainAvailable, message } };
}
