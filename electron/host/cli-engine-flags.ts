// serve/start flags for the engine settings a page may not change: the codex command and where the API key goes.
import { readFile } from 'node:fs/promises';
import type { EngineSettings } from '../../shared/consolidate';
import {
  loadEngineSettings,
  mergeDefaults,
  normalizeEngineSettings,
  saveEngineSettings,
  verifyCodexCli,
} from '../core/service/use-cases/settings';
import { StudioFailure, toStudioError } from '../core/platform/errors';
import { cliPath } from './cli-io';

export const engineFlagOptions = {
  'codex-command': { type: 'string' },
  'openai-base-url': { type: 'string' },
  'openai-key-env': { type: 'string' },
  'engine-settings': { type: 'string' },
} as const;

export interface EngineFlags {
  'codex-command'?: string;
  'openai-base-url'?: string;
  'openai-key-env'?: string;
  'engine-settings'?: string;
}

async function settingsFile(path: string): Promise<EngineSettings> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new StudioFailure(
      'Invalid',
      `--engine-settings ${path} cannot be used: ${error instanceof SyntaxError ? 'it is not valid JSON' : toStudioError(error, path).message}.`,
      { path },
    );
  }
  return normalizeEngineSettings(mergeDefaults(raw));
}

/**
 * Applies the flags (a settings file first, then single flags) to `<data>/engine-settings.json` before the host starts,
 * checking each as the app would: the codex command must answer `--version` as codex-cli, the base URL must be https
 * or loopback http. Returns what changed, in words; throws StudioFailure on a bad value.
 */
export async function applyEngineFlags(dataDir: string, flags: EngineFlags, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const given = Object.entries(flags).filter(([key, value]) => key in engineFlagOptions && value !== undefined);
  if (given.length === 0) return [];
  const base = flags['engine-settings']
    ? await settingsFile(cliPath(flags['engine-settings']))
    : (await loadEngineSettings(dataDir)).settings;
  const command = flags['codex-command'] !== undefined ? cliPath(flags['codex-command']) : base.codex.command;
  const next = normalizeEngineSettings({
    ...base,
    codex: { ...base.codex, command },
    openai: {
      ...base.openai,
      baseUrl: flags['openai-base-url'] ?? base.openai.baseUrl,
      apiKeyEnv: flags['openai-key-env'] ?? base.openai.apiKeyEnv,
    },
  });
  const version = next.codex.command ? await verifyCodexCli(next.codex.command, env) : null;
  await saveEngineSettings(dataDir, next);
  return [
    ...(version ? [`Codex command: ${next.codex.command} (${version})`] : []),
    `OpenAI-compatible engine: ${next.openai.baseUrl}, key from $${next.openai.apiKeyEnv}`,
  ];
}
