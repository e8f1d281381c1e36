// One proposal under review: files, Monaco's diff, hunks with Accept/Reject (and j/k/a/r/A), the result, Apply and conflicts.
import { lazy, Suspense, useMemo, useState } from 'react';
import type { Hunk, HunkDecision, Proposal, ProposalFile } from '../../../shared/review';
import { useProposal, useProposalResult, useRevise } from '../api/review-queries';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { ApplyBar, AppliedMessage } from './apply-bar';
import { summarizeApply } from './apply-summary';
import { ConflictView } from './conflict-view';
import { HunkList } from './hunk-list';
import { DbChanges, FileTabs, ProposalHeader } from './proposal-parts';
import { ResultPreview } from './result-preview';
import { useApplyFlow } from './use-apply-flow';
import { useDecisions, type DecisionsState } from './use-decisions';
import { useReviewKeys } from './use-review-keys';

const DiffEditor = lazy(() => import('./diff-editor').then((module) => ({ default: module.DiffEditor })));

export interface ProposalDetailProps {
  id: string;
  colorScheme: ColorScheme;
  onOpenHistory: () => void;
}

/** The file shown and its active hunk; j/k move, a/r decide and move on, A accepts the whole file. */
function useHunkCursor(proposal: Proposal | undefined, decisions: DecisionsState) {
  const [selected, setSelected] = useState(0);
  const [active, setActive] = useState(0);
  const file: ProposalFile | undefined = proposal?.files.find((f) => f.ord === selected) ?? proposal?.files[0];
  const hunks = file?.hunks ?? [];
  const current = Math.min(active, Math.max(hunks.length - 1, 0));
  const decide = (hunk: Hunk, decision: HunkDecision) => file && decisions.set(file.ord, [hunk.id], decision);
  const decideActive = (decision: HunkDecision) => {
    const hunk = hunks[current];
    if (!hunk) return;
    decide(hunk, decision);
    setActive(Math.min(current + 1, hunks.length - 1));
  };
  const actions = {
    next: () => setActive(Math.min(current + 1, hunks.length - 1)),
    previous: () => setActive(Math.max(current - 1, 0)),
    accept: () => decideActive('accept'),
    reject: () => decideActive('reject'),
    acceptFile: () => file && decisions.set(file.ord, hunks.map((h) => h.id), 'accept'),
  };
  const select = (ord: number) => {
    setSelected(ord);
    setActive(0);
  };
  return { file, hunks, current, setActive, decide, actions, select };
}

interface DiffPaneProps {
  file: ProposalFile;
  colorScheme: ColorScheme;
  revealLine: number | null;
  onEdit?: (text: string) => void;
}

function DiffPane({ file, colorScheme, revealLine, onEdit }: DiffPaneProps) {
  return (
    <div className="review-diff">
      <Suspense fallback={<LoadingState label="Loading the diff editor…" />}>
        <DiffEditor
          modelKey={`${file.ord}:${file.baseSha256 ?? 'absent'}:${file.relPath}`}
          path={file.relPath}
          original={file.baseContent ?? ''}
          modified={file.proposedContent ?? ''}
          colorScheme={colorScheme}
          revealLine={revealLine}
          onEdit={onEdit}
        />
      </Suspense>
    </div>
  );
}

/** Editing the proposed side of one file: the text typed so far, saved with `review.revise`. */
function useResultEdit(proposal: Proposal) {
  const [editing, setEditing] = useState<{ ord: number; text: string } | null>(null);
  const revise = useRevise();
  const save = () => {
    if (!editing) return;
    revise.mutate({ id: proposal.id, ord: editing.ord, content: editing.text }, { onSuccess: () => setEditing(null) });
  };
  return { editing, setEditing, save, saving: revise.isPending, error: revise.error };
}

function EditResultActions({ file, edit }: { file: ProposalFile; edit: ReturnType<typeof useResultEdit> }) {
  if (file.proposedContent === null) return null;
  if (edit.editing?.ord !== file.ord) {
    return (
      <button type="button" className="button button-small" data-testid="edit-result" onClick={() => edit.setEditing({ ord: file.ord, text: file.proposedContent ?? '' })}>
        Edit result
      </button>
    );
  }
  return (
    <span className="edit-result-actions">
      <button type="button" className="button button-small button-primary" data-testid="save-result" disabled={edit.saving} onClick={edit.save}>
        {edit.saving ? 'Saving…' : 'Save edit'}
      </button>
      <button type="button" className="button button-small" data-testid="discard-result" disabled={edit.saving} onClick={() => edit.setEditing(null)}>
        Discard edit
      </button>
    </span>
  );
}

function LoadedProposal({ proposal, colorScheme, onOpenHistory }: { proposal: Proposal } & Omit<ProposalDetailProps, 'id'>) {
  const decisions = useDecisions(proposal);
  const result = useProposalResult(proposal.id);
  const flow = useApplyFlow(proposal, decisions);
  const cursor = useHunkCursor(proposal, decisions);
  const edit = useResultEdit(proposal);
  const pending = proposal.status === 'pending';
  const onKeyDown = useReviewKeys(cursor.actions, pending);
  const summary = useMemo(() => (result.data ? summarizeApply(proposal, result.data) : null), [proposal, result.data]);
  const { file } = cursor;
  const fileResult = result.data?.files.find((f) => f.ord === file?.ord);
  const conflictFile = flow.error?.kind === 'Conflict' ? (proposal.files.find((f) => flow.error?.path?.endsWith(f.relPath)) ?? file) : undefined;
  const activeHunk = cursor.hunks[cursor.current];

  return (
    // The panel takes focus so its keys work after a click anywhere in it (but not while typing in a field).
    <section className="proposal-detail" data-testid="proposal-detail" data-id={proposal.id} data-status={proposal.status} tabIndex={-1} onKeyDown={onKeyDown} aria-label={`Proposal ${proposal.title}`}>
      <ProposalHeader proposal={proposal} saving={decisions.saving} />
      {flow.applied ? <AppliedMessage applied={flow.applied} onOpenHistory={onOpenHistory} /> : null}
      {decisions.saveError ? <ErrorPanel compact title="Cannot save the decisions" error={toStudioError(decisions.saveError)} /> : null}
      {flow.rejectError ? <ErrorPanel compact title="Cannot reject the proposal" error={toStudioError(flow.rejectError)} /> : null}
      <FileTabs files={proposal.files} selected={file?.ord ?? 0} onSelect={cursor.select} />
      <DbChanges changes={proposal.dbChanges} />
      {conflictFile && flow.error ? (
        <ConflictView error={flow.error} file={conflictFile} rebasing={flow.rebasing} rebaseError={flow.rebaseError} onRebase={flow.rebase} />
      ) : null}
      {edit.error ? <ErrorPanel compact title="Cannot save the edit" error={toStudioError(edit.error)} /> : null}
      {edit.editing && file?.ord === edit.editing.ord ? <p className="muted small">Editing the proposed {file.relPath}: type in the right-hand side, then Save edit. The hunks are recomputed and their decisions reset.</p> : null}
      {file ? (
        <DiffPane
          file={file}
          colorScheme={colorScheme}
          revealLine={activeHunk ? Math.max(activeHunk.newStart, 1) : null}
          onEdit={edit.editing?.ord === file.ord ? (text) => edit.setEditing({ ord: file.ord, text }) : undefined}
        />
      ) : null}
      {file ? (
        <div className="review-lower">
          <section className="review-hunks" aria-labelledby="hunks-title">
            <header className="result-header">
              <h3 id="hunks-title">Hunks of {file.relPath}</h3>
              {pending && cursor.hunks.length > 0 ? (
                <button type="button" className="button button-small" data-testid="accept-file" onClick={cursor.actions.acceptFile}>
                  Accept file <kbd>A</kbd>
                </button>
              ) : null}
              {pending ? <EditResultActions file={file} edit={edit} /> : null}
            </header>
            {pending ? <p className="muted small">Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous, <kbd>a</kbd> accept, <kbd>r</kbd> reject, <kbd>A</kbd> accept the file. Undecided hunks are not written.</p> : null}
            <HunkList hunks={cursor.hunks} decisions={decisions.of(file.ord)} active={cursor.current} readOnly={!pending} onActivate={cursor.setActive} onDecide={cursor.decide} />
          </section>
          <ResultPreview file={fileResult} stale={decisions.saving || result.isFetching} error={result.error} onRetry={() => void result.refetch()} />
        </div>
      ) : null}
      {pending ? (
        <ApplyBar
          summary={summary}
          applying={flow.applying}
          error={flow.error && flow.error.kind !== 'Conflict' ? flow.error : null}
          onApply={flow.apply}
          onRejectProposal={flow.reject}
          rejecting={flow.rejecting}
        />
      ) : null}
    </section>
  );
}

export function ProposalDetail({ id, ...rest }: ProposalDetailProps) {
  const query = useProposal(id);
  if (query.error) {
    return <ErrorPanel title={`Cannot open proposal ${id}`} error={toStudioError(query.error)} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  if (!query.data) return <LoadingState label={`Opening proposal ${id}…`} />;
  return <LoadedProposal key={id} proposal={query.data} {...rest} />;
}
