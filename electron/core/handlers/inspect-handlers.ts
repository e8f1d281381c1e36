// Handlers for `inspect.*`: parse, budget, lint, pipeline health, the rollout table and the project lens.
import { budgetForRoot } from '../budget';
import { readPipelineHealth } from '../codex-db';
import { outlineOf, parseMemoryFile } from '../formats';
import { OFF_THREAD_THRESHOLD_BYTES, parseMemoryFileInWorker } from '../formats/worker-pool';
import { buildProjectLens } from '../inspect/projects';
import { buildRolloutTable } from '../inspect/rollouts';
import { lintRootOffThread } from '../inspect/lint-off-thread';
import { addReferenceLint, emptyReport, mergeLintReports } from '../inspect/reference-lint';
import { listMemoryRoot, readMemoryFile } from '../workspace';
import type { AreaHandlers, HandlerContext } from './context';

export function inspectHandlers(ctx: HandlerContext): AreaHandlers<'inspect'> {
  return {
    'inspect.parse': async ({ version, path }) => {
      const file = await readMemoryFile(await ctx.rootPath(version), version, path, ctx.readCapBytes);
      // Big files parse in a worker so the Electron main loop (and the serve host) stay responsive.
      const parsed =
        file.size > OFF_THREAD_THRESHOLD_BYTES
          ? await parseMemoryFileInWorker(file.content, { path, version })
          : parseMemoryFile(file.content, { path, version });
      return outlineOf(parsed);
    },
    'inspect.budget': async ({ version, limitTokens }) => budgetForRoot(await ctx.rootPath(version), version, limitTokens),
    'inspect.lint': async ({ version }) => {
      const home = await ctx.knownHome();
      const root = await ctx.rootPath(version);
      const list = await listMemoryRoot(root, version);
      // The per-file lint runs on a worker while the whole-home rules gather sessions and usage here.
      const [report, withReferences] = await Promise.all([
        lintRootOffThread(root, version, home.config.memories.maxUnusedDays, list),
        addReferenceLint(emptyReport(version), home, version, root, list),
      ]);
      return mergeLintReports(report, withReferences);
    },
    'inspect.health': async () => readPipelineHealth(await ctx.home()),
    'inspect.rollouts': async ({ version }) => buildRolloutTable(await ctx.knownHome(), version, await ctx.rootPath(version)),
    'inspect.projects': async ({ version }) => buildProjectLens(await ctx.rootPath(version), version),
  };
}
