// Handlers for `consolidate.*`: the input preview, runs (start, status, cancel) and the engine settings.
import type { EngineSettingsView } from '../../../shared/consolidate';
import { loadEngineSettings, resolveApiKey, saveApiKey, saveEngineSettings, type SecretStore } from '../consolidate/engine-settings';
import { runTask } from '../workers/pool';
import type { RunManager } from '../consolidate/run';
import type { AreaHandlers, HandlerContext } from './context';

export interface ConsolidateDeps {
  runs(): RunManager;
  secretStore: SecretStore | null;
  env: NodeJS.ProcessEnv;
}

async function settingsView(ctx: HandlerContext, deps: ConsolidateDeps): Promise<EngineSettingsView> {
  const { settings } = await loadEngineSettings(ctx.dataDir);
  const { status } = await resolveApiKey(ctx.dataDir, deps.secretStore, settings, deps.env);
  return { settings, apiKey: status };
}

export function consolidateHandlers(ctx: HandlerContext, deps: ConsolidateDeps): AreaHandlers<'consolidate'> {
  return {
    'consolidate.preview': async ({ version, engine }) => {
      const { settings } = await loadEngineSettings(ctx.dataDir);
      const chosen = engine ?? settings.engine;
      const model = chosen === 'builtin' ? null : chosen === 'codex' ? settings.codex.model : settings.openai.model;
      // Codex's DBs are read synchronously and the inputs tokenized: on a worker.
      return runTask('preview', { home: await ctx.home(), version, options: { engine: chosen, model, nowSec: Math.floor(Date.now() / 1000) } });
    },
    'consolidate.start': async ({ version, engine, model }) => deps.runs().start(version, engine, model),
    'consolidate.status': async ({ id }) => deps.runs().status(id),
    'consolidate.runs': async () => deps.runs().list(),
    'consolidate.cancel': async ({ id }) => deps.runs().cancel(id),
    'consolidate.settings': async () => settingsView(ctx, deps),
    'consolidate.saveSettings': async ({ settings }) => {
      await saveEngineSettings(ctx.dataDir, settings);
      return settingsView(ctx, deps);
    },
    'consolidate.setApiKey': async ({ apiKey }) => {
      await saveApiKey(ctx.dataDir, deps.secretStore, apiKey);
      return settingsView(ctx, deps);
    },
  };
}
