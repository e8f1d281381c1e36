// Handlers for `doctor.*`: the report, fixes and promotions as proposals, and the optional model help.
import { loadEngineSettings, resolveApiKey, type SecretStore } from '../consolidate/engine-settings';
import { explainFinding, modelMergeFinding, proposeFix, proposePromotion, runDoctor, type FixContext, type ModelDeps } from '../doctor';
import type { AreaHandlers, HandlerContext } from './context';

export interface DoctorDeps {
  secretStore: SecretStore | null;
  env: NodeJS.ProcessEnv;
}

async function modelDeps(ctx: HandlerContext, deps: DoctorDeps): Promise<ModelDeps> {
  const { settings } = await loadEngineSettings(ctx.dataDir);
  const { key } = await resolveApiKey(ctx.dataDir, deps.secretStore, settings, deps.env);
  return { settings, apiKey: key, env: deps.env };
}

export function doctorHandlers(ctx: HandlerContext, deps: DoctorDeps): AreaHandlers<'doctor'> {
  const fixContext = async (): Promise<FixContext> => ({ db: ctx.studioDb(), home: await ctx.home() });
  return {
    'doctor.run': async (options) => runDoctor(await ctx.home(), options),
    'doctor.fix': async ({ fixId, ...options }) => proposeFix(await fixContext(), fixId, options),
    'doctor.promote': async (input) => proposePromotion(await fixContext(), input),
    'doctor.explain': async ({ findingId, ...options }) => explainFinding(await fixContext(), await modelDeps(ctx, deps), findingId, options),
    'doctor.modelMerge': async ({ findingId, ...options }) => modelMergeFinding(await fixContext(), await modelDeps(ctx, deps), findingId, options),
  };
}
