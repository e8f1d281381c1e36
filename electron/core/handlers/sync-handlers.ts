// Handlers for `sync.*`: the git remote's settings, push, pull (arrivals as a pending import proposal) and status.
import { isAbsolute } from 'node:path';
import { StudioFailure } from '../platform/errors';
import { syncInit, syncPull, syncPush, syncStatus } from '../sync';
import type { AreaHandlers, HandlerContext } from './context';

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/|^[^/\\]+@[^:]+:/i;

/** A page never has a path resolved against the host's working folder: a local remote and a scope are absolute. */
function requireAbsolutePaths(remote: string, scopeProject: string | null | undefined): void {
  for (const path of [URL_LIKE.test(remote) ? null : remote, scopeProject ?? null]) {
    if (path !== null && !isAbsolute(path))
      throw new StudioFailure('Invalid', `${path} is not an absolute path; Memory Studio does not guess where a page means.`, {
        path,
        hint: 'Give the full path of the folder (or a git URL such as git@host:you/memory.git).',
      });
  }
}

/** Each step of a sync as a `sync.progress` event (the view's progress line; git's own output is never relayed). */
const progressOf =
  (ctx: HandlerContext, step: 'init' | 'push' | 'pull') =>
  (line: string): void =>
    ctx.emit({ event: 'sync.progress', payload: { step, line } });

export function syncHandlers(ctx: HandlerContext, env: NodeJS.ProcessEnv = process.env): AreaHandlers<'sync'> {
  return {
    'sync.status': async () => syncStatus(await ctx.home(), ctx.dataDir),
    'sync.init': async (input, request) => {
      requireAbsolutePaths(input.remote, input.scopeProject);
      return syncInit(
        ctx.dataDir,
        {
          remote: input.remote,
          ...(input.machine !== undefined ? { machine: input.machine } : {}),
          ...(input.person !== undefined ? { person: input.person } : {}),
          scopeProject: input.scopeProject ?? null,
          ...(input.takeOver ? { takeOver: true } : {}),
        },
        { signal: request?.signal, progress: progressOf(ctx, 'init') },
      );
    },
    'sync.push': async (_input, request) =>
      syncPush(await ctx.home(), ctx.dataDir, { signal: request?.signal, progress: progressOf(ctx, 'push') }),
    'sync.pull': async (_input, request) => {
      const { proposal, ...rest } = await syncPull(
        await ctx.home(),
        ctx.dataDir,
        ctx.studioDb(),
        { signal: request?.signal, progress: progressOf(ctx, 'pull') },
        env,
      );
      return { ...rest, proposalId: proposal?.id ?? null };
    },
  };
}
