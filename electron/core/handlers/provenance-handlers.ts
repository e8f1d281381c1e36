// Handlers for `provenance.*`: pointer -> rollout summary -> session, cited-by, never-cited, and a session's citations.
import { realpath } from 'node:fs/promises';
import { join, relative, sep, isAbsolute } from 'node:path';
import { StudioFailure } from '../platform/errors';
import { citedBy, locateSession, neverCited, parseSessionRollout, resolveCitations, resolvePointer } from '../sessions';
import { lineProvenance } from '../inspect/line-provenance';
import type { AreaHandlers, HandlerContext } from './context';

/** Session files are read only inside the home's sessions/ and archived_sessions/, whatever the state DB says. */
async function checkSessionPath(codexHome: string, path: string): Promise<string> {
  const real = await realpath(path).catch(() => {
    throw new StudioFailure('NotFound', `The session file ${path} does not exist any more.`, {
      path,
      hint: 'Codex may have archived or deleted it.',
    });
  });
  const home = await realpath(codexHome);
  const inside = ['sessions', 'archived_sessions'].some((dir) => {
    const rel = relative(join(home, dir), real);
    return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
  });
  if (!inside) {
    throw new StudioFailure('Invalid', `The session path ${path} is outside ${codexHome}/sessions, so Memory Studio does not open it.`, {
      path,
    });
  }
  return real;
}

export function provenanceHandlers(ctx: HandlerContext): AreaHandlers<'provenance'> {
  return {
    'provenance.pointer': async ({ version, file, threadIdHint }) => resolvePointer(await ctx.knownHome(), version, file, { threadIdHint }),
    'provenance.citedBy': async ({ version, path }) => citedBy(await ctx.knownHome(), version, path),
    'provenance.neverCited': async ({ version }) => neverCited(await ctx.knownHome(), version),
    'provenance.line': async ({ version, path, line }) =>
      lineProvenance(await ctx.knownHome(), await ctx.rootPath(version), version, path, line, ctx.readCapBytes),
    'provenance.session': async ({ threadId }) => {
      const home = await ctx.knownHome();
      const location = await locateSession(home, threadId);
      if (!location.path) {
        throw new StudioFailure('NotFound', `No session file for thread ${threadId} in ${home.codexHome}.`, {
          hint: location.dbRolloutPath
            ? `Codex's catalog points at ${location.dbRolloutPath}, which is gone.`
            : 'The session may have been deleted.',
        });
      }
      // Each cited path comes with where it is in this home, so the session view links it without knowing Codex's folders.
      return resolveCitations(home, await parseSessionRollout(await checkSessionPath(home.codexHome, location.path)));
    },
  };
}
