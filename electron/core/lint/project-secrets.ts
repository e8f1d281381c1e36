// The secret gate on every write outside the memory roots: a project's AGENTS.md is read by every session and usually committed.
import { REDACTED_SECRET } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { scanSecrets, secretLabel } from './secrets';
import { lineSetOf, TextLines } from './text-lines';
import type { SecretFinding } from '../../../shared/lint';

/** Secrets in `content` on lines `before` did not have (null: the file is new, every line counts). */
export function newSecretFindings(content: string, before: string | null): SecretFinding[] {
  const found = scanSecrets(content);
  if (found.length === 0 || before === null) return found;
  const old = lineSetOf(before);
  const lines = new TextLines(content);
  return found.filter((f) => !old.has(lines.lineText(f.line)));
}

/**
 * Refuses a write to `path` (a file outside every memory root) that would add a secret: any finding of the secret
 * engine, error or warning, on a line the file did not already have. Lines the file had are the project's own
 * business; a secret written as `[REDACTED_SECRET]` passes. Called when a proposal is made and again by Apply.
 */
export function refuseNewSecrets(path: string, content: string | null, before: string | null, hint?: string): void {
  if (content === null) return;
  const found = newSecretFindings(content, before);
  if (found.length === 0) return;
  const kinds = [...new Set(found.map((f) => `${secretLabel(f.rule)} (${f.preview})`))].join(', ');
  const lines = [...new Set(found.map((f) => f.line))].join(', ');
  throw new StudioFailure(
    'Invalid',
    `${path} would get ${kinds} on line ${lines}. Memory Studio never writes a secret into a file outside the memory folders (a project's instruction file is read by every session and usually committed); nothing was written.`,
    {
      path,
      hint:
        hint ?? `Redact the secret where it comes from (Files view, Redact), or write ${REDACTED_SECRET} in its place, then propose again.`,
    },
  );
}
