// One file under review (a proposal's, the import wizard's, a history entry's): "Hunk n of M", the blocks beside the line
// diff of its hunks (windowed), the whole file in Monaco, the result, and the three-way view of an active conflict.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { DecisionMap, FileResult } from '../../../shared/review';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { plural } from '../lib/format';
import { BlockOutline } from './block-outline';
import { HunkView } from './hunk-view';
import { ResultPreview } from './result-preview';
import type { ReviewItem } from './review-items';
import { ThreeWayView } from './three-way-view';
import type { HunkCursor, ReviewFile } from './use-hunk-cursor';

const DiffEditor = lazy(() => import('./diff-editor').then((module) => ({ default: module.DiffEditor })));

/** The conflict hunk whose hand editor is open, if any (the `e` key opens it from the panel). */
export interface ConflictEditing {
  editingId: string | null;
  setEditingId: (hunkId: string | null) => void;
}

export type ReviewView = 'changes' | 'file' | 'result';

export interface FileReviewProps {
  /** Null for a change that is only looked at (history): no conflicts, no result, no decisions. */
  proposalId: string | null;
  file: ReviewFile;
  cursor: HunkCursor;
  /** The file's decisions as the person sees them; `editOf` the hand-written text of an `edit` resolution. */
  decided: DecisionMap;
  editOf?: (hunkId: string) => string | undefined;
  pending: boolean;
  colorScheme: ColorScheme;
  result?: { file: FileResult | undefined; stale: boolean; error: Error | null; retry: () => void };
  conflictEditing?: ConflictEditing;
  /** Extra buttons beside "Accept file" (the review's "Edit result"). */
  actions?: ReactNode;
  /** The keys, under a "Keys" toggle. */
  hint?: ReactNode;
  /**
   * An edit of the proposed side under way (the review's "Edit result"): the whole-file view shows its draft, also when
   * the person comes back to the file, and takes typing unless the draft is being saved.
   */
  resultEdit?: { draft: string; saving: boolean; onChange: (text: string) => void };
  /** Names the two sides ("Before this entry" / "After it") above the whole-file view. */
  labels?: { before: string; after: string };
  /** Said when the file has no hunk. */
  empty?: string;
}

/** What Apply does to this file with the decisions so far, in a few words (the Result view has the text). */
function ResultStatus({ result }: { result: NonNullable<FileReviewProps['result']> }) {
  const f = result.file;
  const text =
    result.stale || !f
      ? 'Result: updating…'
      : f.unresolvedHunkIds.length > 0
        ? `Result: waits for ${plural(f.unresolvedHunkIds.length, 'conflict')}`
        : f.action === 'write'
          ? `Result: writes this file (+${f.added} −${f.removed})`
          : f.action === 'delete'
            ? 'Result: deletes this file'
            : 'Result: leaves this file as it is';
  return (
    <span className="muted small" data-testid="result-status" data-stale={result.stale || !f ? 'true' : 'false'} data-action={f?.action}>
      {text}
    </span>
  );
}

/** Hunks with a decision, counted as the file tabs count them (a moved block's two halves are two hunks). */
const decidedHunks = (items: readonly ReviewItem[], decided: DecisionMap) =>
  items.reduce((n, item) => n + item.hunks.filter((h) => decided[h.id] !== undefined).length, 0);

function Toolbar({ props, view, setView }: { props: FileReviewProps; view: ReviewView; setView: (v: ReviewView) => void }) {
  const { cursor, decided, pending } = props;
  const items = cursor.items.items;
  const conflicts = items.filter((i) => i.hunks[0]?.kind === 'conflict');
  const views: Array<[ReviewView, string]> = [
    ['changes', 'Changes'],
    ['file', 'Whole file'],
    ...(props.result ? [['result', 'Result'] as [ReviewView, string]] : []),
  ];
  const [keys, setKeys] = useState(false);
  return (
    <div className="review-toolbar">
      <strong data-testid="hunk-position" data-current={items.length ? cursor.current + 1 : 0} data-count={items.length}>
        {items.length === 0 ? 'No changes' : `Hunk ${cursor.current + 1} of ${items.length.toLocaleString()}`}
      </strong>
      {pending && items.length > 0 ? (
        <span className="muted small" data-testid="file-progress">
          {decidedHunks(items, decided).toLocaleString()} of {plural(cursor.hunks.length, 'hunk')} decided
        </span>
      ) : null}
      {props.result ? <ResultStatus result={props.result} /> : null}
      {props.labels ? (
        <span className="muted small" data-testid="diff-sides">
          {props.labels.before}
          {noBase(props.file) ? ' (no file)' : ''} → {props.labels.after}
          {noProposed(props.file) ? ' (no file)' : ''}
        </span>
      ) : null}
      {conflicts.length > 0 ? (
        <span className="badge badge-small badge-warn" data-testid="conflict-count">
          {conflicts.filter((h) => !decided[h.key]).length} of {conflicts.length} conflicts open
        </span>
      ) : null}
      <div className="segmented" role="group" aria-label="View">
        {views.map(([v, label]) => (
          <button key={v} type="button" className="segment" data-testid={`view-${v}`} aria-pressed={view === v} onClick={() => setView(v)}>
            {label}
          </button>
        ))}
      </div>
      {pending && items.some((i) => i.hunks[0]?.kind !== 'conflict') ? (
        <button
          type="button"
          className="button button-small"
          data-testid="accept-file"
          onClick={cursor.actions.acceptFile}
          title={conflicts.length > 0 ? 'Accepts every change; conflicts keep waiting for their own resolution.' : undefined}
        >
          Accept file <kbd>A</kbd>
        </button>
      ) : null}
      {props.actions}
      {props.hint ? (
        <button type="button" className="link-button small" aria-expanded={keys} onClick={() => setKeys((k) => !k)}>
          Keys
        </button>
      ) : null}
      {keys ? <div className="review-keys">{props.hint}</div> : null}
    </div>
  );
}

/** A created file has no base side, a deleted one no proposed side. */
const noBase = (file: ReviewFile) => file.change === 'create';
const noProposed = (file: ReviewFile) => file.change === 'delete';

/** The file's two texts: the caller's, or a proposal's asked for now (the whole file is the only view that needs them). */
function useTexts(props: FileReviewProps) {
  const { file, proposalId } = props;
  const query = useStudioQuery('review.fileTexts', !file.texts && proposalId ? { id: proposalId, ord: file.ord } : skipToken);
  return file.texts
    ? { data: file.texts, error: null, retry: () => undefined }
    : { data: query.data, error: query.error, retry: () => void query.refetch() };
}

/**
 * The text the editable side starts from: an edit's draft as it was when the view came to this file or the file's base
 * changed (a rebase: the view makes its models again), not each keystroke, which would make the editor's model again
 * under the cursor; nothing once the edit ends, so the proposal's text shows. `place` names the file and its base.
 */
function useEditSeed(place: string, draft: string | undefined): string | undefined {
  const [seed, setSeed] = useState<{ place: string; text: string } | null>(null);
  if (draft === undefined && seed !== null) setSeed(null);
  else if (draft !== undefined && seed?.place !== place) setSeed({ place, text: draft });
  return draft === undefined || seed?.place !== place ? undefined : seed.text;
}

function WholeFile({ props }: { props: FileReviewProps }) {
  const { file, cursor, resultEdit } = props;
  const texts = useTexts(props);
  const seed = useEditSeed(`${file.ord}:${file.baseSha256 ?? 'absent'}`, resultEdit?.draft);
  const hunk = cursor.activeHunk;
  const line = hunk ? Math.max(file.change === 'delete' ? hunk.oldStart : hunk.newStart, 1) : null;
  return (
    <div className="review-diff" data-testid="whole-file">
      {props.labels ? (
        <div className="read-only-diff-labels small muted">
          <span>
            {props.labels.before}
            {noBase(file) ? ' (no file)' : ''}
          </span>
          <span>
            {props.labels.after}
            {noProposed(file) ? ' (no file)' : ''}
          </span>
        </div>
      ) : null}
      {texts.error ? (
        <ErrorPanel
          compact
          title={`Cannot read ${file.relPath} of this proposal`}
          error={toStudioError(texts.error)}
          onRetry={texts.retry}
        />
      ) : null}
      {texts.data ? (
        <Suspense fallback={<LoadingState label="Loading the diff editor…" />}>
          <DiffEditor
            // Starting or ending an edit makes the proposed side's model again: a discarded draft never stays on screen.
            modelKey={`${file.ord}:${file.baseSha256 ?? 'absent'}:${file.relPath}:${resultEdit ? 'edit' : 'view'}`}
            path={file.relPath}
            original={texts.data.baseContent}
            modified={seed ?? texts.data.proposedContent}
            colorScheme={props.colorScheme}
            revealLine={line}
            onEdit={resultEdit && !resultEdit.saving ? resultEdit.onChange : undefined}
          />
        </Suspense>
      ) : texts.error ? null : (
        <LoadingState label={`Reading ${file.relPath}…`} />
      )}
    </div>
  );
}

function Changes({ props }: { props: FileReviewProps }) {
  const { cursor, file, decided, pending, proposalId, conflictEditing } = props;
  const active = cursor.activeHunk;
  const conflicts = cursor.items.items.filter((i) => i.hunks[0]?.kind === 'conflict');
  const threeWay = proposalId !== null && active?.kind === 'conflict' && conflictEditing;
  return (
    <div className={threeWay ? 'review-changes with-three-way' : 'review-changes'}>
      {threeWay && active ? (
        <ThreeWayView
          proposalId={proposalId}
          file={file}
          hunk={active}
          position={{ index: conflicts.findIndex((i) => i.key === active.id), count: conflicts.length }}
          decision={decided[active.id]}
          edit={props.editOf?.(active.id)}
          colorScheme={props.colorScheme}
          readOnly={!pending}
          editing={conflictEditing.editingId === active.id}
          onEditing={(open) => conflictEditing.setEditingId(open ? active.id : null)}
          onResolve={(decision, edit) => cursor.decide(active, decision, edit)}
        />
      ) : null}
      <HunkView
        key={`${file.ord}:${cursor.items.items.length}`}
        items={cursor.items.items}
        decisions={decided}
        active={cursor.current}
        readOnly={!pending}
        onActivate={cursor.setActive}
        onDecide={cursor.decideItem}
        onResolve={cursor.decide}
        editOf={props.editOf}
        onEditConflict={(index) => {
          cursor.setActive(index);
          conflictEditing?.setEditingId(cursor.items.items[index]?.key ?? null);
        }}
        empty={props.empty ?? 'No changes in this file.'}
      />
    </div>
  );
}

export function FileReview(props: FileReviewProps) {
  const [chosen, setView] = useState<ReviewView>('changes');
  const view: ReviewView = props.resultEdit ? 'file' : chosen === 'result' && !props.result ? 'changes' : chosen;
  const { cursor, result } = props;
  const hasBlocks = cursor.blocks?.kind !== null && (cursor.blocks !== undefined || cursor.blocksLoading);
  return (
    <div className="file-review" data-testid="file-review" data-path={props.file.relPath} data-view={view}>
      <Toolbar props={props} view={view} setView={setView} />
      <div className={hasBlocks && view === 'changes' ? 'review-body with-outline' : 'review-body'}>
        {hasBlocks && view === 'changes' ? (
          <BlockOutline
            blocks={cursor.blocks}
            loading={cursor.blocksLoading}
            items={cursor.items}
            decisions={props.decided}
            activeBlock={cursor.activeItem?.block?.id ?? null}
            readOnly={!props.pending}
            onShow={cursor.setActive}
            onDecide={(ids, decision) => cursor.decideIds(ids, decision)}
          />
        ) : null}
        {view === 'changes' ? <Changes props={props} /> : null}
        {view === 'file' ? <WholeFile props={props} /> : null}
        {view === 'result' && result ? (
          <ResultPreview
            proposalId={props.proposalId}
            file={result.file}
            stale={result.stale}
            error={result.error}
            onRetry={result.retry}
          />
        ) : null}
      </div>
    </div>
  );
}
