// Feeds the parsers' template and format diagnostics into the workspace lint, without repeating Codex's own validators.
import type { LintDiagnostic } from '../../../shared/lint';
import { parseMemoryFile } from '../formats';
import type { ExtraLintRule } from '../lint';

/** Lint already runs these itself on the files they concern; the parser's copies would be duplicates. */
const LINT_OWNED_RULES = new Set(['codex/summary-first-line']);

export const parserLintRule: ExtraLintRule = (file, context) => {
  const parsed = parseMemoryFile(file.text, { path: file.path, version: context.version });
  return parsed.diagnostics
    .filter((d) => !LINT_OWNED_RULES.has(d.rule))
    .map((d): LintDiagnostic => ({ severity: d.severity, rule: d.rule, line: d.line, endLine: d.endLine, message: d.message, ...(d.fix ? { fix: d.fix } : {}) }));
};
