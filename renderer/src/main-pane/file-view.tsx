// The main pane for a chosen file: header plus Monaco, or the file-level error (too large, binary, symlink…).
import { lazy, Suspense } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import { useFile } from '../api/queries';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { FileHeader } from './file-header';

// Monaco is most of the bundle; load it only when the first file opens (App preloads it when idle).
const FileEditor = lazy(() => import('./file-editor').then((module) => ({ default: module.FileEditor })));

export function preloadEditor(): void {
  void import('./file-editor');
}

export interface FileViewProps {
  version: MemoryVersion;
  path: string;
  colorScheme: ColorScheme;
}

export function FileView({ version, path, colorScheme }: FileViewProps) {
  const query = useFile(version, path);
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

  return (
    <div className="file-view">
      <FileHeader file={data} pendingPath={showPending ? path : null} />
      <Suspense fallback={<div className="main-message"><LoadingState label="Loading the editor…" /></div>}>
        <FileEditor version={data.version} path={data.path} content={data.content} colorScheme={colorScheme} />
      </Suspense>
    </div>
  );
}
