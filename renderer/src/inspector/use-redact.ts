// Redact: a secret diagnostic's fix applied to the file's text, sent as a proposal (source of truth stays the review).
import type { FileContent } from '../../../shared/domain';
import { usePropose } from '../api/review-queries';
import { applyLineEdits } from '../lib/apply-edits';
import type { FileDiagnostic } from '../main-pane/file-diagnostics';

export function useRedact(file: FileContent, onProposed: (id: string) => void) {
  const propose = usePropose();
  const redact = (diagnostic: FileDiagnostic) => {
    if (!diagnostic.fixEdits) return;
    const content = applyLineEdits(file.content, diagnostic.fixEdits);
    propose.mutate(
      { version: file.version, path: file.path, content, title: `Redact secret in ${file.path}` },
      { onSuccess: (proposal) => onProposed(proposal.id) },
    );
  };
  return { redact, error: propose.error, pending: propose.isPending };
}
