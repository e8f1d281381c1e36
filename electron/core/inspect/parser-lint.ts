// Feeds the parsers' template and format diagnostics into the workspace lint, without repeating Codex's own validators.
import type { ParsedFile } from '../../../shared/formats';
import type { LintDiagnostic } from '../../../shared/lint';
import { parseMemoryFile } from '../formats';
import type { ExtraLintRule } from '../lint';

/** Lint already runs these itself on the files they concern; the parser's copies would be duplicates. */
const LINT_OWNED_RULES = new Set(['codex/summary-first-line']);

/** A parse result's diagnostics as lint findings (the index reuses the parse it made anyway). */
export function parserDiagnostics(parsed: ParsedFile): LintDiagnostic[] {
  return parsed.diagnostics
    .filter((d) => !LINT_OWNED_RULES.has(d.rule))
    .map((d): LintDiagnostic => ({
      severity: d.severity,
      rule: d.rule,
      line: d.line,
      endLine: d.endLine,
      message: d.message,
      ...(d.fix ? { fix: d.fix } : {}),
    }));
}

export const parserLintRule: ExtraLintRule = (file, context) =>
  parserDiagnostics(parseMemoryFile(file.text, { path: file.path, version: context.version }));
