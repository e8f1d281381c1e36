// Registers every contract channel on ipcMain from the channel map, behind the sender check; forwards core events.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { channelNames, IPC_EVENT_CHANNEL, IPC_PREFIX } from '../../shared/contract';
import type { StudioService } from '../core/service/service';
import { isTrustedSender } from './guards';

export function registerIpc(service: StudioService, trustedIds: ReadonlySet<number>): () => void {
  const check = (event: IpcMainInvokeEvent) =>
    isTrustedSender(
      { webContentsId: event.sender.id, frameUrl: event.senderFrame?.url ?? null, isTopFrame: event.senderFrame?.parent === null },
      trustedIds,
    );
  for (const name of channelNames) {
    ipcMain.handle(IPC_PREFIX + name, async (event, input: unknown) => {
      if (!check(event)) {
        console.error(
          `Refused ${name} from an untrusted sender (webContents ${event.sender.id}, ${event.senderFrame?.url ?? 'no frame'}).`,
        );
        return { ok: false, error: { kind: 'Invalid', message: 'Refused: this request did not come from the Memory Studio window.' } };
      }
      return service.dispatch(name, input);
    });
  }
  return () => {
    for (const name of channelNames) ipcMain.removeHandler(IPC_PREFIX + name);
  };
}

export function forwardEvents(service: StudioService, target: () => WebContents[]): () => void {
  return service.onEvent((event) => {
    for (const contents of target()) if (!contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, event);
  });
}
