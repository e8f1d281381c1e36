// Handlers for `inspect.*`: parse, budget, lint, pipeline health, the rollout table and the project lens.
import { outlineOf, parseMemoryFile } from '../formats';
import { OFF_THREAD_THRESHOLD_BYTES, parseMemoryFileInWorker } from '../formats/worker-pool';
import { buildRolloutTable } from '../inspect/rollouts';
import { lintRootOffThread } from '../inspect/lint-off-thread';
import { parserLintRule } from '../inspect/parser-lint';
import { lintRoot } from '../lint';
import { addReferenceLint, emptyReport, mergeLintReports } from '../inspect/reference-lint';
import { listMemoryRoot, readMemoryFile } from '../codex/workspace';
import type { FileList, HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { LintReport } from '../../../shared/lint';
import { lintWithIndex, rolloutsWithIndex } from '../index-store/inspect';
import { runTask } from '../runtime/pool';
import type { AreaHandlers, HandlerContext } from './context';

/**
 * The watcher sees the memory roots, not the sessions folders: answers that count citations refresh the index when the
 * last refresh is older than this (a stat-only pass on a worker).
 */
const SESSIONS_MAX_AGE_MS = 2000;

/**
 * One file's diagnostics, as the whole-root lint would report them, for the inspector: the file itself plus the
 * root-level checks that concern it (Codex's validators name memory_summary.md and MEMORY.md).
 */
async function lintOneFile(home: HomeInfo, version: MemoryVersion, root: string, list: FileList, path: string): Promise<LintReport> {
  const only = { ...list, files: list.files.filter((f) => f.path === path) };
  const [own, references] = await Promise.all([
    lintRoot(root, version, { maxUnusedDays: home.config.memories.maxUnusedDays, extraRules: [parserLintRule], list: only }),
    addReferenceLint(emptyReport(version), home, version, root, list, new Date(), path),
  ]);
  const merged = mergeLintReports(own, references);
  const files = merged.files.filter((f) => f.path === path);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const file of files) for (const d of file.diagnostics) counts[d.severity]++;
  return { ...merged, files, counts };
}

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
    // Token counts of a long summary take seconds: always on a worker, which keeps the counts in the index.
    'inspect.budget': async ({ version, limitTokens }, request) =>
      runTask(
        'budget',
        { root: await ctx.rootPath(version), version, limitTokens, cachePath: ctx.index.path() ?? undefined },
        { signal: request?.signal },
      ),
    'inspect.lint': async ({ version, path }) => {
      const home = await ctx.knownHome();
      const root = await ctx.rootPath(version);
      const indexed = await ctx.index.fresh({ maxAgeMs: SESSIONS_MAX_AGE_MS });
      if (indexed) return lintWithIndex(indexed, version, path);
      const list = await listMemoryRoot(root, version);
      if (path !== undefined) return lintOneFile(home, version, root, list, path);
      // The per-file lint runs on a worker while the whole-home rules gather sessions and usage here.
      const [report, withReferences] = await Promise.all([
        lintRootOffThread(root, version, home.config.memories.maxUnusedDays, list),
        addReferenceLint(emptyReport(version), home, version, root, list),
      ]);
      return mergeLintReports(report, withReferences);
    },
    // Codex's DBs are read synchronously (100-300 ms on a heavy home): on a worker.
    'inspect.health': async (_input, request) =>
      runTask('health', { home: await ctx.home(), cachePath: ctx.index.path() ?? undefined }, { signal: request?.signal }),
    'inspect.rollouts': async ({ version }) => {
      const indexed = await ctx.index.fresh({ maxAgeMs: SESSIONS_MAX_AGE_MS });
      if (indexed) return rolloutsWithIndex(indexed, version);
      return buildRolloutTable(await ctx.knownHome(), version, await ctx.rootPath(version));
    },
    // MEMORY.md and the summary are parsed whole: on a worker.
    'inspect.projects': async ({ version }, request) =>
      runTask('projects', { root: await ctx.rootPath(version), version }, { signal: request?.signal }),
  };
}
