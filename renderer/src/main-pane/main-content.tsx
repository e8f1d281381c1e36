// The Files view's main pane: the home's empty and error states, the open file, or the open session.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { firstFileOf } from '../navigation/first-file';
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
  /** The first file of the home is not decided yet (the root Codex reads is still listing). */
  deciding?: boolean;
}

/** The summary to suggest: of the root Codex reads (see firstFileOf); none while that is undecided. */
export function suggestedSummary(home: HomeInfo | undefined, sections: readonly SidebarSection[]) {
  const first = firstFileOf(home, sections);
  return first === 'wait' ? null : first;
}

export function MainContent(props: MainContentProps) {
  const { home, homeError, retryHome, retryingHome, sections, colorScheme, nav, knownPaths, deciding = false } = props;
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
  if (!location && deciding) {
    const label = `Opening what Codex reads (${home.codexReads.version})…`;
    return (
      <div className="main-message" data-testid="first-file-loading">
        <LoadingState label={label} />
      </div>
    );
  }
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
