// Opens SQLite through better-sqlite3 with the native build that matches the running runtime (Node or Electron).
import Database from 'better-sqlite3';
import { existsSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { StudioFailure } from './errors';
import { nativeSqliteRoot } from './native-root';
import { describeFileType, notRegular } from './regular-file';

/**
 * Node (CLI, serve host, tests) and Electron have different native ABIs, so one checkout keeps two builds of
 * better-sqlite3: node_modules' own for Node, and an Electron build under out/native/electron/ that
 * `npm run rebuild:electron` makes (electron-builder rebuilds it itself when packaging).
 */
export function electronNativeBinding(packageRoot: string): string {
  return join(packageRoot, 'out', 'native', 'electron', 'better_sqlite3.node');
}

export { configureNativeSqlite, nativeSqliteRoot } from './native-root';

/**
 * SQLite opens a path with a blocking open(2): a FIFO in place of a DB (Codex's state_5.sqlite, our index) would hold
 * the thread for ever. What is there is checked first (followed, as SQLite follows it) and anything but a regular
 * file refused by name. A FIFO swapped in between this check and SQLite's own open is not caught.
 */
function refuseNonRegular(source: string): void {
  if (source === '' || source === ':memory:' || source.startsWith('file:')) return;
  let info: Stats | undefined;
  try {
    info = statSync(source, { throwIfNoEntry: false });
  } catch {
    return; // cannot be looked at (permissions, a file in the path): SQLite says so in its own words
  }
  if (info && !info.isFile()) throw notRegular(source, describeFileType(info));
}

/** `source` is a file path, or a Buffer holding a whole database (opened as an in-memory copy). */
export function openSqlite(source: string | Buffer, options: Database.Options = {}): Database.Database {
  if (typeof source === 'string') refuseNonRegular(source);
  const packageRootForNative = nativeSqliteRoot();
  if (process.versions.electron && packageRootForNative) {
    const binding = electronNativeBinding(packageRootForNative);
    if (!existsSync(binding)) {
      throw new StudioFailure(
        'Unsupported',
        `SQLite is not available in the desktop app yet: the Electron build of better-sqlite3 is missing (${binding}).`,
        {
          hint: 'Run "npm run rebuild:electron" once (it needs network access for Electron\'s headers), or use "memory-studio serve".',
        },
      );
    }
    return new Database(source, { ...options, nativeBinding: binding });
  }
  return new Database(source, options);
}
