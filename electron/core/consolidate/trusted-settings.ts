// The engine settings that run a program or decide where the API key goes, and who may change them.
//
// Over HTTP (serve) and through the preload (Electron) any page script could otherwise point the codex engine at
// any program, or the openai engine and its key variable at any host: these three settings come only from the
// person, through main's dialogs in Electron and through command-line flags or a settings file in serve mode.
import { tmpdir } from 'node:os';
import type { EngineSettings, EngineTrust } from '../../../shared/consolidate';
import { StudioFailure } from '../platform/errors';
import { captureCommand } from './engines/codex-process';

/** An environment variable that plainly holds an API key; anything else must be confirmed in main. */
export const API_KEY_VARIABLE = /^[A-Z][A-Z0-9_]*(API_KEY|TOKEN)$/;

/** What the UI host lets change, and how it asks the person (Electron: native dialogs run by main). */
export interface TrustedSettingsUi {
  /** A native open-file dialog; null when the person cancelled. */
  pickCodexCommand(): Promise<string | null>;
  /** A native confirmation; true when the person agreed. */
  confirm(message: string, detail: string): Promise<boolean>;
  /** A native open dialog for a folder or a file the service may then use (`app.choosePath`); null when cancelled. */
  pickPath?(request: { kind: 'file' | 'folder'; title: string; buttonLabel: string }): Promise<string | null>;
}

export type TrustedField = 'codex command' | 'base URL' | 'API key variable';

/** The trusted settings `next` changes compared with `current`. */
export function trustedChanges(current: EngineSettings, next: EngineSettings): TrustedField[] {
  const changed: TrustedField[] = [];
  if ((current.codex.command ?? null) !== (next.codex.command ?? null)) changed.push('codex command');
  if (current.openai.baseUrl !== next.openai.baseUrl) changed.push('base URL');
  if (current.openai.apiKeyEnv !== next.openai.apiKeyEnv) changed.push('API key variable');
  return changed;
}

export const SERVE_FLAGS_HINT =
  'Set them when starting the host: memory-studio serve --codex-command PATH --openai-base-url URL --openai-key-env NAME (or --engine-settings FILE).';

/** The host (and port) that receives the key. */
export function keyHost(settings: EngineSettings): string {
  try {
    return new URL(settings.openai.baseUrl).host;
  } catch {
    return settings.openai.baseUrl;
  }
}

export function engineTrust(settings: EngineSettings, ui: TrustedSettingsUi | null): EngineTrust {
  return {
    keyTargetEditable: ui !== null,
    canChooseCodexCommand: ui !== null,
    keyHost: keyHost(settings),
    note:
      ui === null ? `The codex command, the base URL and the API key variable cannot be changed from this page. ${SERVE_FLAGS_HINT}` : null,
  };
}

/** 127.0.0.0/8, ::1 and localhost: the only hosts a key may travel to over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Refuses `next` when the UI changed what it may not: the command always, the key's destination in serve mode. */
export async function checkTrustedChanges(current: EngineSettings, next: EngineSettings, ui: TrustedSettingsUi | null): Promise<void> {
  const changed = trustedChanges(current, next);
  if (changed.length === 0) return;
  if (ui === null) {
    throw new StudioFailure(
      'Unsupported',
      `This host does not let the page change the ${changed.join(', ')}: they decide which program runs and where the API key is sent.`,
      {
        hint: SERVE_FLAGS_HINT,
      },
    );
  }
  if (changed.includes('codex command')) {
    throw new StudioFailure('Invalid', 'The codex command cannot be typed in: choose the executable with "Choose…" (a file dialog).', {
      hint: 'Click Choose… next to the Codex command.',
    });
  }
  const variable = next.openai.apiKeyEnv;
  if (changed.includes('API key variable') && !API_KEY_VARIABLE.test(variable)) {
    const agreed = await ui.confirm(
      `Send the value of ${variable} as the API key?`,
      `${variable} does not look like an API key variable (…_API_KEY or …_TOKEN). Its value will be sent to ${keyHost(next)} with every consolidation.`,
    );
    if (!agreed)
      throw new StudioFailure('Invalid', `The API key variable stays ${current.openai.apiKeyEnv}: using ${variable} was not confirmed.`, {
        hint: 'Use a variable named like OPENAI_API_KEY.',
      });
  }
}

/** `command --version` must print `codex-cli …`: the version, or Invalid/NotFound saying what it printed. */
export async function verifyCodexCli(command: string, env: NodeJS.ProcessEnv): Promise<string> {
  const result = await captureCommand(command, ['--version'], {
    env,
    cwd: tmpdir(),
    timeoutMs: 15_000,
    signal: new AbortController().signal,
  });
  if (result.error) {
    throw new StudioFailure('NotFound', `${command} could not be started (${result.error.code ?? result.error.message}).`, {
      path: command,
      hint: 'Choose the codex executable (npm install -g @openai/codex puts it on your PATH).',
    });
  }
  const printed = (result.stdout || result.stderr).trim().split('\n')[0] ?? '';
  if (result.code !== 0 || !/^codex-cli \S/.test(printed)) {
    throw new StudioFailure(
      'Invalid',
      `${command} is not the Codex CLI: \`--version\` printed "${printed.slice(0, 120)}"${result.code === 0 ? '' : ` and exited with ${result.code ?? 'an error'}`}.`,
      {
        path: command,
        hint: 'Choose the codex executable itself (its --version prints "codex-cli …").',
      },
    );
  }
  return printed;
}
