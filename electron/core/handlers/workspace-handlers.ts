// Handlers for `workspace.*`: the files of a root, and one file's text.
import { listMemoryRoot, readMemoryFile } from '../codex/workspace';
import type { AreaHandlers, HandlerContext } from './context';

export function workspaceHandlers(ctx: HandlerContext): AreaHandlers<'workspace'> {
  return {
    'workspace.list': async ({ version }) => listMemoryRoot(await ctx.rootPath(version), version),
    'workspace.read': async ({ version, path }) => readMemoryFile(await ctx.rootPath(version), version, path, ctx.readCapBytes),
  };
}
