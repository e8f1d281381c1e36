// The Consolidate tab panel: keeps the picked root, engine and shown run while other views are open.
import { useState } from 'react';
import type { EngineName } from '../../../shared/consolidate';
import type { MemoryVersion } from '../../../shared/domain';
import type { View } from '../navigation/location';
import { viewPanelId, viewTabId } from '../navigation/view-tabs';
import { ConsolidatePage } from './consolidate-page';

export interface ConsolidateViewProps {
  active: View;
  versions: readonly MemoryVersion[];
  preferred: MemoryVersion | null;
  codexHome: string | null;
  onOpenProposal: (id: string) => void;
}

function NoRoot({ codexHome }: { codexHome: string | null }) {
  return (
    <section className="empty-state" aria-labelledby="consolidate-no-root">
      <h1 id="consolidate-no-root">Nothing to consolidate yet</h1>
      <p>
        {codexHome ? <code>{codexHome}</code> : 'This Codex home'} has neither <code>memories/</code> nor <code>memories_v2/</code>. Turn on{' '}
        <code>[features] memories</code> in <code>config.toml</code> and use Codex for a few sessions; their memories can then be
        consolidated here.
      </p>
    </section>
  );
}

/** The choices of one home, kept while other views show; a switch to another home (the demo) starts afresh. */
function HomeConsolidate({
  shown,
  versions,
  preferred,
  codexHome,
  onOpenProposal,
}: Omit<ConsolidateViewProps, 'active'> & { shown: boolean }) {
  const [picked, setPicked] = useState<MemoryVersion | null>(null);
  const [engine, setEngine] = useState<EngineName | null>(null);
  const [shownRunId, setShownRunId] = useState<string | null>(null);
  const version = picked && versions.includes(picked) ? picked : preferred;
  if (!shown) return null;
  if (!version) return <NoRoot codexHome={codexHome} />;
  return (
    <ConsolidatePage
      versions={versions}
      version={version}
      onVersion={setPicked}
      engine={engine}
      onEngine={setEngine}
      shownRunId={shownRunId}
      onShowRun={setShownRunId}
      onOpenProposal={onOpenProposal}
    />
  );
}

export function ConsolidateView({ active, codexHome, ...rest }: ConsolidateViewProps) {
  const shown = active === 'consolidate';
  return (
    <div id={viewPanelId('consolidate')} role="tabpanel" aria-labelledby={viewTabId('consolidate')} className="page-panel" hidden={!shown}>
      <HomeConsolidate key={codexHome ?? ''} shown={shown} codexHome={codexHome} {...rest} />
    </div>
  );
}
