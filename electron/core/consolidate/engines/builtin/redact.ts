// What the builtin engine writes holds no secret: each one its inputs carried is replaced as the import gate replaces it.
import { REDACTED_SECRET } from '../../../codex/constants';
import { redactAllSecrets, scanSecrets, secretLabel } from '../../../lint';

/** The log lines for inputs whose secrets were redacted as they were read: where, and what the person can do. */
export function inputWarnings(paths: readonly string[]): string[] {
  return paths.map(
    (path) =>
      `${path} holds a secret; the engine carried it as ${REDACTED_SECRET}. Redact it there too (Files view, Redact), ` +
      'so no other engine and no later run carries it.',
  );
}

/**
 * `files` with every secret (Codex's patterns, gitleaks' rules, bare keys) replaced by `[REDACTED_SECRET]` through the
 * one redactor the import gate uses (`redactAllSecrets`), and a warning per file that held one: where, and what to do.
 * The engine folds notes, rollout summaries and the existing files together, so this is the one place every carried
 * line passes before it is written.
 */
export function redactOutputs(files: ReadonlyMap<string, string>): { files: Map<string, string>; warnings: string[] } {
  const out = new Map<string, string>();
  const warnings: string[] = [];
  for (const [path, text] of files) {
    const found = scanSecrets(text);
    if (found.length === 0) {
      out.set(path, text);
      continue;
    }
    out.set(path, redactAllSecrets(text));
    const lines = [...new Set(found.map((f) => f.line))];
    const kinds = [...new Set(found.map((f) => secretLabel(f.rule)))].join(', ');
    warnings.push(
      `${path}: ${found.length} secret(s) the inputs carried (${kinds}; line${lines.length === 1 ? '' : 's'} ${lines.join(', ')}) ` +
        `were written as ${REDACTED_SECRET}. Redact them where they came from too (the preview marks the inputs that hold one), ` +
        'so no other engine and no later run carries them.',
    );
  }
  return { files: out, warnings };
}
