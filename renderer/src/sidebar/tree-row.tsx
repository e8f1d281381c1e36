// One row of the file tree: a root, a kind group (with its count test hook), a file, or a note.
import { fileKindLabels, type ExtensionResourceInfo } from '../../../shared/domain';
import { formatBytes, formatTime, plural, splitPath } from '../lib/format';
import type { TreeRow } from './tree-model';

export interface TreeRowViewProps {
  row: TreeRow;
  id: string;
  active: boolean;
  opened: boolean;
  filtering: boolean;
  onClick: (row: TreeRow) => void;
}

function Chevron({ expanded }: { expanded: boolean }) {
  return <span className={expanded ? 'chevron chevron-open' : 'chevron'} aria-hidden="true" />;
}

function rootName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

function RowContent({ row, filtering }: { row: TreeRow; filtering: boolean }) {
  switch (row.type) {
    case 'root':
      return (
        <>
          <Chevron expanded={row.expanded} />
          <span className="root-name">{rootName(row.root.path)}</span>
          <span className="badge badge-version">{row.version}</span>
          {row.root.isSymlink ? (
            <span className="badge badge-warn" title="This root is a symlink">
              symlink
            </span>
          ) : null}
          <span className="row-count muted">{row.status === 'ready' ? plural(row.fileCount, 'file') : null}</span>
          {row.notRead ? (
            <>
              <span className="row-break" aria-hidden="true" />
              <span className="badge badge-warn badge-not-read" data-testid="not-read-badge" data-version={row.version} title={row.notRead}>
                {row.notRead}
              </span>
            </>
          ) : null}
        </>
      );
    case 'group':
      return (
        <>
          <Chevron expanded={row.expanded} />
          <span className="group-label">{fileKindLabels[row.kind]}</span>
          <span className="row-count">
            {filtering ? <span className="muted">{row.matches.toLocaleString()} of </span> : null}
            <span data-testid="kind-count" data-version={row.version} data-kind={row.kind}>
              {row.total}
            </span>
          </span>
        </>
      );
    case 'file': {
      // The group's shared folder is implied by the group; show only what tells files apart.
      const { dir, name } = splitPath(row.file.path.slice(row.commonDir.length));
      return (
        <>
          <span className="file-label">
            {dir ? <span className="file-dir muted">{dir}</span> : null}
            <span className="file-name">{name}</span>
          </span>
          {row.file.symlink ? <span className="badge badge-warn">symlink</span> : null}
          {row.file.resource?.expired ? (
            <span className="badge badge-warn" data-testid="resource-expired">
              pruned at next run
            </span>
          ) : null}
        </>
      );
    }
    case 'note':
      return <span className="muted">{row.text}</span>;
  }
}

function rowTitle(row: TreeRow): string | undefined {
  if (row.type === 'file') {
    const base = `${row.file.path}\n${formatBytes(row.file.size)} · modified ${formatTime(row.file.mtimeMs)}`;
    const resource = row.file.resource;
    return resource ? `${base}${resource.label ? `\n${resource.label}` : ''}\n${resourceFate(resource)}` : base;
  }
  if (row.type === 'root') return row.root.path;
  return undefined;
}

/** What Codex's 7-day pruner does to an extension resource, in one sentence. */
export function resourceFate(resource: ExtensionResourceInfo): string {
  if (resource.expiresAt === null)
    return 'Codex keeps it (only time-stamped files directly in resources/ of an extension with instructions.md are pruned).';
  const when = formatTime(resource.expiresAt * 1000);
  return resource.expired
    ? `Codex deletes it at its next consolidation: its name is dated more than 7 days ago (${when} was the cut-off).`
    : `Codex deletes it at the first consolidation after ${when} (7 days after the date in its name).`;
}

export function TreeRowView({ row, id, active, opened, filtering, onClick }: TreeRowViewProps) {
  const expandable = row.type === 'root' || row.type === 'group';
  const classes = ['tree-row', `tree-row-${row.type}`, active ? 'is-active' : '', opened ? 'is-open' : ''];
  return (
    <div
      id={id}
      role="treeitem"
      aria-level={row.level}
      aria-expanded={expandable ? row.expanded : undefined}
      aria-selected={row.type === 'file' ? opened : undefined}
      aria-setsize={row.type === 'file' ? row.setSize : undefined}
      aria-posinset={row.type === 'file' ? row.posInSet : undefined}
      className={classes.filter(Boolean).join(' ')}
      style={{ top: row.top, height: row.height }}
      title={rowTitle(row)}
      onClick={() => onClick(row)}
      {...(row.type === 'file'
        ? { 'data-testid': 'file-item', 'data-version': row.version, 'data-path': row.file.path, 'data-kind': row.file.kind }
        : {})}
    >
      <RowContent row={row} filtering={filtering} />
    </div>
  );
}
