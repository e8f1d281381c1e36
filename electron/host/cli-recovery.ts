// What a killed Memory Studio process left (Codex's lease still `running` under its pid, temp files, a journal) put
// right at the start of a CLI command that does not open the service (the index commands, apply, import --plan,
// secrets), with the service's own start recovery (core/service/start-recovery.ts): any process start cleans up,
// whichever command it runs, and says so on stderr.
import type { HomeInfo } from '../../shared/domain';
import { recoverCommandHome } from '../core/service/use-cases/command-home';
import { writeStderr } from './cli-io';

export async function recoverBeforeCommand(home: HomeInfo, dataDir: string): Promise<void> {
  await recoverCommandHome(home, dataDir, (line) => writeStderr(`${line}\n`));
}
