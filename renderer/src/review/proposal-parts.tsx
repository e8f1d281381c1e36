// Small parts of the proposal view: its header, the file list with +/- counts, and the Codex-DB changes as rows.
import { Fragment, memo, type ReactNode } from 'react';
import type { DbChange, DecisionMap, Proposal, ProposalFile } from '../../../shared/review';
import { formatTime, plural } from '../lib/format';

export const sourceLabels: Record<Proposal['source'], string> = {
  edit: 'Edit',
  note: 'Ad-hoc note',
  redaction: 'Redaction',
  forget: 'Forget session',
  consolidation: 'Consolidation',
  import: 'Import',
  revert: 'Revert',
  doctor: 'Doctor',
  agent: 'Agent',
  connect: 'Connect an agent',
};

/** Where a proposal came from, as its badge says it: an agent by its own name and version, the rest by source. */
export function sourceLabel(p: Pick<Proposal, 'source' | 'agent'>): string {
  return p.agent ? `${p.agent.name}${p.agent.version ? ` ${p.agent.version}` : ''}` : sourceLabels[p.source];
}

/** A project's AGENTS.md or an agent's configuration shows as its full path: it is no file of a memory root. */
export function fileLabel(file: Pick<ProposalFile, 'target' | 'root' | 'relPath'>): string {
  return file.target === 'memory' ? file.relPath : `${file.root}/${file.relPath}`;
}

/** The badge before a file's name: its memory version, or what kind of file outside memory it is. */
export function TargetBadge({ file }: { file: Pick<ProposalFile, 'target' | 'version'> }) {
  if (file.target === 'project') return <span className="badge badge-version badge-project">project</span>;
  if (file.target === 'agent-config') return <span className="badge badge-version badge-project">agent config</span>;
  return <span className="badge badge-version">{file.version}</span>;
}

/** Memoized: j/k re-render the whole proposal, and this header (its date, its counts) never changes with them. */
export const ProposalHeader = memo(function ProposalHeader({ proposal, saving }: { proposal: Proposal; saving: boolean }) {
  return (
    <header className="file-header">
      <div className="file-header-main">
        <span
          className="badge"
          data-testid="proposal-source"
          title={proposal.agent ? 'Proposed by an agent through memory-studio mcp' : undefined}
        >
          {sourceLabel(proposal)}
        </span>
        <h1 className="file-path" title={proposal.title} data-testid="proposal-title">
          {proposal.title}
        </h1>
        <span
          className={`badge ${proposal.status === 'pending' ? 'badge-info' : proposal.status === 'applied' ? 'badge-ok' : 'badge-muted'}`}
          data-testid="proposal-status"
        >
          {proposal.status}
        </span>
        {saving ? (
          <span className="muted small" role="status">
            Saving decisions…
          </span>
        ) : null}
      </div>
      <dl className="file-meta">
        <div>
          <dt>Created</dt>
          <dd>{formatTime(proposal.createdAt)}</dd>
        </div>
        <div>
          <dt>Changes</dt>
          <dd>
            {plural(proposal.fileCount, 'file')} · <span className="text-ok">+{proposal.added}</span>{' '}
            <span className="text-danger">−{proposal.removed}</span>
          </dd>
        </div>
        {proposal.note ? (
          <div>
            <dt>Note</dt>
            <dd>{proposal.note}</dd>
          </div>
        ) : null}
      </dl>
    </header>
  );
});

/** "3/12": how many of a file's hunks have a decision (a moved block's two halves count as their hunks). */
function progress(file: ProposalFile, decisions: DecisionMap): string {
  const decided = file.hunks.filter((h) => decisions[h.id] !== undefined).length;
  return `${decided}/${file.hunks.length}`;
}

export interface FileTabsProps {
  files: readonly ProposalFile[];
  selected: number;
  onSelect: (ord: number) => void;
  /** The decisions per file as shown (for each tab's progress). */
  decisionsOf?: (ord: number) => DecisionMap;
}

/** Past this many files the tabs become a list beside the review (an import of twenty files stays visible). */
export const FILE_LIST_FROM = 5;

export function FileTabs({ files, selected, onSelect, decisionsOf }: FileTabsProps) {
  if (files.length === 0) return null;
  return (
    <div
      className={files.length >= FILE_LIST_FROM ? 'proposal-files proposal-files-list' : 'proposal-files'}
      role="tablist"
      aria-label="Files of this proposal"
      aria-orientation={files.length >= FILE_LIST_FROM ? 'vertical' : 'horizontal'}
    >
      {files.map((file) => (
        <button
          key={file.ord}
          type="button"
          role="tab"
          className="proposal-file"
          aria-selected={file.ord === selected}
          data-testid="proposal-file"
          data-path={file.relPath}
          data-version={file.version}
          data-target={file.target}
          data-conflicts={file.hunks.filter((h) => h.kind === 'conflict').length}
          onClick={() => onSelect(file.ord)}
          title={`${file.root}/${file.relPath}`}
        >
          <TargetBadge file={file} /> <span className="proposal-file-name truncate">{fileLabel(file)}</span>{' '}
          <span className="text-ok">+{file.added}</span> <span className="text-danger">−{file.removed}</span>
          {file.change === 'create' ? (
            <span className="badge badge-small">new</span>
          ) : file.change === 'delete' ? (
            <span className="badge badge-small badge-error">delete</span>
          ) : null}
          {file.hunks.some((h) => h.kind === 'conflict') ? <span className="badge badge-small badge-warn">conflict</span> : null}
          {decisionsOf && file.hunks.length > 0 ? (
            <span className="muted small file-progress" data-testid="file-tab-progress" title="Hunks decided in this file">
              {progress(file, decisionsOf(file.ord))}
            </span>
          ) : null}
        </button>
      ))}
    </div>
  );
}

/** The file tabs and the file's review: side by side when there are many files, the tabs on top otherwise. */
export function ReviewFiles({ children, ...tabs }: FileTabsProps & { children: ReactNode }) {
  if (tabs.files.length < FILE_LIST_FROM) {
    return (
      <>
        <FileTabs {...tabs} />
        {children}
      </>
    );
  }
  return (
    <div className="review-split">
      <FileTabs {...tabs} />
      {children}
    </div>
  );
}

function describeParams(params: unknown): string {
  if (params === null || params === undefined) return '';
  try {
    return JSON.stringify(params);
  } catch {
    return String(params);
  }
}

type JobRowValues = Record<string, string | number | null>;

/** A repair's row (`repair.set-job`: the jobs row before and after), or null for any other change. */
function jobSwap(change: DbChange): { key: string; before: JobRowValues; after: JobRowValues } | null {
  const params = change.params as { jobKey?: unknown; before?: unknown; after?: unknown } | null;
  if (change.sqlKind !== 'repair.set-job' || !params || typeof params.before !== 'object' || typeof params.after !== 'object') return null;
  if (!params.before || !params.after) return null;
  return { key: String(params.jobKey), before: params.before as JobRowValues, after: params.after as JobRowValues };
}

const shownValue = (column: string, value: string | number | null) =>
  value === null
    ? 'none'
    : typeof value === 'number' && column !== 'retry_remaining'
      ? new Date(value * 1000).toISOString().replace('.000Z', 'Z')
      : String(value);

/** The row a repair swaps, column by column: what changes stands out, what stays (and is checked) is listed too. */
function JobSwapTable({ swap }: { swap: NonNullable<ReturnType<typeof jobSwap>> }) {
  const columns = Object.keys(swap.after);
  return (
    <table className="config-table db-swap" data-testid="db-swap">
      <caption className="muted small">
        Row <code>{swap.key}</code> of <code>jobs</code>: applied only if every column still holds its value before.
      </caption>
      <thead>
        <tr>
          <th>Column</th>
          <th>Before</th>
          <th>After</th>
        </tr>
      </thead>
      <tbody>
        {columns.map((column) => {
          const before = swap.before[column] ?? null;
          const after = swap.after[column] ?? null;
          const changed = before !== after;
          return (
            <tr key={column} className={changed ? 'db-swap-changed' : 'muted'} data-changed={changed}>
              <th scope="row">
                <code>{column}</code>
              </th>
              <td>
                <code className="break">{shownValue(column, before)}</code>
              </td>
              <td>{changed ? <code className="break">{shownValue(column, after)}</code> : <span className="muted">same</span>}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function DbChanges({ changes }: { changes: readonly DbChange[] }) {
  if (changes.length === 0) return null;
  return (
    <section className="db-changes" aria-labelledby="db-changes-title">
      <h3 id="db-changes-title">Changes to Codex&rsquo;s databases</h3>
      <table className="config-table" data-testid="db-changes">
        <thead>
          <tr>
            <th>Database</th>
            <th>Change</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => {
            const swap = jobSwap(change);
            return (
              <Fragment key={change.ord}>
                <tr data-testid="db-change">
                  <td>
                    <code>{change.db}</code>
                  </td>
                  <td>{change.description}</td>
                  <td>
                    <code className="break">
                      {change.sqlKind} {swap ? '' : describeParams(change.params)}
                    </code>
                  </td>
                </tr>
                {swap ? (
                  <tr>
                    <td colSpan={3}>
                      <JobSwapTable swap={swap} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
