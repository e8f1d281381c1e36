// What a file change is, from its two sides (null = no file), as the core says it (`proposal-rows.ts`).
import type { FileChange } from '../../../shared/review';

export function fileChange(before: string | null, after: string | null): FileChange {
  if (before === after) return 'unchanged';
  if (before === null) return 'create';
  if (after === null) return 'delete';
  return 'modify';
}
