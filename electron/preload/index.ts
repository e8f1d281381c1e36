// Preload: exposes `window.studio` with one named function per contract channel; never a generic invoke.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildApi, IPC_EVENT_CHANNEL, IPC_PREFIX } from '../../shared/channel-names';
import type { EventEnvelope } from '../../shared/contract';
import type { Result } from '../../shared/result';

const api = buildApi(
  (channel, input) => ipcRenderer.invoke(IPC_PREFIX + channel, input) as Promise<Result<unknown>>,
  (listener) => {
    const handler = (_event: IpcRendererEvent, envelope: EventEnvelope) => listener(envelope);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
  },
);

contextBridge.exposeInMainWorld('studio', api);
