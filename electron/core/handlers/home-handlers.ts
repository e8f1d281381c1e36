// Handlers for `app.*` and `home.*`: what the app is, which Codex home it shows, and the demo switch.
import { ensureDemoHome } from '../service/demo-home-choice';
import type { AreaHandlers, HandlerContext } from './context';

export function appHandlers(ctx: HandlerContext): AreaHandlers<'app'> {
  return {
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
  };
}
