// The home a command of a short-lived host (the CLI) works on: read as the app reads it, with the data folder checked
// against it and what a killed process left put right first (the service's own start recovery).
import type { HomeInfo } from '../../../../shared/domain';
import { inspectHome } from '../../codex/home';
import type { HomeChoice } from '../../codex/home-path';
import { checkDataDirPlacement } from '../data-dir-check';
import { recoverAtStart } from '../start-recovery';

export { inspectHome };

/**
 * Reads the home; `check` may refuse it (a home that does not exist, for commands that need one); refuses a data folder
 * inside it; then recovers, handing each line of what it did to `say` (the command's stderr).
 */
export async function openCommandHome(
  choice: HomeChoice,
  dataDir: string,
  say: (line: string) => void,
  check: (home: HomeInfo) => void = () => undefined,
): Promise<HomeInfo> {
  const home = await inspectHome(choice);
  check(home);
  checkDataDirPlacement(dataDir, home.codexHome);
  await recoverCommandHome(home, dataDir, say);
  return home;
}

/** The start recovery alone, for a host that has read the home itself (the keeper, before each answer). */
export async function recoverCommandHome(home: HomeInfo, dataDir: string, say: (line: string) => void): Promise<void> {
  for (const line of await recoverAtStart(home, dataDir)) say(line);
}
