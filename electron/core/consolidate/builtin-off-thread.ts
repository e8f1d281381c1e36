// Runs the builtin engine on the shared worker pool; cancelling ends its worker at once (it writes only into staging).
import type { EngineSettings } from '../../../shared/consolidate';
import type { MemoryVersion } from '../../../shared/domain';
import { poolAvailable, runTask } from '../runtime/pool';
import type { TaskContext } from '../runtime/task-types';
import { builtinEngine } from './engines/builtin';
import type { Engine } from './types';

export const builtinOffThread: Engine = async (run) => {
  if (!poolAvailable()) return builtinEngine(run); // tests from sources: the run's signal is checked between steps
  return runTask(
    'builtin',
    { stagingRoot: run.stagingRoot, version: run.version, settings: run.settings, instructions: run.instructions },
    {
      signal: run.signal,
      onEvent: (event) =>
        event.type === 'progress' ? run.progress(event.message, event.fraction) : event.type === 'log' ? run.log(event.line) : undefined,
    },
  );
};

/** The pool task: the whole rebuild, with progress and log lines sent back as events. */
export function builtinTask(
  input: { stagingRoot: string; version: MemoryVersion; settings: EngineSettings; instructions: string },
  context: TaskContext,
) {
  const controller = new AbortController();
  return builtinEngine({
    ...input,
    signal: controller.signal, // the pool cancels by ending the worker thread
    progress: (message, fraction) => context.emit({ type: 'progress', message, fraction }),
    log: (line) => context.emit({ type: 'log', line }),
    env: {},
  });
}
