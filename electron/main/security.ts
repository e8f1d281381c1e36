// App-wide hardening applied to every webContents and session (Electron security checklist).
import { app, session, shell } from 'electron';
import { isAllowedExternalUrl, isAllowedNavigation } from './guards';

/** The only way the app opens a link outside itself. */
export async function openExternal(url: string): Promise<boolean> {
  if (!isAllowedExternalUrl(url)) return false;
  await shell.openExternal(url);
  return true;
}

export function hardenApp(): void {
  // Checklist: "Enable process sandboxing" for every renderer, not only the windows we configure.
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => {
    // Checklist: "Disable or limit navigation" and "Disable or limit creation of new windows".
    contents.on('will-navigate', (event, url) => {
      if (!isAllowedNavigation(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAllowedNavigation(url)) event.preventDefault();
    });
    contents.setWindowOpenHandler(({ url }) => {
      // The handler must answer at once; the browser opens after, and a failure is logged rather than lost.
      openExternal(url).catch((error: unknown) => console.error(`Memory Studio could not open ${url} in the browser:`, error));
      return { action: 'deny' };
    });
    // Checklist: "Verify WebView options before creation": we use none, so refuse all.
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  app.whenReady().then(
    () => {
      // Checklist: "Handle session permission requests from remote content": the app needs none.
      session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
      session.defaultSession.setPermissionCheckHandler(() => false);
    },
    () => undefined,
  );
}
