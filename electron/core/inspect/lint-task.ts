// The per-file lint of a whole root (validators, secrets, parser rules) as a pool task, run off the main thread.
import type { MemoryVersion } from '../../../shared/domain';
import type { LintReport } from '../../../shared/lint';
import { lintRoot } from '../lint';
import { parserLintRule } from './parser-lint';

export function lintRootTask(input: { root: string; version: MemoryVersion; maxUnusedDays: number }): Promise<LintReport> {
  return lintRoot(input.root, input.version, { maxUnusedDays: input.maxUnusedDays, extraRules: [parserLintRule] });
}
