// One list of diagnostics for the open file: the root's lint report merged with the file's own parse diagnostics.
import { useMemo } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import type { ParsedOutline } from '../../../shared/formats';
import type { LintDiagnostic } from '../../../shared/lint';
import { useStudioQuery } from '../api/studio-query';
import type { EditorMarker } from './editor-types';

export interface FileDiagnostic extends EditorMarker {
  /** What a mechanical fix would do; applying fixes comes with reviewed changes, so it is only described. */
  fixDescription: string | null;
  /** A mechanical fix exists (a secret's is Redact, which core rebuilds from its own scan: review.redact). */
  fixable: boolean;
}

type ParseDiagnostic = ParsedOutline['diagnostics'][number];

const keyOf = (d: { rule: string; line: number; endLine: number; message: string }) =>
  `${d.rule}\u0000${d.line}\u0000${d.endLine}\u0000${d.message}`;

function fromLint(d: LintDiagnostic): FileDiagnostic {
  return {
    severity: d.severity,
    rule: d.rule,
    message: d.message,
    line: d.line,
    endLine: d.endLine,
    ...(d.startColumn !== undefined ? { startColumn: d.startColumn } : {}),
    ...(d.endColumn !== undefined ? { endColumn: d.endColumn } : {}),
    fixDescription: d.fix?.description ?? null,
    fixable: (d.fix?.edits.length ?? 0) > 0,
  };
}

function fromParse(d: ParseDiagnostic): FileDiagnostic {
  return {
    severity: d.severity,
    rule: d.rule,
    message: d.message,
    line: d.line,
    endLine: d.endLine,
    fixDescription: d.fix?.description ?? null,
    fixable: (d.fix?.edits.length ?? 0) > 0,
  };
}

const rank = { error: 0, warning: 1, info: 2 } as const;

/**
 * Lint already carries the parser's rules for most kinds (with columns); the parse result adds what lint does
 * not cover. The same rule, lines and message count once, the lint copy winning for its columns.
 */
export function mergeDiagnostics(parse: readonly ParseDiagnostic[], lint: readonly LintDiagnostic[]): FileDiagnostic[] {
  const merged = new Map<string, FileDiagnostic>();
  for (const d of lint) merged.set(keyOf(d), fromLint(d));
  for (const d of parse) if (!merged.has(keyOf(d))) merged.set(keyOf(d), fromParse(d));
  return [...merged.values()].sort((a, b) => a.line - b.line || rank[a.severity] - rank[b.severity] || a.rule.localeCompare(b.rule));
}

export interface FileDiagnosticsState {
  diagnostics: FileDiagnostic[];
  /** Lint still running (parse diagnostics may already be shown). */
  pending: boolean;
  lintError: Error | null;
  retryLint: () => void;
}

/** `parseFailed`: the outline will not come (its error shows in the outline panel); do not wait for it. */
export function useFileDiagnostics(
  version: MemoryVersion,
  path: string,
  outline: ParsedOutline | undefined,
  parseFailed: boolean,
): FileDiagnosticsState {
  const lint = useStudioQuery('inspect.lint', { version, path });
  const fileLint = useMemo(() => lint.data?.files.find((file) => file.path === path)?.diagnostics ?? [], [lint.data, path]);
  // Only the outline of this very file counts (the previous file's stays on screen while this one parses).
  const parse = outline && outline.path === path ? outline.diagnostics : null;
  const diagnostics = useMemo(() => mergeDiagnostics(parse ?? [], fileLint), [parse, fileLint]);
  return {
    diagnostics,
    pending: lint.isPending || (parse === null && !parseFailed),
    lintError: lint.error,
    retryLint: () => void lint.refetch(),
  };
}
