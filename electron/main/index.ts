// Electron main: a thin shell that hardens the app, opens the window and wires the contract to core.
import { app, BrowserWindow, dialog, nativeTheme, safeStorage } from 'electron';
import { resolveDataDir } from '../core/service/data-dir';
import { checkDataDirPlacement } from '../core/service/data-dir-check';
import type { StudioFailure } from '../core/platform/errors';
import { resolveCodexHome } from '../core/service/use-cases/locate';
import { createStudioService } from '../core/service/service';
import { shutdownWorkerPool } from '../core/service/use-cases/runtime';
import { configureNativeSqlite } from '../core/platform/sqlite';
import { startAppKeeper, type AppKeeper } from '../host/keeper-app';
import { binFile, packageRoot, packageVersion, preloadFile, rendererDir } from '../host/paths';
import { APP_ENTRY_URL, parseMainArgs, secureWebPreferences } from './guards';
import { forwardEvents, registerIpc } from './ipc';
import { handleAppProtocol, registerAppScheme } from './protocol';
import { hardenApp } from './security';

const args = parseMainArgs(process.argv);

/** A data folder inside a Codex memory folder is said in a dialog and the app quits (exit 2, as a usage error). */
function refuseDataDirInsideMemory(dataDir: string, codexHome: string): void {
  try {
    checkDataDirPlacement(dataDir, codexHome);
  } catch (error) {
    const failure = error as StudioFailure;
    dialog.showErrorBox('Memory Studio cannot use this data folder', `${failure.message}\n\n${failure.hint ?? ''}`);
    // Nothing has been written yet; the process ends here, before any window or service exists.
    process.exit(2);
  }
}
// Tests run several instances side by side; everyone else gets one window per user (Bruno's pattern).
const allowMultiple = process.env.MEMORY_STUDIO_MULTI_INSTANCE === '1';
if (!allowMultiple && !app.requestSingleInstanceLock()) {
  app.quit();
} else {
  configureNativeSqlite(packageRoot);
  const dataDir = resolveDataDir({ flag: args.dataDir });
  app.setPath('userData', dataDir);
  hardenApp();
  registerAppScheme();
  const home = resolveCodexHome({ flag: args.codexHome });
  refuseDataDirInsideMemory(dataDir, home.codexHome);
  const windows = new Set<BrowserWindow>();
  const trustedIds = new Set<number>();
  const parentWindow = () => BrowserWindow.getFocusedWindow() ?? [...windows][0];
  const service = createStudioService({
    home: args.demo ? { codexHome: home.codexHome, source: 'demo' } : home,
    dataDir,
    host: 'electron',
    appVersion: packageVersion(),
    // Electron's own binary is no Node for an agent to run: the agent starts the server with the `node` on its PATH.
    mcpLauncher: { command: 'node', args: [binFile] },
    // The OpenAI-compatible key is kept only encrypted by the OS keychain (never in clear in the data folder).
    secretStore: {
      // On Linux without a secret service Electron falls back to 'basic_text' (a hard-coded password): that is clear
      // text in effect, so the key must then come from the environment instead.
      available: () =>
        safeStorage.isEncryptionAvailable() && (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
      encrypt: (plain) => safeStorage.encryptString(plain),
      decrypt: (buf) => safeStorage.decryptString(buf),
    },
    // The renderer never sends a program path: main asks the person with native dialogs (the codex command, an
    // unusual API key variable), so a compromised page cannot choose what runs or where the key goes.
    trustedSettingsUi: {
      pickCodexCommand: async () => {
        const options = { title: 'Choose the codex executable', buttonLabel: 'Use this codex', properties: ['openFile' as const] };
        const parent = parentWindow();
        const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      // A folder or file the person picks here is what a promotion or an import may use; the page never types one.
      pickPath: async ({ kind, title, buttonLabel }) => {
        const options = { title, buttonLabel, properties: [kind === 'folder' ? ('openDirectory' as const) : ('openFile' as const)] };
        const parent = parentWindow();
        const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      confirm: async (message, detail) => {
        const options = { type: 'warning' as const, buttons: ['Use it', 'Cancel'], defaultId: 1, cancelId: 1, message, detail };
        const parent = parentWindow();
        return (parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options)).response === 0;
      },
    },
  });

  const createWindow = () => {
    const window = new BrowserWindow({
      width: 1280,
      height: 820,
      title: 'Memory Studio',
      show: false,
      backgroundColor: nativeTheme.shouldUseDarkColors ? '#1e1e1e' : '#ffffff',
      webPreferences: secureWebPreferences(preloadFile),
    });
    const id = window.webContents.id;
    trustedIds.add(id);
    windows.add(window);
    window.once('ready-to-show', () => window.show());
    window.on('closed', () => {
      trustedIds.delete(id);
      windows.delete(window);
    });
    window
      .loadURL(APP_ENTRY_URL)
      .catch((error: unknown) => console.error(`Memory Studio could not load its window (${APP_ENTRY_URL}):`, error));
  };

  app.on('second-instance', () => {
    const [first] = windows;
    if (first) {
      if (first.isMinimized()) first.restore();
      first.focus();
    }
  });
  // Quitting waits (at most 8 s) for running consolidations to stop: a `codex exec` agent is killed rather than left
  // running on its own, and Codex's lease goes back exactly as it was instead of waiting for expiry.
  let keeper: AppKeeper | null = null;
  let shuttingDown = false;
  app.on('before-quit', (event) => {
    if (shuttingDown) return;
    shuttingDown = true;
    event.preventDefault();
    // The keeper first (a moment at most), then the service; workers end between awaits, not mid-read.
    const stopping = Promise.resolve(keeper?.close())
      .finally(() => service.shutdown())
      .finally(() => shutdownWorkerPool());
    void Promise.race([stopping, new Promise((resolve) => setTimeout(resolve, 8_000))])
      .catch((error: unknown) => console.error('Memory Studio could not stop its consolidations cleanly before quitting:', error))
      .finally(() => app.exit(0));
  });
  app.on('window-all-closed', () => app.quit());
  app.whenReady().then(
    () => {
      handleAppProtocol(rendererDir);
      registerIpc(service, trustedIds);
      forwardEvents(service, () => [...windows].map((w) => w.webContents));
      createWindow();
      // While the app is open, the CLI's index commands on its home are answered by its keeper thread (host/keeper-app.ts).
      keeper = startAppKeeper(args.demo ? { codexHome: home.codexHome, source: 'demo' } : home, dataDir, (line) =>
        console.error(`[keeper] ${line}`),
      );
    },
    (error: unknown) => {
      console.error('Memory Studio could not start:', error);
      app.exit(1);
    },
  );
}
