// The main pane for a chosen file: header, budget lens, outline, Monaco and inspector, or the file-level error.
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import type { FileContent, MemoryVersion } from '../../../shared/domain';
import { notReadBadge } from '../../../shared/codex-reads';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { useArrivalPointers } from '../lib/arrivals';
import { usePanelPrefs, type PanelPrefs } from '../hooks/use-panel-prefs';
import { InspectorPanel } from '../inspector/inspector-panel';
import { useRedact } from '../inspector/use-redact';
import type { LineSpan } from '../navigation/location';
import { OutlinePanel } from '../outline/outline-panel';
import { BudgetBar, type BudgetBarProps } from './budget-bar';
import { EditActions, EditNotices, useEditMode, useProposeKey, type EditMode } from './edit-mode';
import type { RevealRequest } from './editor-types';
import { useFileDiagnostics } from './file-diagnostics';
import { FileHeader } from './file-header';
import { InjectedTextView } from './injected-text-view';

// Monaco is most of the bundle; load it only when the first file opens (App preloads it when idle).
const FileEditor = lazy(() => import('./file-editor').then((module) => ({ default: module.FileEditor })));

export function preloadEditor(): void {
  void import('./file-editor');
}

export interface FileNavigation {
  onOpenFile: (version: MemoryVersion, path: string, span?: LineSpan) => void;
  onOpenSession: (threadId: string) => void;
  /** Shows a proposal (from Propose or Redact) in the Review view. */
  onOpenProposal: (id: string) => void;
}

export interface FileViewProps extends FileNavigation {
  version: MemoryVersion;
  path: string;
  colorScheme: ColorScheme;
  reveal: RevealRequest | null;
  /** Paths present in each root, to mark pointers whose target is missing. */
  knownPaths: (version: MemoryVersion) => ReadonlySet<string> | null;
  /** Where Back leads (after following a pointer or a citation), or null. */
  back: { label: string; onBack: () => void } | null;
}

interface HeaderActionsProps {
  prefs: PanelPrefs;
  toggle: (panel: keyof PanelPrefs) => void;
  back: FileViewProps['back'];
  edit: EditMode;
}

function HeaderActions({ prefs, toggle, back, edit }: HeaderActionsProps) {
  return (
    <>
      <EditActions mode={edit} />
      {back ? (
        <button type="button" className="button button-small" onClick={back.onBack} data-testid="back-button" title={back.label}>
          ← Back
        </button>
      ) : null}
      <button type="button" className="button button-small" aria-pressed={prefs.outline} onClick={() => toggle('outline')}>
        Outline
      </button>
      <button type="button" className="button button-small" aria-pressed={prefs.inspector} onClick={() => toggle('inspector')}>
        Inspector
      </button>
    </>
  );
}

interface LoadedFileProps extends Omit<FileViewProps, 'version' | 'path'> {
  file: FileContent;
  pendingPath: string | null;
}

/** The budget lens of the open file: core says whether Codex injects it (`file.injected`, the root's summary). */
export function useBudgetLens(file: FileContent) {
  const summary = file.injected;
  const budget = useStudioQuery('inspect.budget', summary ? { version: file.version } : skipToken);
  // Remembered per file: opening another file goes back to its text.
  const [injectedFor, setInjectedFor] = useState<string | null>(null);
  const fileId = `${file.version}:${file.path}`;
  const removed = summary ? budget.data?.removed : null;
  // Memoized: a new object would re-apply the editor's decorations on every render.
  const shaded = useMemo(() => (removed ? { startLine: removed.startLine, endLine: removed.endLine } : null), [removed]);
  return {
    summary,
    budget,
    showInjected: injectedFor === fileId,
    setShowInjected: (show: boolean) => setInjectedFor(show ? fileId : null),
    shaded,
  };
}

/** The editor (Monaco loads lazily) and, when asked, the text Codex injects under it. */
function EditorColumn({
  version,
  path,
  colorScheme,
  reveal,
  content,
  markers,
  lens,
  edit,
  onCursorLine,
}: Pick<LoadedFileProps, 'colorScheme' | 'reveal'> & {
  version: MemoryVersion;
  path: string;
  content: string;
  markers: ReturnType<typeof useFileDiagnostics>['diagnostics'];
  lens: ReturnType<typeof useBudgetLens>;
  edit: ReturnType<typeof useEditMode>;
  onCursorLine: (line: number) => void;
}) {
  return (
    <div className="editor-column">
      <Suspense
        fallback={
          <div className="main-message">
            <LoadingState label="Loading the editor…" />
          </div>
        }
      >
        <FileEditor
          {...{ version, path, colorScheme, reveal, content, markers }}
          shaded={lens.shaded}
          editable={edit.phase === 'editing'}
          onEdit={edit.setDraft}
          onCursorLine={onCursorLine}
        />
      </Suspense>
      {lens.showInjected && lens.budget.data ? <InjectedTextView budget={lens.budget.data} /> : null}
    </div>
  );
}

/** The budget lens's bar over an injected summary. */
function FileBudget({
  lens,
  label,
  reads,
  onShowCut,
}: {
  lens: ReturnType<typeof useBudgetLens>;
  label: string;
  reads: BudgetBarProps['reads'];
  onShowCut: (span: LineSpan) => void;
}) {
  return (
    <BudgetBar
      path={label}
      budget={lens.budget.data}
      error={lens.budget.error}
      retry={() => void lens.budget.refetch()}
      showInjected={lens.showInjected}
      onToggleInjected={lens.setShowInjected}
      onShowCut={onShowCut}
      reads={reads}
    />
  );
}

/** The cursor's line in the open file, for the outline to follow; another file starts with none until its editor reports. */
function useCursorLine(fileKey: string) {
  const [cursor, setCursor] = useState<{ file: string; line: number } | null>(null);
  const report = (line: number) => setCursor((now) => (now?.file === fileKey && now.line === line ? now : { file: fileKey, line }));
  return { line: cursor?.file === fileKey ? cursor.line : null, report };
}

function LoadedFile({
  file,
  pendingPath,
  colorScheme,
  reveal,
  knownPaths,
  back,
  onOpenFile,
  onOpenSession,
  onOpenProposal,
}: LoadedFileProps) {
  const { version, path } = file;
  const [prefs, togglePanel, narrow] = usePanelPrefs();
  const parse = useStudioQuery('inspect.parse', { version, path });
  const lens = useBudgetLens(file);
  const diagnostics = useFileDiagnostics(version, path, parse.data, parse.isError);
  const edit = useEditMode(file, onOpenProposal);
  const reads = useStudioQuery('home.get', {}).data?.codexReads;
  const view = useRef<HTMLDivElement>(null);
  useProposeKey(view, edit);
  const redact = useRedact(file, onOpenProposal);
  const arrival = useArrivalPointers(path, knownPaths(version));
  const cursor = useCursorLine(`${version}:${path}`);
  const jump = (span: LineSpan) => {
    lens.setShowInjected(false);
    onOpenFile(version, path, span);
  };

  return (
    <div className="file-view" ref={view}>
      <FileHeader
        file={file}
        pendingPath={pendingPath}
        editing={edit.phase === 'editing'}
        notRead={reads ? notReadBadge(reads, version) : null}
        actions={<HeaderActions prefs={prefs} toggle={togglePanel} back={back} edit={edit} />}
      />
      <EditNotices mode={edit} path={path} versions={[version]} version={version} onProposed={onOpenProposal} />
      {redact.error ? <ErrorPanel compact title={`Cannot propose the redaction of ${path}`} error={toStudioError(redact.error)} /> : null}
      {lens.summary ? <FileBudget lens={lens} label={`${version}/${path}`} reads={reads} onShowCut={jump} /> : null}
      <div className={narrow ? 'file-body is-narrow' : 'file-body'} data-testid="file-body" data-narrow={narrow}>
        {prefs.outline ? (
          <OutlinePanel
            path={path}
            outline={parse.data?.path === path ? parse.data : undefined}
            error={parse.error}
            retry={() => void parse.refetch()}
            onJump={jump}
            onOpenPointer={(target) => onOpenFile(version, arrival.base + target)}
            knownPaths={arrival.known}
            cursorLine={cursor.line}
          />
        ) : null}
        <EditorColumn
          {...{ version, path, colorScheme, reveal, lens, edit }}
          content={file.content}
          markers={diagnostics.diagnostics}
          onCursorLine={cursor.report}
        />
        {prefs.inspector ? (
          <InspectorPanel
            version={version}
            path={path}
            kind={file.kind}
            injected={file.injected}
            diagnostics={diagnostics}
            onJump={jump}
            onOpenSession={onOpenSession}
            onRedact={redact.redact}
            onRedactAll={redact.redactAll}
          />
        ) : null}
      </div>
    </div>
  );
}

export function FileView({ version, path, ...rest }: FileViewProps) {
  const query = useStudioQuery('workspace.read', version && path ? { version, path } : skipToken);
  const { data, error } = query;
  const switching = query.isPlaceholderData && query.isFetching;
  const showPending = useDelayedFlag(switching);
  const showFirstLoad = useDelayedFlag(!data && !error);

  if (error && !query.isPlaceholderData) {
    return (
      <div className="main-message">
        <ErrorPanel
          title={`Cannot open ${path}`}
          error={toStudioError(error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </div>
    );
  }

  if (!data) {
    return <div className="main-message">{showFirstLoad ? <LoadingState label={`Opening ${path}…`} /> : null}</div>;
  }

  return <LoadedFile file={data} pendingPath={showPending ? path : null} {...rest} />;
}
