// Starts the Electron app when a binary and a display exist; otherwise says why in one line so the caller can fall back.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { electronNativeBinding } from '../core/platform/sqlite';
import { packageRoot } from './paths';

const DOWNLOAD_TIMEOUT_MS = 120_000;
/** An Electron that dies this quickly did not start (missing libraries, GPU or sandbox problems). */
const EARLY_EXIT_MS = 8_000;

function electronPackageDir(): string | null {
  try {
    return dirname(require.resolve('electron/package.json', { paths: [packageRoot] }));
  } catch {
    return null;
  }
}

function binaryPath(dir: string): string | null {
  const pathFile = join(dir, 'path.txt');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  if (override) return join(override, name ?? 'electron');
  if (!name) return null;
  const full = join(dir, 'dist', name);
  return existsSync(full) ? full : null;
}

/** The Electron binary if it is already on disk; never downloads (tests use this). */
export function locateElectronBinary(): { path: string } | { reason: string } {
  const dir = electronPackageDir();
  if (!dir) return { reason: 'the electron package is not installed (run npm install)' };
  const found = binaryPath(dir);
  return found
    ? { path: found }
    : {
        reason: `the Electron binary is not installed (${join(dir, 'path.txt')} is missing; it downloads on the first "npm start" where the network allows)`,
      };
}

/** The Electron binary, fetching it once if the electron package has not yet (it downloads lazily). */
export function findElectronBinary(): { path: string } | { reason: string } {
  const dir = electronPackageDir();
  if (!dir) return { reason: 'the electron package is not installed (run npm install)' };
  let found = binaryPath(dir);
  if (!found) {
    const result = spawnSync(process.execPath, [join(dir, 'install.js')], { cwd: dir, encoding: 'utf8', timeout: DOWNLOAD_TIMEOUT_MS });
    found = binaryPath(dir);
    if (!found) {
      const detail =
        `${result.stderr ?? ''}${result.stdout ?? ''}`.match(/(?:Error|error)[^\n]*/)?.[0] ?? 'no network access to download it';
      return { reason: `the Electron binary could not be downloaded (${detail.slice(0, 160)})` };
    }
  }
  return { path: found };
}

export function displayProblem(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | null {
  if (platform !== 'linux') return null;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return null;
  return 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)';
}

/** First start only: build better-sqlite3 for Electron's ABI; on failure the app still starts and says what is missing where it needs SQLite. */
function ensureElectronSqlite(): void {
  if (existsSync(electronNativeBinding(packageRoot))) return;
  console.log('Building SQLite for Electron (first start only, about a minute) ...');
  const result = spawnSync(process.execPath, [join(packageRoot, 'electron', 'host', 'rebuild-electron-native.cjs'), '--quiet'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (result.status !== 0)
    console.log('Could not build SQLite for Electron; pipeline views will say so. "npm run rebuild:electron" shows why.');
}

/** Runs Electron on the app; resolves with a reason when it could not start, or never returns control otherwise. */
export async function runElectron(args: string[]): Promise<{ started: true; code: number } | { started: false; reason: string }> {
  const display = displayProblem();
  if (display) return { started: false, reason: display };
  const binary = findElectronBinary();
  if ('reason' in binary) return { started: false, reason: binary.reason };
  ensureElectronSqlite();
  const startedAt = Date.now();
  const child = spawn(binary.path, [packageRoot, ...args], { stdio: ['ignore', 'inherit', 'pipe'], env: process.env });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  const code = await new Promise<number>((resolvePromise) => {
    child.on('error', () => resolvePromise(-1));
    child.on('exit', (exitCode) => resolvePromise(exitCode ?? -1));
  });
  if (code !== 0 && Date.now() - startedAt < EARLY_EXIT_MS) {
    const line = stderr.split('\n').find((l) => l.trim() !== '') ?? `exit code ${code}`;
    return { started: false, reason: `Electron exited at start-up (${line.trim().slice(0, 160)})` };
  }
  return { started: true, code };
}
