// What a killed Memory Studio process left (Codex's lease still `running` under its pid, temp files, a journal) put
// right at the start of a CLI command that does not open the service (the index commands, apply, import --plan,
// secrets), as the service does for every other command: any process start cleans up, whichever command it runs.
import type { HomeInfo } from '../../shared/domain';
import { recoverLeftovers } from '../core/apply/recovery';
import { careForDataFolder, describeCare } from '../core/service/data-folder-care';
import { writeStderr } from './cli-io';

export async function recoverBeforeCommand(home: HomeInfo, dataDir: string): Promise<void> {
  try {
    const report = await recoverLeftovers(
      dataDir,
      home.roots.filter((r) => r.exists).map((r) => r.path),
    );
    const done = report ? [...report.completed, ...report.rolledForward, ...report.rolledBack].length : 0;
    const parts = [
      done > 0 ? `${done} interrupted Apply(s) finished or rolled back` : '',
      report && report.releasedLeases.length > 0 ? `Codex's consolidation lease handed back (${report.releasedLeases.length})` : '',
      report && report.removedTempFiles.length > 0 ? `${report.removedTempFiles.length} temp file(s) removed` : '',
    ].filter(Boolean);
    if (parts.length > 0) writeStderr(`After an interrupted Memory Studio process: ${parts.join('; ')}.\n`);
  } catch (error) {
    writeStderr(`Could not check for an interrupted Apply: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  await careBeforeCommand(dataDir);
}

/** Then what the service does at its start too: the data folder's modes, a killed consolidation's staging, the trash. */
async function careBeforeCommand(dataDir: string): Promise<void> {
  try {
    const line = describeCare(await careForDataFolder(dataDir));
    if (line) writeStderr(`${line}\n`);
  } catch (error) {
    writeStderr(`Could not tidy the data folder ${dataDir}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
