// The Consolidate view: preview a root's phase-2 inputs, pick an engine, run it in staging, follow it, review the result.
import type { UseQueryResult } from '@tanstack/react-query';
import { useRef } from 'react';
import type { EngineName, EngineSettingsView, InputPreview, RunStatus } from '../../../shared/consolidate';
import type { MemoryVersion } from '../../../shared/domain';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { VersionPicker } from '../common/version-picker';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { skipToken, useStudioMutation, useStudioQuery } from '../api/studio-query';
import { isActive } from './run-state';
import { useKeyScope } from '../keymap/use-keys';
import { EnginePicker, EngineSettingsPanel } from './engine-settings';
import { InputPreviewView } from './input-preview';
import { RunList } from './run-list';
import { RunPanel } from './run-progress';
import { useSettingsDraft, type SettingsDraftState } from './settings-draft';
import './consolidate.css';

export interface ConsolidatePageProps {
  versions: readonly MemoryVersion[];
  version: MemoryVersion;
  onVersion: (version: MemoryVersion) => void;
  /** The engine picked for the next run; null follows the saved default. */
  engine: EngineName | null;
  onEngine: (engine: EngineName) => void;
  shownRunId: string | null;
  onShowRun: (id: string) => void;
  onOpenProposal: (id: string) => void;
}

/** Why Start is disabled, in words, or null when a run can start. */
function blockedReason(
  preview: InputPreview | undefined,
  previewFailed: boolean,
  run: RunStatus | undefined,
  draft: SettingsDraftState,
  starting: boolean,
): string | null {
  if (starting) return 'Starting…';
  // One run per root: a run of the other version does not block this one.
  if (isActive(run) && run?.version === preview?.version) return 'A run is in progress: wait for it or cancel it (Escape).';
  // A preview that failed does not block: the run reports its own problem.
  if (!preview && !previewFailed) return 'Reading the inputs…';
  if (preview?.lease.state === 'held') return `Codex holds the consolidation lease: ${preview.lease.message}`;
  if (draft.dirty && draft.parsed && !draft.parsed.ok) return `Fix the engine settings first (${draft.parsed.message}).`;
  return null;
}

function useRunActions(
  props: ConsolidatePageProps,
  engine: EngineName,
  settings: EngineSettingsView | undefined,
  draft: SettingsDraftState,
) {
  const save = useStudioMutation('consolidate.saveSettings');
  const start = useStudioMutation('consolidate.start');
  const cancel = useStudioMutation('consolidate.cancel');
  const runStart = async () => {
    // The settings on screen are the ones the run uses: unsaved edits are saved first.
    if (draft.dirty && draft.parsed?.ok) {
      await save.mutateAsync({ settings: draft.parsed.settings });
      draft.reset();
    }
    const run = await start.mutateAsync({ version: props.version, engine });
    props.onShowRun(run.id);
  };
  const saveDraft = () => {
    if (draft.parsed?.ok) save.mutate({ settings: draft.parsed.settings }, { onSuccess: draft.reset });
  };
  const makeDefault = () => {
    const base = draft.parsed?.ok ? draft.parsed.settings : settings?.settings;
    if (base) save.mutate({ settings: { ...base, engine } }, { onSuccess: draft.reset });
  };
  return { save, start, cancel, runStart: () => void runStart().catch(() => undefined), saveDraft, makeDefault };
}

function PreviewArea({
  preview,
  version,
  run,
}: {
  preview: UseQueryResult<InputPreview, Error>;
  version: MemoryVersion;
  run: RunStatus | undefined;
}) {
  const data = preview.data && preview.data.version === version ? preview.data : undefined;
  const showLoading = useDelayedFlag(!data && !preview.error);
  if (preview.error && !data) {
    return (
      <ErrorPanel
        title={`Cannot preview the inputs of ${version}`}
        error={toStudioError(preview.error)}
        onRetry={() => void preview.refetch()}
        retrying={preview.isFetching}
      />
    );
  }
  if (!data) return showLoading ? <LoadingState label={`Computing Codex’s phase-2 selection for ${version}…`} /> : null;
  return <InputPreviewView preview={data} run={run} />;
}

/** The engine's settings beside the preview, or why they cannot be read. */
function SettingsSide({
  engine,
  settings,
  draft,
  actions,
}: {
  engine: EngineName;
  settings: ReturnType<typeof useStudioQuery<'consolidate.settings'>>;
  draft: ReturnType<typeof useSettingsDraft>;
  actions: ReturnType<typeof useRunActions>;
}) {
  if (settings.data) {
    return (
      <EngineSettingsPanel
        engine={engine}
        defaultEngine={settings.data.settings.engine}
        state={draft}
        apiKey={settings.data.apiKey}
        trust={settings.data.trust}
        saving={actions.save.isPending}
        saveError={actions.save.error}
        onSave={actions.saveDraft}
        onMakeDefault={actions.makeDefault}
      />
    );
  }
  if (!settings.error) return null;
  return (
    <ErrorPanel
      compact
      title="Cannot read the engine settings"
      error={toStudioError(settings.error)}
      onRetry={() => void settings.refetch()}
    />
  );
}

export function ConsolidatePage(props: ConsolidatePageProps) {
  const { versions, version, onVersion, shownRunId, onShowRun, onOpenProposal } = props;
  const settings = useStudioQuery('consolidate.settings', {});
  const engine = props.engine ?? settings.data?.settings.engine ?? 'builtin';
  const preview = useStudioQuery('consolidate.preview', version ? { version, engine } : skipToken);
  const runs = useStudioQuery('consolidate.runs', {});
  const currentId = shownRunId ?? runs.data?.[0]?.id ?? null;
  const status = useStudioQuery('consolidate.status', currentId ? { id: currentId } : skipToken);
  const run = status.data ?? runs.data?.find((r) => r.id === currentId);
  const draft = useSettingsDraft(settings.data);
  const actions = useRunActions(props, engine, settings.data, draft);
  const previewData = preview.data?.version === version ? preview.data : undefined;
  const blocked = blockedReason(
    previewData,
    !!preview.error && !previewData,
    run,
    draft,
    actions.start.isPending || actions.save.isPending,
  );
  const cancel = () => {
    if (run && isActive(run) && !actions.cancel.isPending) actions.cancel.mutate({ id: run.id });
  };
  const pageRef = useRef<HTMLElement>(null);
  // Escape cancels the run on screen while it runs, when the key is this view's (see bindings.ts); Enter starts one.
  useKeyScope(pageRef, 'consolidate', {
    'run.cancel': () => (isActive(run) ? cancel() : false),
    'run.start': () => (blocked ? false : void actions.runStart()),
  });

  return (
    <section ref={pageRef} className="page consolidate-page" aria-labelledby="consolidate-title" data-testid="consolidate-page">
      <header className="page-header">
        <h1 id="consolidate-title">Consolidate</h1>
        <VersionPicker versions={versions} value={version} onChange={onVersion} />
        <EnginePicker value={engine} onChange={props.onEngine} disabled={isActive(run)} />
        <button
          type="button"
          className="button button-primary"
          data-testid="start-run"
          aria-keyshortcuts="Enter"
          disabled={blocked !== null}
          aria-describedby="start-reason"
          onClick={actions.runStart}
        >
          Start
        </button>
        <span id="start-reason" className="muted small" data-testid="start-reason">
          {blocked ?? 'Runs in a staging copy; nothing is written until you apply the result in the review.'}
        </span>
      </header>
      {actions.start.error ? <ErrorPanel compact title="Cannot start the run" error={toStudioError(actions.start.error)} /> : null}
      {actions.cancel.error ? <ErrorPanel compact title="Cannot cancel the run" error={toStudioError(actions.cancel.error)} /> : null}
      <div className="page-scroll">
        {run ? <RunPanel run={run} cancelling={actions.cancel.isPending} onCancel={cancel} onReview={onOpenProposal} /> : null}
        <div className="consolidate-grid">
          <div className="consolidate-main">
            <PreviewArea preview={preview} version={version} run={run} />
          </div>
          <div className="consolidate-side">
            <SettingsSide engine={engine} settings={settings} draft={draft} actions={actions} />
          </div>
        </div>
        <RunList runs={runs.data ?? []} shownId={run?.id ?? null} onShow={onShowRun} onReview={onOpenProposal} />
      </div>
    </section>
  );
}
