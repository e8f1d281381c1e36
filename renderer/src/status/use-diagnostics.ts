// Collects config.toml and per-root diagnostics into titled groups, with a count and the worst severity.
import { useMemo } from 'react';
import type { Diagnostic, HomeInfo } from '../../../shared/domain';
import type { SidebarSection } from '../sidebar/sidebar';
import type { DiagnosticGroup } from './diagnostics-panel';

const rank: Record<Diagnostic['severity'], number> = { info: 1, warning: 2, error: 3 };

export interface DiagnosticsSummary {
  groups: DiagnosticGroup[];
  count: number;
  severity: Diagnostic['severity'] | null;
}

export function useDiagnostics(home: HomeInfo | undefined, sections: readonly SidebarSection[]): DiagnosticsSummary {
  return useMemo(() => {
    const groups: DiagnosticGroup[] = [];
    if (home) groups.push({ title: `config.toml (${home.config.path})`, diagnostics: home.config.diagnostics });
    for (const section of sections) {
      if (section.list) groups.push({ title: `Root ${section.root.version} (${section.root.path})`, diagnostics: section.list.diagnostics });
    }
    let severity: Diagnostic['severity'] | null = null;
    let count = 0;
    for (const diagnostic of groups.flatMap((group) => group.diagnostics)) {
      count += 1;
      if (!severity || rank[diagnostic.severity] > rank[severity]) severity = diagnostic.severity;
    }
    return { groups, count, severity };
  }, [home, sections]);
}
