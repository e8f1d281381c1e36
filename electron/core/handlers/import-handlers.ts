// Handlers for `import.*`: detection, the plan, the proposal, and the wizard's draft (Review/Apply reuse `review.*`).
import { clearDraft, detectImport, planImport, proposeImport, readDraft, saveDraft } from '../import';
import type { AreaHandlers, HandlerContext } from './context';

export function importHandlers(ctx: HandlerContext, env: NodeJS.ProcessEnv = process.env): AreaHandlers<'import'> {
  return {
    'import.detect': async (input) => detectImport(input, { env }),
    'import.plan': async (input) => planImport(input, await ctx.home(), { env }),
    'import.propose': async (input) => proposeImport(ctx.studioDb(), await ctx.home(), input, { env }),
    'import.draft': async () => readDraft(ctx.dataDir),
    'import.saveDraft': async ({ draft }) => saveDraft(ctx.dataDir, draft),
    'import.clearDraft': async () => ({ cleared: await clearDraft(ctx.dataDir) }),
  };
}
