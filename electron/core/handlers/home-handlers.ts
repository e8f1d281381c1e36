// Handlers for `app.*` and `home.*`: what the app is, which Codex home it shows, and the demo switch.
import type { TrustedSettingsUi } from '../consolidate/trusted-settings';
import { StudioFailure } from '../platform/errors';
import type { ChosenPurpose } from './caller-paths';
import { ensureDemoHome } from './demo-home-choice';
import type { AreaHandlers, HandlerContext } from './context';

const CHOICES = {
  project: { kind: 'folder', title: 'Choose the project folder to promote into', buttonLabel: 'Use this project' },
  'import-source': { kind: 'folder', title: 'Choose the folder to import memory from', buttonLabel: 'Import from here' },
  'cursor-db': { kind: 'file', title: 'Choose Cursor\u2019s state.vscdb', buttonLabel: 'Read User Rules from here' },
  repo: { kind: 'folder', title: 'Choose a repository to import from', buttonLabel: 'Look in this repository' },
} as const;

/** Main's native dialog, and the pick trusted for its purpose; a host without dialogs (serve, the CLI) says what to do. */
async function choosePath(ctx: HandlerContext, ui: TrustedSettingsUi | null, purpose: ChosenPurpose): Promise<{ path: string | null }> {
  if (!ui?.pickPath)
    throw new StudioFailure('Unsupported', 'This host cannot open a folder dialog.', {
      hint: 'With serve, name an import source when starting it (--import-source DIR), or use the command line (memory-studio promote … --project DIR, memory-studio import --source-home DIR).',
    });
  const picked = await ui.pickPath(CHOICES[purpose]);
  return { path: picked === null ? null : ctx.callerPaths.choose(purpose, picked) };
}

export function appHandlers(ctx: HandlerContext, ui: TrustedSettingsUi | null = null): AreaHandlers<'app'> {
  return {
    'app.choosePath': async ({ purpose }) => choosePath(ctx, ui, purpose),
    'app.info': async () => ({
      name: 'Memory Studio',
      version: ctx.appVersion,
      host: ctx.host,
      dataDir: ctx.dataDir,
      platform: process.platform,
      readCapBytes: ctx.readCapBytes,
    }),
  };
}

export function homeHandlers(ctx: HandlerContext): AreaHandlers<'home'> {
  return {
    'home.get': () => ctx.home(),
    'home.openDemo': async () => {
      ctx.switchHome(await ensureDemoHome(ctx.dataDir, ctx.createDemoHome));
      const info = await ctx.home();
      ctx.emit({ event: 'home.changed', payload: { codexHome: info.codexHome } });
      return info;
    },
    // Back to the home the host started with; a no-op when no demo replaced it.
    'home.leaveDemo': async () => {
      const current = await ctx.knownHome();
      if (current.returnHome === null) return current;
      ctx.switchHome(ctx.startHome);
      const info = await ctx.home();
      ctx.emit({ event: 'home.changed', payload: { codexHome: info.codexHome } });
      return info;
    },
  };
}
