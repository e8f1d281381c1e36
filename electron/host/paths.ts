// Where the built pieces live: found from the package root, whether this runs compiled (out/) or from source (tests).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The nearest folder above this file whose package.json is Memory Studio's. */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'memory-studio') return dir;
    if (dirname(dir) === dir) throw new Error(`Memory Studio's package.json was not found above ${start}.`);
  }
}

export const packageRoot = findPackageRoot(__dirname);
export const rendererDir = join(packageRoot, 'out', 'renderer');
export const preloadFile = join(packageRoot, 'out', 'preload', 'index.cjs');
/** The `memory-studio` command of this checkout: what an agent connected to `memory-studio mcp` runs. */
export const binFile = join(packageRoot, 'electron', 'host', 'bin.cjs');

/** How a Node host starts `memory-studio`: this very Node (an agent passes few variables, so no PATH lookup) and bin.cjs. */
export function nodeLauncher(): { command: string; args: string[] } {
  return { command: process.execPath, args: [binFile] };
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}
