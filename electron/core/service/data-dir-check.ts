// Where the data folder may not be: inside a Codex memory folder, where everything Memory Studio writes (its index,
// staging copies, history, trash) would land in Codex's memory without a proposal.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { ROOT_DIRS } from '../codex/constants';
import { StudioFailure } from '../platform/errors';

/** The path as the disk resolves it: the real path of its nearest existing folder, and the rest as given. */
function realish(path: string): string {
  const tail: string[] = [];
  for (let dir = path; ; dir = dirname(dir)) {
    try {
      return join(realpathSync(dir), ...tail.reverse());
    } catch {
      if (dirname(dir) === dir) return path;
      tail.push(basename(dir));
    }
  }
}

/** Macs and Windows compare names without case: there `~/.codex/MEMORIES` is the memory folder too. */
function comparable(path: string, platform: NodeJS.Platform): string {
  return platform === 'darwin' || platform === 'win32' ? path.toLowerCase() : path;
}

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The memory folder of `codexHome` that holds (or is) `dataDir`, or null. */
export function memoryRootHolding(dataDir: string, codexHome: string, platform: NodeJS.Platform = process.platform): string | null {
  const data = comparable(realish(dataDir), platform);
  for (const name of Object.values(ROOT_DIRS)) {
    const root = join(codexHome, name);
    if (inside(comparable(realish(root), platform), data) || inside(comparable(root, platform), comparable(dataDir, platform))) return root;
  }
  return null;
}

/** Refuses a data folder inside one of the Codex home's memory folders (`--data-dir`, `MEMORY_STUDIO_DATA`). */
export function checkDataDirPlacement(dataDir: string, codexHome: string): void {
  const root = memoryRootHolding(dataDir, codexHome);
  if (!root) return;
  throw new StudioFailure(
    'Invalid',
    `The data folder ${dataDir} is inside the Codex memory folder ${root}: Memory Studio's index, staging copies and history would be written into Codex's memory without a proposal.`,
    {
      path: dataDir,
      hint: 'Choose a data folder outside the Codex home\u2019s memories/ and memories_v2/ (--data-dir DIR or MEMORY_STUDIO_DATA), or leave both unset for the default.',
    },
  );
}
