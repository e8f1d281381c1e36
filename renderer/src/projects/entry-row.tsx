// One entry of the project lens (a summary scope, a MEMORY.md block, a rollout summary…) as a link to its lines.
import type { ReactNode } from 'react';
import type { ProjectEntry, ProjectEntryKind } from '../../../shared/inspect';

export const entryKindLabels: Record<ProjectEntryKind, string> = {
  'summary-scope': 'Summary scope',
  'memory-block': 'MEMORY.md block',
  'rollout-summary': 'Rollout summary',
  'raw-thread': 'Raw memory',
  'import-resource': 'Imported resource',
};

export interface EntryRowProps {
  entry: ProjectEntry;
  onOpen: (entry: ProjectEntry) => void;
  testId?: string;
  children?: ReactNode;
}

export function EntryRow({ entry, onOpen, testId = 'project-entry', children }: EntryRowProps) {
  const where = entry.line === entry.endLine ? `${entry.path}:${entry.line}` : `${entry.path}:${entry.line}–${entry.endLine}`;
  return (
    <li>
      <button
        type="button"
        className="entry-row"
        data-testid={testId}
        data-path={entry.path}
        data-line={entry.line}
        title={`Open ${where}`}
        onClick={() => onOpen(entry)}
      >
        <span className={`badge badge-small entry-kind entry-kind-${entry.kind}`}>{entryKindLabels[entry.kind]}</span>
        <span className="entry-title">{entry.title}</span>
        <code className="entry-where muted">{where}</code>
        {children}
      </button>
    </li>
  );
}
