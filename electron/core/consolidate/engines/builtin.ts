// The `builtin` consolidation engine: offline, deterministic, no model; writes the consolidated files in staging.
import { writeFile } from 'node:fs/promises';
import type { MemoryVersion } from '../../../../shared/domain';
import { resolveInsideRoot } from '../../platform/safe-path';
import type { Engine, EngineResult, EngineRun } from '../types';
import { abortError } from './abort';
import { buildConsolidation, readStagedInputs, type BuiltinOutput } from './builtin/index';

export { buildConsolidation, readStagedInputs };
export type { BuiltinOutput, BuiltinReport, StagedInputs } from './builtin/index';

function checkAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

/** Writes the engine's files into staging (refusing symlinks and paths outside it); returns them sorted. */
async function writeOutputs(stagingRoot: string, files: BuiltinOutput['files']): Promise<string[]> {
  const wrote = [...files.keys()].sort();
  for (const rel of wrote) {
    const target = await resolveInsideRoot(stagingRoot, rel);
    await writeFile(target, files.get(rel) as string, 'utf8');
  }
  return wrote;
}

function message(version: MemoryVersion, out: BuiltinOutput): string {
  const r = out.report;
  const memory = r.memoryMdBytes === null ? '' : ` and MEMORY.md (${r.memoryMdBytes} bytes)`;
  const s = r.summary;
  const compacted = r.compactionLevel > 0 ? `, compacted to level ${r.compactionLevel}` : '';
  const how =
    s.mode === 'merged'
      ? `Merged memory_summary.md (${r.summaryBytes} bytes: ${s.kept} entries kept as they were, ${s.added} added, ${s.removed} removed with their inputs${s.trimmed > 0 ? `, ${s.trimmed} oldest left out to fit the budget` : ''})`
      : `Rebuilt memory_summary.md (${r.summaryBytes} bytes, ${r.recentEntries} recent and ${r.olderEntries} older entries${compacted})`;
  return `${how}${memory} from ${r.rollouts} rollout summaries, ${r.notes} ad-hoc notes and ${r.imports} imported projects (${version}).`;
}

export const builtinEngine: Engine = async (run: EngineRun): Promise<EngineResult> => {
  checkAborted(run.signal);
  run.progress('Reading the staged memory folder', 0);
  const input = await readStagedInputs(run.stagingRoot, run.version);
  checkAborted(run.signal);
  run.progress('Rebuilding the consolidated files', 0.5);
  const out = buildConsolidation(input, run.version);
  for (const warning of out.report.warnings) run.log(warning);
  checkAborted(run.signal);
  run.progress('Writing the consolidated files', 0.9);
  const wrote = await writeOutputs(run.stagingRoot, out.files);
  const text = message(run.version, out);
  run.log(text);
  run.progress('Done', 1);
  return { engine: 'builtin', model: null, wrote, message: text };
};
