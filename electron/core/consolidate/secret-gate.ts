// The secret gate of a consolidation result: no engine may carry a secret into the files Codex puts in every prompt.
import type { LintDiagnostic } from '../../../shared/lint';
import { REDACTED_SECRET } from '../codex/constants';
import { lineSetOf, TextLines } from '../lint';

/** What the person can do about a secret in a result: said once, with every such finding. */
export const SECRET_GATE_HINT =
  `A consolidation result holding a secret cannot be applied. Edit the result in the review (replace it with ${REDACTED_SECRET}, ` +
  'or reject the hunk that adds it), and redact the input it came from (the preview marks the inputs that hold one; ' +
  'Files view, Redact) so the next run does not carry it again.';

const isSecret = (d: LintDiagnostic): boolean => d.rule.startsWith('secrets/');

/**
 * A result file's diagnostics with its secret findings judged by the gate. A finding the scanner rates an error fails
 * the result, as the Files view rates it. A warning (a value under a secret-like name that may be one) fails it when
 * its line is new to the file, so the run carried it in; on a line the live file already had, it stays a warning: a
 * person's own wording that only looks like an assignment must not block every later run.
 * `live` is the live file's text (null when absent or unknown: every line is then new).
 */
export function gateSecretDiagnostics(diagnostics: readonly LintDiagnostic[], text: string, live: string | null): LintDiagnostic[] {
  if (!diagnostics.some(isSecret)) return [...diagnostics];
  const lines = new TextLines(text);
  const old = live === null ? null : lineSetOf(live);
  return diagnostics.map((d) => {
    if (!isSecret(d)) return d;
    const carried = old === null || !old.has(lines.lineText(d.line));
    if (d.severity !== 'error' && !carried) return d;
    const why =
      d.severity === 'error' ? '' : ' The scanner rates it a possible secret; this run put the line there, so it is held back as one.';
    return { ...d, severity: 'error' as const, message: `${d.message}${why} ${SECRET_GATE_HINT}` };
  });
}

/** The error-rated secret findings of a validation, for the run's one-line account. */
export function secretErrors<T extends LintDiagnostic & { path: string }>(diagnostics: readonly T[]): T[] {
  return diagnostics.filter((d) => isSecret(d) && d.severity === 'error');
}
