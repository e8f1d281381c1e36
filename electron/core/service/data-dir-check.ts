// Where the data folder may not be: inside a Codex memory folder, where everything Memory Studio writes (its index,
// staging copies, history, trash) would land in Codex's memory without a proposal.
import { join } from 'node:path';
import { ROOT_DIRS } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { isInsideOrSame, realPathOf } from '../platform/real-path';

/** Macs and Windows compare names without case: there `~/.codex/MEMORIES` is the memory folder too. */
function comparable(path: string, platform: NodeJS.Platform): string {
  return platform === 'darwin' || platform === 'win32' ? path.toLowerCase() : path;
}

/** The memory folder of `codexHome` that holds (or is) `dataDir`, or null. */
export function memoryRootHolding(dataDir: string, codexHome: string, platform: NodeJS.Platform = process.platform): string | null {
  const data = comparable(realPathOf(dataDir), platform);
  for (const name of Object.values(ROOT_DIRS)) {
    const root = join(codexHome, name);
    if (
      isInsideOrSame(comparable(realPathOf(root), platform), data) ||
      isInsideOrSame(comparable(root, platform), comparable(dataDir, platform))
    )
      return root;
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
