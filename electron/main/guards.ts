// Electron-side security decisions as pure functions (no 'electron' import), so tests can prove each one rejects.

export const APP_SCHEME = 'app';
export const APP_HOST = 'studio';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export interface SenderFacts {
  /** webContents id of the sender. */
  webContentsId: number;
  /** URL of the sending frame, or null when the frame is gone. */
  frameUrl: string | null;
  /** True when the sending frame is the top-level frame (not an iframe). */
  isTopFrame: boolean;
}

/**
 * IPC sender check (Electron security checklist, "Validate the sender of all IPC messages"):
 * the top-level frame of one of our own windows, showing our own app:// origin.
 */
export function isTrustedSender(sender: SenderFacts, trustedWebContentsIds: ReadonlySet<number>): boolean {
  if (!trustedWebContentsIds.has(sender.webContentsId)) return false;
  if (!sender.isTopFrame || sender.frameUrl === null) return false;
  return isOwnOrigin(sender.frameUrl);
}

/** True for URLs on our own app://studio origin; anything unparsable is foreign. */
export function isOwnOrigin(target: string): boolean {
  try {
    const url = new URL(target);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Navigation is allowed only inside our own origin (checklist: "Disable or limit navigation"). */
export const isAllowedNavigation = isOwnOrigin;

/** The one gate for opening links outside the app: https only (checklist: "Do not use shell.openExternal with untrusted content"). */
export function isAllowedExternalUrl(target: string): boolean {
  try {
    const url = new URL(target);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export interface MainArgs {
  codexHome?: string;
  dataDir?: string;
  demo: boolean;
}

/** Reads our own switches from Electron's argv (`--codex-home=DIR`, `--data-dir=DIR`, `--demo`); ignores Chromium's. */
export function parseMainArgs(argv: readonly string[]): MainArgs {
  const result: MainArgs = { demo: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (name === '--codex-home') result.codexHome = value();
    else if (name === '--data-dir') result.dataDir = value();
    else if (name === '--demo') result.demo = true;
  }
  return result;
}

/**
 * The webPreferences of every window (Electron security checklist items 2-4, 8, 9): isolated, sandboxed,
 * no Node in the page or its workers, web security on, no <webview>.
 */
export function secureWebPreferences(preload: string) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  } as const;
}
