// Import of Claude Code and Cursor memory: detection, planning and the reviewed proposal (entry points).
import type { HomeInfo } from '../../../shared/domain';
import type { Detection, ImportOutcome, ImportPlan, ImportPlanInput, ImportSourceOptions } from '../../../shared/import';
import { StudioFailure } from '../errors';
import type { StudioDb } from '../studio-db';

export { clearDraft, readDraft, saveDraft } from './draft';

export interface ImportEnv {
  env?: NodeJS.ProcessEnv;
  /** Claude's managed settings folder (`/etc/claude-code` on Linux); tests point it elsewhere. */
  managedSettingsDir?: string;
}

export async function detectImport(_input: ImportSourceOptions, _deps: ImportEnv = {}): Promise<Detection> {
  throw new StudioFailure('Unsupported', 'Import detection is not built yet.');
}

export async function planImport(_input: ImportPlanInput, _home: HomeInfo, _deps: ImportEnv = {}): Promise<ImportPlan> {
  throw new StudioFailure('Unsupported', 'Import planning is not built yet.');
}

export async function proposeImport(_db: StudioDb, _home: HomeInfo, _input: ImportPlanInput, _deps: ImportEnv = {}): Promise<ImportOutcome> {
  throw new StudioFailure('Unsupported', 'Import proposals are not built yet.');
}
