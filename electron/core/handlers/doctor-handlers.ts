// Handlers for `doctor.*`: the report, fixes and promotions as proposals, and the optional model help.
import { loadEngineSettings, resolveApiKey, type SecretStore } from '../consolidate/engine-settings';
import {
  explainFinding,
  modelMergeFinding,
  proposeFix,
  proposeGroupFix,
  proposePromotion,
  runDoctor,
  type FixContext,
  type ModelDeps,
} from '../doctor';
import type { HomeInfo } from '../../../shared/domain';
import type { UsageReport } from '../../../shared/provenance';
import { usageFromIndex } from '../index-store/inspect';
import { collectUsage } from '../sessions';
import { allowProjectFolder, allowProjectFolders } from './caller-checks';
import type { AreaHandlers, HandlerContext } from './context';

/** As the inspect handlers: the sessions folders are not watched, so an index older than this is refreshed first. */
const SESSIONS_MAX_AGE_MS = 2000;

/** Citations from the host's index (the app's, memoised with lint's), else read from the sessions (the CLI's service). */
function usageOf(ctx: HandlerContext): (home: HomeInfo) => Promise<UsageReport> {
  return async (home) => {
    const indexed = await ctx.index.fresh({ maxAgeMs: SESSIONS_MAX_AGE_MS });
    return indexed ? usageFromIndex(indexed) : collectUsage(home);
  };
}

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
  const usage = usageOf(ctx);
  const fixContext = async (): Promise<FixContext> => ({ db: ctx.studioDb(), home: await ctx.home(), usage });
  return {
    'doctor.run': async (options, request) => {
      await allowProjectFolders(ctx.callerPaths, await ctx.home(), options.projects);
      return runDoctor(await ctx.home(), { ...options, usage, signal: request?.signal });
    },
    'doctor.fix': async ({ fixId, ...options }) => {
      await allowProjectFolders(ctx.callerPaths, await ctx.home(), options.projects);
      await allowProjectFolder(ctx.callerPaths, await ctx.home(), options.project);
      return proposeFix(await fixContext(), fixId, options);
    },
    'doctor.fixGroup': async ({ groupId, ...options }) => {
      await allowProjectFolders(ctx.callerPaths, await ctx.home(), options.projects);
      return proposeGroupFix(await fixContext(), groupId, options);
    },
    'doctor.promote': async (input) => {
      await allowProjectFolder(ctx.callerPaths, await ctx.home(), input.project);
      return proposePromotion(await fixContext(), input);
    },
    'doctor.explain': async ({ findingId, ...options }) => {
      await allowProjectFolders(ctx.callerPaths, await ctx.home(), options.projects);
      return explainFinding(await fixContext(), await modelDeps(ctx, deps), findingId, options);
    },
    'doctor.modelMerge': async ({ findingId, ...options }) => {
      await allowProjectFolders(ctx.callerPaths, await ctx.home(), options.projects);
      return modelMergeFinding(await fixContext(), await modelDeps(ctx, deps), findingId, options);
    },
  };
}
