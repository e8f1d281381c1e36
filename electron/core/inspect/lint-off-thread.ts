// Runs a root's lint on the shared worker pool (two roots lint in parallel on two cores; the main loop stays free).
import type { FileList, MemoryVersion } from '../../../shared/domain';
import type { LintReport } from '../../../shared/lint';
import { lintRoot } from '../lint';
import { poolAvailable, runTask } from '../runtime/pool';
import { parserLintRule } from './parser-lint';

export async function lintRootOffThread(root: string, version: MemoryVersion, maxUnusedDays: number, list?: FileList): Promise<LintReport> {
  // In this thread the caller's listing saves a walk; a worker lists the root itself (the listing is not worth cloning).
  if (!poolAvailable()) return lintRoot(root, version, { maxUnusedDays, extraRules: [parserLintRule], list });
  return runTask('lint-root', { root, version, maxUnusedDays });
}
