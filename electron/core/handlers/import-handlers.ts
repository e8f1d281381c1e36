// Handlers for `import.*`: detection, the plan, the proposal, and the wizard's draft (Review/Apply reuse `review.*`).
import type { ImportPlan, ImportPlanInput } from '../../../shared/import';
import {
  clearDraft,
  detectImport,
  earlierImportsOf,
  fileTextOf,
  forTransport,
  planImport,
  proposeImport,
  readDraft,
  saveDraft,
} from '../import';
import { allowImportSource } from './caller-checks';
import type { AreaHandlers, HandlerContext } from './context';

export function importHandlers(ctx: HandlerContext, env: NodeJS.ProcessEnv = process.env): AreaHandlers<'import'> {
  // The last full plan: a large plan travels without texts and the preview asks for one file at a time.
  let last: { key: string; plan: ImportPlan } | null = null;
  const plan = async (input: ImportPlanInput, signal?: AbortSignal): Promise<ImportPlan> => {
    await allowImportSource(ctx.callerPaths, await ctx.home(), input, env);
    const full = await planImport(input, await ctx.home(), {
      env,
      earlier: earlierImportsOf(ctx.studioDb()),
      signal,
      sharedLoop: ctx.sharedLoop,
    });
    last = { key: JSON.stringify(input), plan: full };
    return full;
  };
  return {
    'import.detect': async (input) => {
      await allowImportSource(ctx.callerPaths, await ctx.home(), input, env);
      return detectImport(input, { env, sharedLoop: ctx.sharedLoop });
    },
    'import.plan': async (input, request) => forTransport(await plan(input, request?.signal)),
    'import.fileText': async ({ plan: input, project, relPath }) => {
      const full = last?.key === JSON.stringify(input) ? last.plan : await plan(input);
      return fileTextOf(full, project, relPath);
    },
    'import.propose': async (input) => {
      await allowImportSource(ctx.callerPaths, await ctx.home(), input, env);
      return proposeImport(ctx.studioDb(), await ctx.home(), input, { env, sharedLoop: ctx.sharedLoop });
    },
    'import.draft': async () => readDraft(ctx.dataDir),
    'import.saveDraft': async ({ draft }) => saveDraft(ctx.dataDir, draft),
    'import.clearDraft': async () => ({ cleared: await clearDraft(ctx.dataDir) }),
  };
}
