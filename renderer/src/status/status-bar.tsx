// The bottom bar: host mode, home, selected root, file count and size, memories config, diagnostics, live updates, theme.
import { useSyncExternalStore } from 'react';
import type { AppInfo, FileList, HomeInfo, MemoryVersion } from '../../../shared/domain';
import { codexReadsTitle, notReadBadge } from '../../../shared/codex-reads';
import { useStudioClient } from '../api/client';
import { presentRoots } from '../api/file-lists';
import type { LiveStatus } from '../api/live-status';
import { formatBytes, memoriesFeatureText, plural } from '../lib/format';
import { IndexState } from '../search/index-state';
import { ThemePicker } from './theme-picker';

export interface StatusBarProps {
  appInfo: AppInfo | undefined;
  home: HomeInfo | undefined;
  lists: readonly FileList[];
  diagnosticsCount: number;
  /** A root's lint is still running: the count is not final yet. */
  diagnosticsPending: boolean;
  diagnosticsSeverity: 'error' | 'warning' | 'info' | null;
  diagnosticsOpen: boolean;
  onToggleDiagnostics: () => void;
}

const liveText: Record<LiveStatus, string> = {
  connecting: 'Live updates: connecting…',
  live: 'Live updates: on',
  reconnecting: 'Live updates: reconnecting…',
  off: 'Live updates: off (reload to retry)',
};

function LiveIndicator() {
  const { live } = useStudioClient();
  const status = useSyncExternalStore(live.subscribe, live.get);
  return (
    <span className={`status-item live live-${status}`} title="Whether changes on disk show up here by themselves">
      <span className="live-dot" aria-hidden="true" />
      {liveText[status]}
    </span>
  );
}

function hostText(appInfo: AppInfo | undefined, transport: 'ipc' | 'http'): string {
  const host = appInfo?.host ?? (transport === 'ipc' ? 'electron' : 'serve');
  return host === 'electron' ? 'Desktop app' : 'Browser (serve)';
}

/**
 * One wording whatever is open: "Codex reads v1 | 4,113 files · 15.8 MB | + v2 not read by Codex (config: v1)", the
 * other root in the words of its sidebar, header and budget badges. The counts are the read
 * root's (every root's when Codex reads none), so they never jump with the file opened.
 */
function RootItems({ home, lists }: Pick<StatusBarProps, 'home' | 'lists'>) {
  if (!home) {
    return (
      <>
        <span className="status-item" data-testid="status-root">
          …
        </span>
        <span className="status-item" data-testid="status-files">
          …
        </span>
      </>
    );
  }
  const reads = home.codexReads;
  const present = presentRoots(home).map((root) => root.version);
  const counted: readonly MemoryVersion[] = reads.off ? present : present.filter((version) => version === reads.version);
  const others = present.filter((version) => !counted.includes(version));
  const shown = lists.filter((list) => counted.includes(list.version));
  const files = shown.reduce((sum, list) => sum + list.files.length, 0);
  const bytes = shown.reduce((sum, list) => sum + list.totalBytes, 0);
  const rootText = reads.off ? 'Codex reads no root (memories off)' : `Codex reads ${reads.version}`;
  const filesText =
    present.length === 0
      ? 'No files'
      : counted.length === 0
        ? `no ${reads.version} folder yet`
        : shown.length < counted.length
          ? '…'
          : `${plural(files, 'file')} · ${formatBytes(bytes)}`;
  return (
    <>
      <span className="status-item" data-testid="status-root" title={codexReadsTitle(reads)}>
        {rootText}
      </span>
      <span className="status-item" data-testid="status-files">
        {filesText}
      </span>
      {others.length > 0 ? (
        <span className="status-item muted" data-testid="status-others" title="Memory Studio shows it; a new Codex session is not told it">
          {others.map((version) => `+ ${version} ${notReadBadge(reads, version) ?? '(not read)'}`).join(' ')}
        </span>
      ) : null}
    </>
  );
}

export function StatusBar(props: StatusBarProps) {
  const { appInfo, home, lists, diagnosticsCount, diagnosticsSeverity } = props;
  const { transport } = useStudioClient();

  return (
    <footer className="status-bar" data-testid="status-bar" aria-label="Status">
      <span className="status-item" data-testid="status-host">
        {hostText(appInfo, transport)}
      </span>
      <span className="status-item status-home" title={home?.codexHome}>
        {home ? home.codexHome : '…'}
      </span>
      <RootItems home={home} lists={lists} />
      <span className="status-item" data-testid="status-config">
        memories feature: {home ? memoriesFeatureText(home.config.featureMemories) : '…'}
        {home && !home.config.exists ? ' (no config.toml)' : ''}
      </span>
      <span className="status-spacer" />
      <IndexState compact />
      <button
        type="button"
        className={`status-button${diagnosticsSeverity ? ` status-${diagnosticsSeverity}` : ''}`}
        aria-expanded={props.diagnosticsOpen}
        aria-controls="diagnostics-panel"
        data-testid="diagnostics-toggle"
        data-count={props.diagnosticsPending ? undefined : diagnosticsCount}
        onClick={props.onToggleDiagnostics}
      >
        {props.diagnosticsPending ? `${plural(diagnosticsCount, 'diagnostic')}, checking…` : plural(diagnosticsCount, 'diagnostic')}
      </button>
      <LiveIndicator />
      <ThemePicker />
    </footer>
  );
}
