// What the main pane says when there is nothing to show yet: no home, no memory root, or no file picked.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { useStudioMutation } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { memoriesFeatureText } from '../lib/format';
import { viewLabels, views } from '../navigation/location';
import { MemoriesConfigHint } from './memories-config-hint';

function OpenDemoButton() {
  const openDemo = useStudioMutation('home.openDemo');
  return (
    <div className="empty-actions">
      <button
        type="button"
        className="button button-primary"
        data-testid="open-demo"
        onClick={() => openDemo.mutate({})}
        disabled={openDemo.isPending}
      >
        {openDemo.isPending ? 'Creating a demo home…' : 'Open a demo home'}
      </button>
      {openDemo.error ? <ErrorPanel compact error={toStudioError(openDemo.error)} onRetry={() => openDemo.mutate({})} /> : null}
    </div>
  );
}

export function HomeMissing({ home }: { home: HomeInfo }) {
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <h1 id="empty-title">Codex home not found</h1>
      <p>
        No Codex home at <code>{home.codexHome}</code>. Start Codex once with memories on, or run with <code>--codex-home DIR</code>.
      </p>
      <p className="muted">
        This home was chosen from {sourceText(home.source)}. To look around first, open a generated demo home with sample memories.
      </p>
      <MemoriesConfigHint home={home} />
      <OpenDemoButton />
    </section>
  );
}

export function NoMemoryRoot({ home }: { home: HomeInfo }) {
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <h1 id="empty-title">No memory folder in {home.codexHome} yet</h1>
      <p>
        Codex writes its memories to <code>memories/</code> (or <code>memories_v2/</code>) inside the home once the memories feature is on
        and a few sessions have been consolidated. Until then there is nothing to inspect.
      </p>
      <p className="muted">
        Memories feature in <code>config.toml</code>: {memoriesFeatureText(home.config.featureMemories)}
        {home.config.featureMemories === null ? ' (Codex treats that as off)' : ''}. You can open a demo home with sample memories
        meanwhile; your own home is not touched.
      </p>
      <MemoriesConfigHint home={home} />
      <OpenDemoButton />
    </section>
  );
}

export interface PickAFileProps {
  /** The summary file to offer, when a root has one. */
  summary: { version: MemoryVersion; path: string } | null;
  /** Roots listed with no file at all (emptied by `codex debug clear-memories`, or never consolidated). */
  emptyRoots?: readonly string[];
  onOpen: (version: MemoryVersion, path: string) => void;
}

export function PickAFile({ summary, emptyRoots = [], onOpen }: PickAFileProps) {
  return (
    <section className="empty-state empty-state-quiet" aria-labelledby="empty-title">
      <h1 id="empty-title">Pick a file on the left</h1>
      {emptyRoots.length > 0 ? (
        <p data-testid="empty-root-note">
          <code className="break">{emptyRoots.join(', ')}</code> {emptyRoots.length === 1 ? 'holds' : 'hold'} no memory files. Codex leaves
          a root so after <code>codex debug clear-memories</code> or a memory reset (files, git baseline and extracted memories all gone),
          and before its first consolidation. Nothing needs fixing: the next session start with memories on extracts recent sessions again
          and consolidates them; the Coverage view shows which.
        </p>
      ) : null}
      <p>
        <code>memory_summary.md</code> is what the next Codex session sees: it is loaded into the session when it starts. The other files
        are what Codex builds it from, and what it can look up later.
      </p>
      <p className="muted">
        Use <kbd>/</kbd> or <kbd>Ctrl</kbd>+<kbd>P</kbd> to filter, arrow keys to move, <kbd>Enter</kbd> to open. <kbd>Alt</kbd>+
        <kbd>1</kbd>–<kbd>{Math.min(views.length, 9)}</kbd>
        {views.length > 9 ? (
          <>
            {' '}
            and <kbd>Alt</kbd>+<kbd>0</kbd>
          </>
        ) : null}{' '}
        switch between {views.map((v) => viewLabels[v]).join(', ')}.
      </p>
      {summary ? (
        <button type="button" className="button" onClick={() => onOpen(summary.version, summary.path)}>
          Open {summary.version}/{summary.path}
        </button>
      ) : null}
    </section>
  );
}

function sourceText(source: HomeInfo['source']): string {
  switch (source) {
    case 'flag':
      return 'the --codex-home option';
    case 'env':
      return 'the CODEX_HOME environment variable';
    case 'demo':
      return 'the demo';
    default:
      return 'the default location (~/.codex)';
  }
}
