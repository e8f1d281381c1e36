// Where the built pieces live relative to the compiled host code (out/electron/host/*.js).
import { join, resolve } from 'node:path';

/** The package root: the folder with package.json, three levels above out/electron/host. */
export const packageRoot = resolve(__dirname, '..', '..', '..');
export const rendererDir = join(packageRoot, 'out', 'renderer');
export const preloadFile = join(packageRoot, 'out', 'preload', 'index.cjs');

export function packageVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- JSON read once at start-up.
  return (require(join(packageRoot, 'package.json')) as { version: string }).version;
}
