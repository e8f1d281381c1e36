// The secret gate of a consolidation result: no engine may carry a secret into the files Codex puts in every prompt.
import type { LintDiagnostic } from '../../../shared/lint';
import { REDACTED_SECRET } from '../codex/constants';
import { lineSetOf, secretLabel, TextLines } from '../lint';
import { StudioFailure } from '../platform/errors';

/** Said on each secret finding of a result: why it stops the run. */
const SECRET_GATE_NOTE =
  'A consolidation result holding a secret is never proposed: Memory Studio keeps no secret, so it could not write that line later.';

/** What the person does about a run whose result holds a secret: the secret came from an input, redacted at its source. */
export const RUN_SECRET_HINT =
  'Redact the input it came from, then run the consolidation again: the preview marks each input that holds a secret, ' +
  `with its lines (Files view, Redact or Redact all writes ${REDACTED_SECRET} in its place). Nothing was proposed or written.`;

/** What the person does when the result as it would land keeps a secret of the live file (its redaction rejected). */
export const APPLY_SECRET_HINT =
  'Nothing was written. Accept the hunk that redacts it, or redact the file first (Files view, Redact all), then apply again.';

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
    return { ...d, severity: 'error' as const, message: `${d.message}${why} ${SECRET_GATE_NOTE}` };
  });
}

/** The error-rated secret findings of a validation, for the run's one-line account. */
export function secretErrors<T extends LintDiagnostic & { path: string }>(diagnostics: readonly T[]): T[] {
  return diagnostics.filter((d) => isSecret(d) && d.severity === 'error');
}

/** Where a result holds a secret, for a message: `MEMORY.md:12 (a GitHub token)`, the first few. */
export function secretPlaces(diagnostics: ReadonlyArray<LintDiagnostic & { path: string }>, max = 3): string {
  const shown = diagnostics.slice(0, max).map((d) => `${d.path}:${d.line} (${secretLabel(d.rule)})`);
  return `${shown.join(', ')}${diagnostics.length > max ? ', …' : ''}`;
}

/**
 * The run's refusal of a result that holds a secret, naming file, line and kind (never the secret), or null. Such a
 * result is not proposed: a stored proposal keeps no secret (`review/stored-texts.ts`), so Apply could never write it.
 */
export function secretRefusal(diagnostics: ReadonlyArray<LintDiagnostic & { path: string }>): StudioFailure | null {
  const secrets = secretErrors(diagnostics);
  if (secrets.length === 0) return null;
  const count = secrets.length === 1 ? 'a secret' : `${secrets.length} secrets`;
  return new StudioFailure('Invalid', `The consolidation result holds ${count} (${secretPlaces(secrets)}), so it was not proposed.`, {
    path: secrets[0]?.path,
    hint: RUN_SECRET_HINT,
  });
}
