// `memory-studio coverage`: the coverage ledger of a home, read as the `coverage.get` channel reads it (no service,
// no data folder: the ledger reads Codex's DBs and one memory root, and writes nothing).
import type { CoverageInput, CoverageReport } from '../../../../shared/coverage';
import type { HomeInfo } from '../../../../shared/domain';
import { inspectHome } from '../../codex/home';
import type { HomeChoice } from '../../codex/home-path';
import { nowSeconds } from '../../codex-db/time';
import { buildCoverage } from '../../coverage';

export interface CommandCoverage {
  home: HomeInfo;
  report: CoverageReport;
}

/** The home as the app reads it (`env` is the command's: CODEX_SQLITE_HOME) and its ledger at `now`. */
export async function coverageForCommand(
  choice: HomeChoice,
  input: CoverageInput,
  env: NodeJS.ProcessEnv,
  now: Date = new Date(),
): Promise<CommandCoverage> {
  const home = await inspectHome(choice, env);
  return { home, report: await buildCoverage(home, input, nowSeconds(now)) };
}
