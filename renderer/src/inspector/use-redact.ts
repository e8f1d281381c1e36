// Redact: asks core to replace a secret diagnostic's span, or every secret of the file or root (review.redact), as a proposal.
import type { FileContent } from '../../../shared/domain';
import { useStudioMutation } from '../api/studio-query';
import type { FileDiagnostic } from '../main-pane/file-diagnostics';

export function useRedact(file: FileContent, onProposed: (id: string) => void) {
  const redactMutation = useStudioMutation('review.redact');
  /** Core scans the file on disk again and edits only what it still finds there: the renderer sends which finding, not edits. */
  const redact = (diagnostic: FileDiagnostic) => {
    if (!diagnostic.fixable || !diagnostic.rule.startsWith('secrets/')) return;
    const secret = {
      rule: diagnostic.rule,
      line: diagnostic.line,
      ...(diagnostic.startColumn !== undefined ? { startColumn: diagnostic.startColumn } : {}),
    };
    redactMutation.mutate(
      { version: file.version, path: file.path, secrets: [secret] },
      { onSuccess: (proposal) => onProposed(proposal.id) },
    );
  };
  /** Every secret of the file, or of every Markdown file of its memory folder, as one proposal (core scans them again). */
  const redactAll = (scope: 'file' | 'root') => {
    const input =
      scope === 'file' ? { version: file.version, path: file.path, all: 'file' as const } : { version: file.version, all: 'root' as const };
    redactMutation.mutate(input, { onSuccess: (proposal) => onProposed(proposal.id) });
  };
  return { redact, redactAll, error: redactMutation.error, pending: redactMutation.isPending };
}
