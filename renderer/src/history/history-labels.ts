// Labels shared by the History timeline and the "Compare with" picker.
import type { HistoryEntry } from '../../../shared/review';
import { formatTime } from '../lib/format';

export const kindLabels: Record<HistoryEntry['kind'], string> = { apply: 'Applied', external: 'Changed outside', revert: 'Reverted' };

/** "time · kind · summary", how an entry is named in the "Compare with" picker. */
export function entryLabel(entry: HistoryEntry): string {
  return `${formatTime(entry.at)} · ${kindLabels[entry.kind]} · ${entry.summary}`;
}
