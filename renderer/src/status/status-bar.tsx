// The bottom bar: host mode, home, selected root, file count and size, memories config, diagnostics, live updates.
import { useSyncExternalStore } from 'react';
import type { AppInfo, FileList, HomeInfo, MemoryVersion } from '../../../shared/domain';
import { useStudioClient } from '../api/client';
import type { LiveStatus } from '../api/live-status';
import { formatBytes, memoriesFeatureText, plural } from '../lib/format';
import { IndexState } from '../search/index-state';

export interface StatusBarProps {
  appInfo: AppInfo | undefined;
  home: HomeInfo | undefined;
  lists: readonly FileList[];
  selectedVersion: MemoryVersion | null;
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

export function StatusBar(props: StatusBarProps) {
  const { appInfo, home, lists, selectedVersion, diagnosticsCount, diagnosticsSeverity } = props;
  const { transport } = useStudioClient();
  // Counts follow the selected root; with nothing open they cover every root.
  const scope = selectedVersion ? lists.filter((list) => list.version === selectedVersion) : lists;
  const files = scope.reduce((sum, list) => sum + list.files.length, 0);
  const bytes = scope.reduce((sum, list) => sum + list.totalBytes, 0);

  return (
    <footer className="status-bar" data-testid="status-bar" aria-label="Status">
      <span className="status-item" data-testid="status-host">
        {hostText(appInfo, transport)}
      </span>
      <span className="status-item status-home" title={home?.codexHome}>
        {home ? home.codexHome : '…'}
      </span>
      <span className="status-item" data-testid="status-root">
        {selectedVersion ? `Root ${selectedVersion}` : lists.length > 0 ? `Roots ${lists.map((l) => l.version).join(' + ')}` : 'No root'}
      </span>
      <span className="status-item" data-testid="status-files">
        {lists.length > 0 ? `${plural(files, 'file')} · ${formatBytes(bytes)}` : home ? 'No files' : '…'}
      </span>
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
    </footer>
  );
}
