// Stable finding ids and the fix options each kind of finding offers.
import { createHash } from 'node:crypto';
import type { DoctorEntry, FindingKind, FixAction, FixOption } from '../../../shared/doctor';

const PREFIX: Record<FindingKind, string> = { duplicate: 'dup', 'agents-overlap': 'ovl', stale: 'stale', oversize: 'size' };

/** `<prefix>-<12 hex>` from what triggered the finding: the same memory (wherever it moved in the file) gives the same id. */
export function findingId(kind: FindingKind, ...parts: readonly string[]): string {
  return `${PREFIX[kind]}-${createHash('sha256')
    .update(`${kind}\0${parts.join('\0')}`)
    .digest('hex')
    .slice(0, 12)}`;
}

const LABELS: Record<FixAction, string> = {
  merge: 'Merge into one',
  retire: 'Retire',
  promote: 'Promote to AGENTS.md',
  forget: 'Forget the repeats',
};

export function fixOption(
  findingId: string,
  action: FixAction,
  description: string,
  options: { label?: string; needsProject?: boolean } = {},
): FixOption {
  return {
    id: `${findingId}.${action}`,
    action,
    label: options.label ?? LABELS[action],
    description,
    needsProject: options.needsProject ?? false,
  };
}

const KIND_WORDS: Record<DoctorEntry['kind'], [string, string]> = {
  'task-group': ['task group', 'task groups'],
  'summary-entry': ['summary entry', 'summary entries'],
  'summary-bullet': ['summary bullet', 'summary bullets'],
  'raw-memory': ['raw memory', 'raw memories'],
};

export function kindWords(kind: DoctorEntry['kind'], count: number): string {
  const [one, many] = KIND_WORDS[kind];
  return `${count} ${count === 1 ? one : many}`;
}

export const quote = (text: string, max = 80) => `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;
