// The Electron transport: forwards to the named functions the preload exposes as `window.studio`.
import type { ChannelName, StudioApi } from '../../../shared/contract';
import { fail } from '../../../shared/result';
import type { RawTransport } from './http-transport';
import { createLiveStatusStore } from './live-status';

type LooseApi = Record<string, Record<string, ((input: unknown) => Promise<unknown>) | undefined> | undefined>;

export function createIpcTransport(bridge: StudioApi): RawTransport {
  // IPC events cannot be missed while the window lives, so live updates are simply on.
  const live = createLiveStatusStore('live');
  const loose = bridge as unknown as LooseApi;

  return {
    async call(channel: ChannelName, input: unknown): Promise<unknown> {
      const [area = '', verb = ''] = channel.split('.');
      const fn = loose[area]?.[verb];
      if (!fn) {
        return fail({
          kind: 'Internal',
          message: `The desktop bridge does not offer ${channel}.`,
          hint: 'The window and the app are from different builds. Reinstall or rebuild Memory Studio.',
        });
      }
      try {
        return await fn(input);
      } catch (error) {
        // The preload is supposed to return Results, never throw; keep the window alive if it does.
        const detail = error instanceof Error ? error.message : String(error);
        return fail({ kind: 'Internal', message: `${channel} failed in the desktop bridge: ${detail}` });
      }
    },
    subscribe(listener) {
      return bridge.onEvent((envelope) => listener(envelope));
    },
    onResync() {
      return () => undefined;
    },
    live,
  };
}
