// Handlers for `consolidate.*`: the input preview, runs (start, status, cancel) and the engine settings.
import type { EngineSettingsView } from '../../../shared/consolidate';
import {
  loadEngineSettings,
  normalizeEngineSettings,
  resolveApiKey,
  saveApiKey,
  saveEngineSettings,
  type SecretStore,
} from '../consolidate/engine-settings';
import {
  checkTrustedChanges,
  engineTrust,
  SERVE_FLAGS_HINT,
  verifyCodexCli,
  type TrustedSettingsUi,
} from '../consolidate/trusted-settings';
import { StudioFailure } from '../platform/errors';
import { runTask } from '../runtime/pool';
import type { RunManager } from '../consolidate/run';
import type { AreaHandlers, HandlerContext } from './context';

export interface ConsolidateDeps {
  runs(): RunManager;
  secretStore: SecretStore | null;
  env: NodeJS.ProcessEnv;
  /** Electron's native dialogs (run by main); null on the serve host, where trusted settings come from flags. */
  trustedUi: TrustedSettingsUi | null;
}

async function settingsView(ctx: HandlerContext, deps: ConsolidateDeps): Promise<EngineSettingsView> {
  const { settings } = await loadEngineSettings(ctx.dataDir);
  const { status } = await resolveApiKey(ctx.dataDir, deps.secretStore, settings, deps.env);
  return { settings, apiKey: status, trust: engineTrust(settings, deps.trustedUi) };
}

/** Main's file dialog, then `--version` must answer codex-cli; a cancelled dialog changes nothing. */
async function chooseCodexCommand(ctx: HandlerContext, deps: ConsolidateDeps): Promise<EngineSettingsView> {
  if (!deps.trustedUi) {
    throw new StudioFailure('Unsupported', 'This host cannot open a file dialog, so the codex command cannot be chosen here.', {
      hint: SERVE_FLAGS_HINT,
    });
  }
  const picked = await deps.trustedUi.pickCodexCommand();
  if (picked === null) return settingsView(ctx, deps);
  await verifyCodexCli(picked, deps.env);
  const { settings } = await loadEngineSettings(ctx.dataDir);
  await saveEngineSettings(ctx.dataDir, { ...settings, codex: { ...settings.codex, command: picked } });
  return settingsView(ctx, deps);
}

export function consolidateHandlers(ctx: HandlerContext, deps: ConsolidateDeps): AreaHandlers<'consolidate'> {
  return {
    'consolidate.preview': async ({ version, engine }, request) => {
      const { settings } = await loadEngineSettings(ctx.dataDir);
      const chosen = engine ?? settings.engine;
      const model = chosen === 'builtin' ? null : chosen === 'codex' ? settings.codex.model : settings.openai.model;
      // Codex's DBs are read synchronously and the inputs tokenized: on a worker.
      return runTask(
        'preview',
        { home: await ctx.home(), version, options: { engine: chosen, model, nowSec: Math.floor(Date.now() / 1000) } },
        { signal: request?.signal },
      );
    },
    'consolidate.start': async ({ version, engine, model }) => deps.runs().start(version, engine, model),
    'consolidate.status': async ({ id }) => deps.runs().status(id),
    'consolidate.runs': async () => deps.runs().list(),
    'consolidate.cancel': async ({ id }) => deps.runs().cancel(id),
    'consolidate.settings': async () => settingsView(ctx, deps),
    'consolidate.saveSettings': async ({ settings }) => {
      const current = (await loadEngineSettings(ctx.dataDir)).settings;
      await checkTrustedChanges(current, normalizeEngineSettings(settings), deps.trustedUi);
      await saveEngineSettings(ctx.dataDir, settings);
      return settingsView(ctx, deps);
    },
    'consolidate.chooseCodexCommand': async () => chooseCodexCommand(ctx, deps),
    'consolidate.setApiKey': async ({ apiKey }) => {
      await saveApiKey(ctx.dataDir, deps.secretStore, apiKey);
      return settingsView(ctx, deps);
    },
  };
}
