// One proposal under review: files, Monaco's diff, hunks with Accept/Reject (and j/k/a/r/A), conflicts, the result, Apply.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Proposal, ProposalFile } from '../../../shared/review';
import { skipToken, useStudioFetch, useStudioMutation, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { ApplyBar, AppliedMessage } from './apply-bar';
import { applyBlocked, summarizeApply } from './apply-summary';
import { FileReview } from './file-review';
import { DbChanges, ProposalHeader, ReviewFiles } from './proposal-parts';
import { StaleBanner } from './stale-banner';
import { useApplyFlow } from './use-apply-flow';
import { useDecisions } from './use-decisions';
import { useHunkCursor } from './use-hunk-cursor';
import { useReviewKeys } from './use-review-keys';
import { useConflictKeys } from './use-conflict-keys';
import { useMarkSeen } from './agent-news';
import { useLandingFocus, useMoveOnKeys } from './use-landing-focus';

export interface ProposalDetailProps {
  id: string;
  colorScheme: ColorScheme;
  onOpenHistory: () => void;
}

/** Editing the proposed side of one file: the text typed so far, saved with `review.revise`. */
function useResultEdit(proposal: Proposal) {
  const [editing, setEditing] = useState<{ ord: number; text: string } | null>(null);
  const [opening, setOpening] = useState<{ ord: number; error: Error | null } | null>(null);
  const revise = useStudioMutation('review.revise');
  const fetchTexts = useStudioFetch();
  /** The proposal's answer has no texts: the proposed one is asked for when editing starts. */
  const start = (ord: number) => {
    setOpening({ ord, error: null });
    fetchTexts('review.fileTexts', { id: proposal.id, ord }).then(
      (texts) => {
        setOpening(null);
        setEditing({ ord, text: texts.proposedContent ?? '' });
      },
      (error: unknown) => setOpening({ ord, error: error instanceof Error ? error : new Error(String(error)) }),
    );
  };
  const save = () => {
    if (!editing) return;
    revise.mutate({ id: proposal.id, ord: editing.ord, content: editing.text }, { onSuccess: () => setEditing(null) });
  };
  /** The edit of file `ord`, as the whole-file view takes it (read-only while it is being saved). */
  const of = (ord: number) =>
    editing?.ord === ord
      ? { draft: editing.text, saving: revise.isPending, onChange: (text: string) => setEditing({ ord, text }) }
      : undefined;
  return {
    editing,
    setEditing,
    start,
    of,
    opening,
    save,
    saving: revise.isPending,
    error: revise.error,
    openError: opening?.error ?? null,
  };
}

function EditResultActions({ file, edit }: { file: Pick<ProposalFile, 'ord' | 'change'>; edit: ReturnType<typeof useResultEdit> }) {
  if (file.change === 'delete') return null;
  if (edit.editing?.ord !== file.ord) {
    const opening = edit.opening?.ord === file.ord && !edit.opening.error;
    return (
      <button
        type="button"
        className="button button-small"
        data-testid="edit-result"
        disabled={opening}
        onClick={() => edit.start(file.ord)}
      >
        {opening ? 'Opening…' : 'Edit result'}
      </button>
    );
  }
  return (
    <span className="edit-result-actions">
      <button
        type="button"
        className="button button-small button-primary"
        data-testid="save-result"
        disabled={edit.saving}
        onClick={edit.save}
      >
        {edit.saving ? 'Saving…' : 'Save edit'}
      </button>
      <button
        type="button"
        className="button button-small"
        data-testid="discard-result"
        disabled={edit.saving}
        onClick={() => edit.setEditing(null)}
      >
        Discard edit
      </button>
    </span>
  );
}

const KEYS_HINT = (
  <p className="muted small">
    Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous, <kbd>a</kbd> accept, <kbd>r</kbd> reject, <kbd>A</kbd> accept the file&rsquo;s changes;
    on a conflict <kbd>t</kbd>/<kbd>o</kbd>/<kbd>b</kbd>/<kbd>e</kbd>,<kbd>n</kbd> next conflict. Undecided hunks are not written.
  </p>
);

/** What went wrong saving, rejecting or editing, and what to do while editing a result. */
function ProposalNotices({
  decisions,
  flow,
  edit,
  file,
}: {
  decisions: ReturnType<typeof useDecisions>;
  flow: ReturnType<typeof useApplyFlow>;
  edit: ReturnType<typeof useResultEdit>;
  file: ReturnType<typeof useHunkCursor>['file'];
}) {
  return (
    <>
      {decisions.saveError ? <ErrorPanel compact title="Cannot save the decisions" error={toStudioError(decisions.saveError)} /> : null}
      {flow.rejectError ? <ErrorPanel compact title="Cannot reject the proposal" error={toStudioError(flow.rejectError)} /> : null}
      {edit.error ? <ErrorPanel compact title="Cannot save the edit" error={toStudioError(edit.error)} /> : null}
      {edit.openError ? (
        <ErrorPanel
          compact
          title="Cannot open the result for editing"
          error={toStudioError(edit.openError)}
          onRetry={() => file && edit.start(file.ord)}
        />
      ) : null}
      {edit.editing && file?.ord === edit.editing.ord ? (
        <p className="muted small">
          Editing the proposed {file.relPath}: type in the right-hand side, then Save edit. The hunks are recomputed and their decisions
          reset.
        </p>
      ) : null}
    </>
  );
}

function LoadedProposal({ proposal, colorScheme, onOpenHistory }: { proposal: Proposal } & Omit<ProposalDetailProps, 'id'>) {
  const decisions = useDecisions(proposal);
  const result = useStudioQuery('review.result', { id: proposal.id, content: false });
  const flow = useApplyFlow(proposal, decisions);
  const cursor = useHunkCursor(proposal.files, decisions, { proposalId: proposal.id });
  const edit = useResultEdit(proposal);
  const pending = proposal.status === 'pending';
  const staleness = useStudioQuery('review.stale', pending ? { id: proposal.id } : skipToken);
  const stale = staleness.data?.stale ?? [];
  const { conflictEditing, actions } = useConflictKeys(cursor);
  const panel = useRef<HTMLElement>(null);
  const landing = useLandingFocus(panel, { files: proposal.files, pending }, cursor, decisions.of);
  useReviewKeys(panel, useMoveOnKeys(actions, landing), pending);
  // A rebase replaces the hunks: the keyboard lands on the first undecided one again.
  // An Apply ends the review: the keyboard goes on to "Show in History".
  const { rebased, applied } = flow;
  useEffect(() => {
    if (rebased || applied) landing.request();
  }, [rebased, applied, landing]);
  const summary = useMemo(() => (result.data ? summarizeApply(result.data) : null), [result.data]);
  const blocked = applyBlocked(stale, result.data);
  const { file } = cursor;
  const fileResult = result.data?.files.find((f) => f.ord === file?.ord);
  // One object per decision change, not per render: j/k re-render the panel, and the memoized rows compare it.
  const decisionsOf = decisions.of;
  const decided = useMemo(() => (file ? decisionsOf(file.ord) : {}), [decisionsOf, file]);

  return (
    // The panel takes focus so its keys work after a click anywhere in it (but not while typing in a field).
    <section
      className="proposal-detail"
      data-testid="proposal-detail"
      data-id={proposal.id}
      data-status={proposal.status}
      tabIndex={-1}
      ref={panel}
      aria-label={`Proposal ${proposal.title}`}
    >
      <ProposalHeader proposal={proposal} saving={decisions.saving} />
      {flow.applied ? <AppliedMessage applied={flow.applied} onOpenHistory={onOpenHistory} /> : null}
      {pending ? (
        <StaleBanner stale={stale} rebasing={flow.rebasing} rebaseError={flow.rebaseError} outcome={flow.rebased} onRebase={flow.rebase} />
      ) : null}
      <DbChanges changes={proposal.dbChanges} />
      <ProposalNotices decisions={decisions} flow={flow} edit={edit} file={file} />
      <ReviewFiles files={proposal.files} selected={file?.ord ?? 0} onSelect={cursor.select} decisionsOf={decisions.of}>
        {file ? (
          <FileReview
            proposalId={proposal.id}
            file={file}
            cursor={cursor}
            decided={decided}
            editOf={(hunkId) => decisions.editOf(file.ord, hunkId)}
            pending={pending}
            colorScheme={colorScheme}
            result={{
              file: fileResult,
              stale: decisions.saving || result.isFetching,
              error: result.error,
              retry: () => void result.refetch(),
            }}
            conflictEditing={conflictEditing}
            actions={pending ? <EditResultActions file={file} edit={edit} /> : null}
            hint={pending ? KEYS_HINT : null}
            resultEdit={edit.of(file.ord)}
          />
        ) : null}
      </ReviewFiles>
      {pending ? (
        <ApplyBar
          summary={summary}
          blocked={blocked}
          applying={flow.applying}
          error={flow.error}
          onApply={flow.apply}
          onRejectProposal={flow.reject}
          rejecting={flow.rejecting}
        />
      ) : null}
    </section>
  );
}

export function ProposalDetail({ id, ...rest }: ProposalDetailProps) {
  const query = useStudioQuery('review.get', { id });
  useMarkSeen(query.data);
  if (query.error) {
    return (
      <ErrorPanel
        title={`Cannot open proposal ${id}`}
        error={toStudioError(query.error)}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (!query.data) return <LoadingState label={`Opening proposal ${id}…`} />;
  return <LoadedProposal key={id} proposal={query.data} {...rest} />;
}
