// The engine phase of a run: the chosen engine with its instructions, key and environment, reporting into the run.
import type { EngineName, EngineSettings } from '../../../shared/consolidate';
import type { MemoryVersion } from '../../../shared/domain';
import { builtinOffThread } from './builtin-off-thread';
import { codexEngine } from './engines/codex';
import { openaiEngine } from './engines/openai';
import { buildConsolidationInstructions } from './instructions';
import type { RunTracker } from './run-status';
import type { Engine, EngineResult } from './types';

export interface EngineStepOptions {
  settings: EngineSettings;
  env: NodeJS.ProcessEnv;
  /** The OpenAI-compatible key, resolved by the host when the run starts (environment or OS keychain). */
  apiKey: () => Promise<string | null>;
  /** Tests swap engines (never the pipeline around them). */
  engines?: Partial<Record<EngineName, Engine>>;
}

const ENGINES: Record<EngineName, Engine> = { builtin: builtinOffThread, codex: codexEngine, openai: openaiEngine };

export async function runEngineStep(
  options: EngineStepOptions,
  run: { version: MemoryVersion; stagingRoot: string; engine: EngineName; signal: AbortSignal; tracker: RunTracker },
): Promise<EngineResult> {
  const engine = options.engines?.[run.engine] ?? ENGINES[run.engine];
  const instructions = await buildConsolidationInstructions(run.version, run.stagingRoot);
  run.signal.throwIfAborted();
  return engine({
    version: run.version,
    stagingRoot: run.stagingRoot,
    settings: options.settings,
    instructions,
    signal: run.signal,
    progress: (message, fraction) => run.tracker.progress(message, fraction),
    log: (line) => run.tracker.log(line),
    env: options.env,
    apiKey: run.engine === 'openai' ? await options.apiKey() : null,
  });
}
