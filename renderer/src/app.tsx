// The application shell: sidebar, main pane and status bar, wired to the home and file-list queries.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { HomeInfo, MemoryVersion } from '../../shared/domain';
import { presentRoots, useAppInfo, useFileLists, useHome, type FileListState, type FileSelection } from './api/queries';
import { toStudioError } from './api/studio-request-error';
import { useStudioEvents } from './api/use-studio-events';
import { computeAppState, usePublishAppState } from './app-state';
import { ErrorPanel } from './common/error-panel';
import { LoadingState } from './common/loading-state';
import { useColorScheme, type ColorScheme } from './hooks/use-color-scheme';
import { useDelayedFlag } from './hooks/use-delayed-flag';
import { HomeMissing, NoMemoryRoot, PickAFile } from './main-pane/empty-states';
import { FileView, preloadEditor } from './main-pane/file-view';
import { fileKey } from './sidebar/tree-model';
import { Sidebar, type SidebarSection } from './sidebar/sidebar';
import { useDiagnostics } from './status/use-diagnostics';
import { DiagnosticsPanel } from './status/diagnostics-panel';
import { StatusBar } from './status/status-bar';

function toSections(home: HomeInfo | undefined, lists: readonly FileListState[]): SidebarSection[] {
  return presentRoots(home).map((root, index) => {
    const state = lists[index];
    const error = state?.error ? toStudioError(state.error) : null;
    return {
      root,
      list: state?.data,
      status: state?.data ? 'ready' : error ? 'error' : 'loading',
      error,
      retry: () => void state?.refetch(),
      retrying: state?.isFetching ?? false,
    };
  });
}

/** The summary to suggest: from the root config.toml selects, else the first root that has one. */
function suggestedSummary(home: HomeInfo | undefined, sections: readonly SidebarSection[]) {
  const preferred = home?.config.memories.version;
  const ordered = [...sections].sort((a, b) => Number(b.root.version === preferred) - Number(a.root.version === preferred));
  for (const section of ordered) {
    const file = section.list?.files.find((entry) => entry.kind === 'summary');
    if (file) return { version: section.root.version, path: file.path };
  }
  return null;
}

interface MainContentProps {
  home: HomeInfo | undefined;
  homeError: Error | null;
  retryHome: () => void;
  retryingHome: boolean;
  selection: FileSelection | null;
  sections: readonly SidebarSection[];
  colorScheme: ColorScheme;
  onOpen: (version: MemoryVersion, path: string) => void;
}

function MainContent({ home, homeError, retryHome, retryingHome, selection, sections, colorScheme, onOpen }: MainContentProps) {
  const showLoading = useDelayedFlag(!home && !homeError);
  if (!home) {
    if (homeError) {
      return (
        <div className="main-message">
          <ErrorPanel title="Cannot read the Codex home" error={toStudioError(homeError)} onRetry={retryHome} retrying={retryingHome} />
        </div>
      );
    }
    return <div className="main-message">{showLoading ? <LoadingState label="Reading the Codex home…" /> : null}</div>;
  }
  if (!home.exists) return <HomeMissing home={home} />;
  if (sections.length === 0) return <NoMemoryRoot home={home} />;
  if (!selection) return <PickAFile summary={suggestedSummary(home, sections)} onOpen={onOpen} />;
  return <FileView version={selection.version} path={selection.path} colorScheme={colorScheme} />;
}

export function App() {
  useStudioEvents();
  const colorScheme = useColorScheme();
  const appInfo = useAppInfo();
  const homeQuery = useHome();
  const home = homeQuery.data;
  const lists = useFileLists(home);
  const sections = useMemo(() => toSections(home, lists), [home, lists]);
  const [picked, setPicked] = useState<FileSelection | null>(null);
  const [diagnosticsOpen, setDiagnosticsOpen] = useState(false);
  // A selection made in another home (before the demo opened, say) is not carried over.
  const selection = picked && home && picked.codexHome === home.codexHome ? picked : null;
  const diagnostics = useDiagnostics(home, sections);

  const appState = computeAppState({
    homeLoaded: home !== undefined,
    homeFailed: homeQuery.isError,
    listsSettled: sections.every((section) => section.status !== 'loading'),
  });
  usePublishAppState(appState);

  useEffect(() => {
    if (appState !== 'ready' || sections.length === 0) return undefined;
    // Fetch Monaco while the person is still choosing a file, so the first open is instant.
    // Safari has no requestIdleCallback; a short timeout does the same job there.
    const hasIdle = typeof window.requestIdleCallback === 'function';
    const handle = hasIdle ? window.requestIdleCallback(() => preloadEditor()) : window.setTimeout(preloadEditor, 200);
    return () => (hasIdle ? window.cancelIdleCallback(handle) : window.clearTimeout(handle));
  }, [appState, sections.length]);

  const onOpen = useCallback(
    (version: MemoryVersion, path: string) => {
      if (home) setPicked({ codexHome: home.codexHome, version, path });
    },
    [home],
  );

  return (
    <div className="app">
      <Sidebar
        home={home}
        homeFailed={homeQuery.isError && !home}
        sections={sections}
        openedKey={selection ? fileKey(selection.version, selection.path) : null}
        onOpen={onOpen}
      />
      <main className="main" aria-label="File">
        <div className="main-content">
          <MainContent
            home={home}
            homeError={homeQuery.error}
            retryHome={() => void homeQuery.refetch()}
            retryingHome={homeQuery.isFetching}
            selection={selection}
            sections={sections}
            colorScheme={colorScheme}
            onOpen={onOpen}
          />
        </div>
        {diagnosticsOpen ? <DiagnosticsPanel groups={diagnostics.groups} onClose={() => setDiagnosticsOpen(false)} /> : null}
      </main>
      <StatusBar
        appInfo={appInfo.data}
        home={home}
        lists={sections.flatMap((section) => (section.list ? [section.list] : []))}
        selectedVersion={selection?.version ?? null}
        diagnosticsCount={diagnostics.count}
        diagnosticsSeverity={diagnostics.severity}
        diagnosticsOpen={diagnosticsOpen}
        onToggleDiagnostics={() => setDiagnosticsOpen((open) => !open)}
      />
    </div>
  );
}
