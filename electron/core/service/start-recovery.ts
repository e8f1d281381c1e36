// What a killed Memory Studio process left, put right when any host starts on a home: interrupted Applies finished or
// rolled back (and recorded), Codex's lease handed back, temp files removed, then the data folder's care (modes, a
// killed consolidation's staging, the trash). One function for the service and for the CLI commands that open no
// service, so both do the same and say it in the same words.
import type { HomeInfo } from '../../../shared/domain';
import { recoverLeftovers, recoveryScopeOf, type RecoveryOptions } from '../apply/recovery';
import { careForDataFolder, describeCare } from './data-folder-care';

type RecoveryReport = NonNullable<Awaited<ReturnType<typeof recoverLeftovers>>>;

/** The report in one sentence, or null when there was nothing to put right. */
export function describeRecovery(report: RecoveryReport | null): string | null {
  if (!report) return null;
  const done = [...report.completed, ...report.rolledForward, ...report.rolledBack].length;
  const parts = [
    done > 0 ? `${done} interrupted Apply(s) finished or rolled back` : '',
    report.recorded.length > 0 ? `recorded as applied in the history: ${report.recorded.join(', ')}` : '',
    ...report.unrecorded.map((u) => `proposal ${u.id} is in place but not recorded: ${u.reason}`),
    report.releasedLeases.length > 0 ? `Codex's consolidation lease handed back (${report.releasedLeases.length})` : '',
    report.removedTempFiles.length > 0 ? `${report.removedTempFiles.length} temp file(s) removed` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `After an interrupted Memory Studio process: ${parts.join('; ')}.` : null;
}

/**
 * Recovery, then the data folder's care; never throws. Returns the lines to tell the person (none when all was well):
 * what was put right, or why it could not be checked.
 */
export async function recoverAtStart(
  home: HomeInfo,
  dataDir: string,
  options: Pick<RecoveryOptions, 'noteWrites'> = {},
): Promise<string[]> {
  const lines: string[] = [];
  try {
    const scope = recoveryScopeOf(home);
    const line = describeRecovery(await recoverLeftovers(dataDir, scope.roots, { ...scope.options, ...options }));
    if (line) lines.push(line);
  } catch (error) {
    lines.push(`Could not check for an interrupted Apply: ${error instanceof Error ? error.message : String(error)}`);
  }
  // After recovery, which may still need a killed Apply's trash whole.
  try {
    const line = describeCare(await careForDataFolder(dataDir));
    if (line) lines.push(line);
  } catch (error) {
    lines.push(`Could not tidy the data folder ${dataDir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return lines;
}
