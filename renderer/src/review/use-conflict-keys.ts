// The review keys with conflict resolution added: t/o/b resolve the active conflict, e opens its hand editor, n finds the next.
import { useMemo, useState } from 'react';
import type { ConflictEditing } from './file-review';
import type { HunkCursor } from './use-hunk-cursor';
import type { ReviewKeyActions } from './use-review-keys';

export function useConflictKeys(cursor: HunkCursor): { conflictEditing: ConflictEditing; actions: ReviewKeyActions } {
  const [editingId, setEditingId] = useState<string | null>(null);
  const active = cursor.activeHunk;
  const actions = useMemo<ReviewKeyActions>(
    () => ({
      ...cursor.actions,
      edit: () => {
        if (active?.kind === 'conflict') setEditingId(active.id);
      },
    }),
    [cursor.actions, active],
  );
  return { conflictEditing: { editingId, setEditingId }, actions };
}
