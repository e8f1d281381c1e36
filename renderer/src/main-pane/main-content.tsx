// The Files view's main pane: the home's empty and error states, the open file, or the open session.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { describeLocation } from '../navigation/location';
import type { Navigation } from '../navigation/use-navigation';
import { SessionView } from '../session/session-view';
import type { SidebarSection } from '../sidebar/sidebar';
import { HomeMissing, NoMemoryRoot, PickAFile } from './empty-states';
import type { RevealRequest } from './editor-types';
import { FileView } from './file-view';

export interface MainContentProps {
  home: HomeInfo | undefined;
  homeError: Error | null;
  retryHome: () => void;
  retryingHome: boolean;
  sections: readonly SidebarSection[];
  colorScheme: ColorScheme;
  nav: Navigation;
  knownPaths: (version: MemoryVersion) => ReadonlySet<string> | null;
}

/** The summary to suggest: from the root config.toml selects, else the first root that has one. */
/** The summary of the root Codex uses for new sessions (memories.version), else of any root that has one. */
export function suggestedSummary(home: HomeInfo | undefined, sections: readonly SidebarSection[]) {
  const preferred = home?.config.memories.version;
  const ordered = [...sections].sort((a, b) => Number(b.root.version === preferred) - Number(a.root.version === preferred));
  for (const section of ordered) {
    const file = section.list?.files.find((entry) => entry.kind === 'summary');
    if (file) return { version: section.root.version, path: file.path };
  }
  return null;
}

export function MainContent({ home, homeError, retryHome, retryingHome, sections, colorScheme, nav, knownPaths }: MainContentProps) {
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
  const { location, previous } = nav;
  const back = previous ? { label: `Back to ${describeLocation(previous)}`, onBack: nav.back } : null;
  if (location?.type === 'session') {
    return (
      <SessionView
        key={location.threadId}
        threadId={location.threadId}
        onOpenFile={nav.openFile}
        onOpenSession={nav.openSession}
        onOpenProposal={nav.openProposal}
        back={back}
      />
    );
  }
  if (!home.exists) return <HomeMissing home={home} />;
  if (sections.length === 0) return <NoMemoryRoot home={home} />;
  if (!location) {
    const emptyRoots = sections.filter((s) => s.status === 'ready' && s.list?.files.length === 0).map((s) => s.root.path);
    return <PickAFile summary={suggestedSummary(home, sections)} emptyRoots={emptyRoots} onOpen={nav.openFile} />;
  }
  const reveal: RevealRequest | null = location.span
    ? { version: location.version, path: location.path, ...location.span, seq: location.seq }
    : null;
  return (
    <FileView
      version={location.version}
      path={location.path}
      colorScheme={colorScheme}
      reveal={reveal}
      knownPaths={knownPaths}
      back={back}
      onOpenFile={nav.openFile}
      onOpenSession={nav.openSession}
      onOpenProposal={nav.openProposal}
    />
  );
}
