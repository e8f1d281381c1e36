// The Import view's tab panel: mounted on first visit and then kept (hidden), so leaving the tab never loses the wizard's place.
import { useState } from 'react';
import type { HomeInfo } from '../../../shared/domain';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { ImportWizard } from './import-wizard';
import './import.css';

export interface ImportPanelProps {
  /** The tab panel's id and the id of the tab that labels it (from the navigation). */
  panelId: string;
  tabId: string;
  active: boolean;
  home: HomeInfo | undefined;
  colorScheme: ColorScheme;
  onConsolidate: () => void;
  onOpenHistory: () => void;
}

export function ImportPanel({ panelId, tabId, active, ...wizard }: ImportPanelProps) {
  const [visited, setVisited] = useState(active);
  if (active && !visited) setVisited(true);
  return (
    <div
      id={panelId}
      role="tabpanel"
      aria-labelledby={tabId}
      className="page-panel import-panel"
      hidden={!active}
      data-testid="import-view"
    >
      {visited ? <ImportWizard active={active} {...wizard} /> : null}
    </div>
  );
}
