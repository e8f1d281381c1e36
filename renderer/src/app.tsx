// The application shell: view tabs, the Files view (sidebar + main pane), the Rollouts/Projects/Health pages, status bar.
import type { UseQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { notReadBadge } from '../../shared/codex-reads';
import type { FileList, HomeInfo, MemoryVersion } from '../../shared/domain';
import { presentRoots, useFileLists, type FileListState } from './api/file-lists';
import { useStudioQuery } from './api/studio-query';
import { toStudioError } from './api/studio-request-error';
import { useStudioEvents } from './api/use-studio-events';
import { computeAppState, usePublishAppState } from './app-state';
import { DemoBar, useLeaveDemo } from './common/demo-exit';
import { setThemeSetting, useColorScheme } from './hooks/use-color-scheme';
import { ConsolidateView } from './consolidate/consolidate-view';
import { HealthPage } from './health/health-page';
import { HistoryPage } from './history/history-page';
import { ImportPanel } from './import/import-panel';
import type { ColorScheme } from './hooks/use-color-scheme';
import { MainContent, type MainContentProps } from './main-pane/main-content';
import { MemoriesConfigHint } from './main-pane/memories-config-hint';
import { preloadEditor } from './main-pane/file-view';
import { preferredVersion, useKnownPaths } from './navigation/known-paths';
import { firstFileOf, useOpenFirstFile } from './navigation/first-file';
import type { View } from './navigation/location';
import { useNavigation, type Navigation } from './navigation/use-navigation';
import { useViewShortcuts, viewPanelId, viewTabId, ViewTabs } from './navigation/view-tabs';
import { DoctorPage } from './doctor/doctor-page';
import { SyncPage } from './sync/sync-page';
import { CoveragePage, initialCoverageView } from './coverage/coverage-page';
import { ProjectsPage } from './projects/projects-page';
import { ReviewBadge } from './review/agent-news';
import { MarkdownLinkProvider } from './review/markdown-links';
import { ReviewPage } from './review/review-page';
import { initialRolloutsView, RolloutsPage } from './rollouts/rollouts-page';
import { fileKey } from './sidebar/tree-model';
import { Sidebar, type SidebarSection } from './sidebar/sidebar';
import { useDiagnostics, type DiagnosticsSummary } from './status/use-diagnostics';
import { DiagnosticsPanel } from './status/diagnostics-panel';
import { StatusBar } from './status/status-bar';
import { CommandPalette, usePaletteShortcut } from './search/command-palette';
import type { PaletteAction } from './search/palette-model';
import { SearchPage } from './search/search-page';

function toSections(home: HomeInfo | undefined, lists: readonly FileListState[]): SidebarSection[] {
  return presentRoots(home).map((root, index) => {
    const state = lists[index];
    const error = state?.error ? toStudioError(state.error) : null;
    return {
      root,
      notRead: home ? notReadBadge(home.codexReads, root.version) : null,
      list: state?.data,
      status: state?.data ? 'ready' : error ? 'error' : 'loading',
      error,
      retry: () => void state?.refetch(),
      retrying: state?.isFetching ?? false,
    };
  });
}

/** A tab panel: always in the DOM for aria-controls, its content mounted only while its tab is selected. */
function ViewPanel({ view, active, className, children }: { view: View; active: View; className: string; children: ReactNode }) {
  return (
    <div id={viewPanelId(view)} role="tabpanel" aria-labelledby={viewTabId(view)} className={className} hidden={view !== active}>
      {view === active ? children : null}
    </div>
  );
}

function NoRootPage({ home }: { home: HomeInfo | undefined }) {
  return (
    <section className="empty-state" aria-labelledby="no-root-title">
      <h1 id="no-root-title">No memory folder to inspect</h1>
      <p>
        {home ? <code>{home.codexHome}</code> : 'This Codex home'} has neither <code>memories/</code> nor <code>memories_v2/</code> yet.
        Codex creates them once the memories feature is on and a few sessions have been consolidated; the Files view offers a demo home
        meanwhile.
      </p>
      {home ? <MemoriesConfigHint home={home} /> : null}
    </section>
  );
}

function usePreloadEditor(ready: boolean): void {
  useEffect(() => {
    if (!ready) return undefined;
    // Fetch Monaco while the person is still choosing a file, so the first open is instant.
    // Safari has no requestIdleCallback; a short timeout does the same job there.
    const hasIdle = typeof window.requestIdleCallback === 'function';
    const handle = hasIdle ? window.requestIdleCallback(() => preloadEditor()) : window.setTimeout(preloadEditor, 200);
    return () => (hasIdle ? window.cancelIdleCallback(handle) : window.clearTimeout(handle));
  }, [ready]);
}

interface FilesViewProps extends Omit<MainContentProps, 'homeError' | 'retryHome' | 'retryingHome'> {
  hidden: boolean;
  homeQuery: UseQueryResult<HomeInfo, Error>;
  diagnostics: DiagnosticsSummary;
  diagnosticsOpen: boolean;
  closeDiagnostics: () => void;
}

/** Sidebar and main pane; kept mounted while another view shows, so the tree and the editor keep their place. */
function FilesView({ hidden, homeQuery, diagnostics, diagnosticsOpen, closeDiagnostics, ...main }: FilesViewProps) {
  const selection = main.nav.location?.type === 'file' ? main.nav.location : null;
  return (
    <div id={viewPanelId('files')} role="tabpanel" aria-labelledby={viewTabId('files')} className="files-layout" hidden={hidden}>
      <Sidebar
        home={main.home}
        homeFailed={homeQuery.isError && !main.home}
        sections={main.sections}
        openedKey={selection ? fileKey(selection.version, selection.path) : null}
        openedSeq={selection?.seq ?? null}
        onOpen={main.nav.openFile}
      />
      <main className="main" aria-label="File">
        <div className="main-content">
          <MainContent
            {...main}
            homeError={homeQuery.error}
            retryHome={() => void homeQuery.refetch()}
            retryingHome={homeQuery.isFetching}
          />
        </div>
        {diagnosticsOpen ? <DiagnosticsPanel groups={diagnostics.groups} onClose={closeDiagnostics} /> : null}
      </main>
    </div>
  );
}

interface PagesProps {
  home: HomeInfo | undefined;
  nav: Navigation;
  versions: readonly MemoryVersion[];
  preferred: MemoryVersion | null;
  colorScheme: ColorScheme;
}

/** Review and History: proposals under review, and what was applied or changed on disk. */
function ReviewPages({ nav, versions, preferred, colorScheme }: Omit<PagesProps, 'home'>) {
  const openFile = nav.location?.type === 'file' ? { version: nav.location.version, path: nav.location.path } : null;
  return (
    <>
      <ViewPanel view="review" active={nav.view} className="page-panel">
        <MarkdownLinkProvider open={nav.openFile}>
          <ReviewPage
            proposalId={nav.proposalId}
            onOpenProposal={nav.openProposal}
            onOpenHistory={() => nav.setView('history')}
            colorScheme={colorScheme}
            versions={versions}
            preferred={preferred}
          />
        </MarkdownLinkProvider>
      </ViewPanel>
      <ViewPanel view="history" active={nav.view} className="page-panel">
        <HistoryPage
          openFile={openFile}
          versions={versions}
          preferred={preferred}
          onOpenProposal={nav.openProposal}
          colorScheme={colorScheme}
        />
      </ViewPanel>
    </>
  );
}

/** Rollouts, Projects and Health; the first two share the root they show. */
function Pages({ home, nav, versions, preferred }: Omit<PagesProps, 'colorScheme'>) {
  const [picked, setPageVersion] = useState<MemoryVersion | null>(null);
  const [rolloutsView, setRolloutsView] = useState(initialRolloutsView);
  const version = picked && versions.includes(picked) ? picked : preferred;
  return (
    <>
      <ViewPanel view="rollouts" active={nav.view} className="page-panel">
        {version ? (
          <RolloutsPage
            versions={versions}
            version={version}
            onVersion={setPageVersion}
            onOpen={nav.openFile}
            viewState={rolloutsView}
            onViewState={setRolloutsView}
          />
        ) : (
          <NoRootPage home={home} />
        )}
      </ViewPanel>
      <ViewPanel view="projects" active={nav.view} className="page-panel">
        {version ? (
          <ProjectsPage versions={versions} version={version} onVersion={setPageVersion} onOpen={nav.openFile} />
        ) : (
          <NoRootPage home={home} />
        )}
      </ViewPanel>
      <ViewPanel view="health" active={nav.view} className="page-panel">
        <HealthPage
          configDiagnostics={home?.config.diagnostics ?? []}
          configPath={home?.config.path ?? null}
          onOpenSession={nav.openSession}
        />
      </ViewPanel>
    </>
  );
}

/** The Coverage view; what the person set on it is kept here, so it survives opening a file or a session and coming back. */
function CoveragePanel({ nav }: { nav: Navigation }) {
  const [viewState, setViewState] = useState(initialCoverageView);
  return (
    <ViewPanel view="coverage" active={nav.view} className="page-panel">
      <CoveragePage
        active={nav.view === 'coverage'}
        viewState={viewState}
        onViewState={setViewState}
        onOpenFile={nav.openFile}
        onOpenSession={nav.openSession}
        onOpenProposal={nav.openProposal}
      />
    </ViewPanel>
  );
}

/** The Search view and the command palette (Ctrl+K): both jump to a file and line in the Files view. */
function SearchLayer({
  nav,
  versions,
  lists,
  home,
}: {
  nav: Navigation;
  versions: readonly MemoryVersion[];
  lists: readonly FileList[];
  home: HomeInfo | undefined;
}) {
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [searchQuery, setSearchQuery] = useState('');
  const leaveDemo = useLeaveDemo();
  usePaletteShortcut(useCallback(() => setPaletteOpen(true), []));
  const onAction = (action: PaletteAction) => {
    if (action.kind === 'view') nav.setView(action.view);
    else if (action.kind === 'back') nav.back();
    else if (action.kind === 'theme') setThemeSetting(action.theme);
    else if (action.kind === 'leaveDemo') leaveDemo.mutate({});
    else {
      setSearchQuery(action.query);
      nav.setView('search');
    }
  };
  return (
    <>
      <ViewPanel view="search" active={nav.view} className="page-panel">
        <SearchPage versions={versions} onOpen={nav.openFile} initialQuery={searchQuery} />
      </ViewPanel>
      {paletteOpen ? (
        <CommandPalette
          lists={lists}
          onClose={() => setPaletteOpen(false)}
          onOpen={nav.openFile}
          onAction={onAction}
          returnHome={home?.returnHome ?? null}
        />
      ) : null}
    </>
  );
}

export function App() {
  useStudioEvents();
  const colorScheme = useColorScheme();
  const appInfo = useStudioQuery('app.info', {});
  const homeQuery = useStudioQuery('home.get', {});
  const home = homeQuery.data;
  const lists = useFileLists(home);
  const sections = useMemo(() => toSections(home, lists), [home, lists]);
  const nav = useNavigation(home?.codexHome);
  useViewShortcuts(nav.view, nav.setView);
  const [diagnosticsOpen, setDiagnosticsOpen] = useState(false);
  const diagnostics = useDiagnostics(home, sections);
  const knownPaths = useKnownPaths(useMemo(() => sections.map((section) => section.list), [sections]));
  const versions = useMemo(() => sections.map((section) => section.root.version), [sections]);
  const preferred = preferredVersion(home, versions);

  const appState = computeAppState({
    homeLoaded: home !== undefined,
    homeFailed: homeQuery.isError,
    listsSettled: sections.every((section) => section.status !== 'loading'),
  });
  usePublishAppState(appState);
  const deciding = useOpenFirstFile(home, firstFileOf(home, sections), nav.location !== null, nav.openFile);
  usePreloadEditor(appState === 'ready' && sections.length > 0);

  return (
    <div className="app">
      <header className="top-bar">
        <span className="app-title">Memory Studio</span>
        <ViewTabs view={nav.view} onChange={nav.setView} badges={{ review: <ReviewBadge /> }} />
        <DemoBar home={home} />
      </header>
      <div className="app-body">
        <FilesView
          {...{ home, homeQuery, sections, colorScheme, nav, knownPaths, diagnostics, diagnosticsOpen, deciding }}
          hidden={nav.view !== 'files'}
          closeDiagnostics={() => setDiagnosticsOpen(false)}
        />
        <Pages home={home} nav={nav} versions={versions} preferred={preferred} />
        <ReviewPages nav={nav} versions={versions} preferred={preferred} colorScheme={colorScheme} />
        <SearchLayer home={home} nav={nav} versions={versions} lists={lists.flatMap((l) => (l.data ? [l.data] : []))} />
        <ConsolidateView
          active={nav.view}
          versions={versions}
          preferred={preferred}
          codexHome={home?.codexHome ?? null}
          onOpenProposal={nav.openProposal}
        />
        <ViewPanel view="doctor" active={nav.view} className="page-panel">
          <DoctorPage active={nav.view === 'doctor'} versions={versions} onOpen={nav.openFile} onOpenProposal={nav.openProposal} />
        </ViewPanel>
        <ViewPanel view="sync" active={nav.view} className="page-panel">
          <SyncPage active={nav.view === 'sync'} onOpenProposal={nav.openProposal} />
        </ViewPanel>
        <CoveragePanel nav={nav} />
        <ImportPanel
          panelId={viewPanelId('import')}
          tabId={viewTabId('import')}
          active={nav.view === 'import'}
          home={home}
          colorScheme={colorScheme}
          onConsolidate={() => nav.setView('consolidate')}
          onOpenHistory={() => nav.setView('history')}
        />
      </div>
      <StatusBar
        appInfo={appInfo.data}
        home={home}
        lists={sections.flatMap((section) => (section.list ? [section.list] : []))}
        diagnosticsCount={diagnostics.count}
        diagnosticsPending={diagnostics.pending > 0}
        diagnosticsSeverity={diagnostics.severity}
        diagnosticsOpen={diagnosticsOpen}
        onToggleDiagnostics={() => {
          nav.setView('files');
          setDiagnosticsOpen((open) => !open);
        }}
      />
    </div>
  );
}
