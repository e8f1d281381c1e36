// Collects config.toml and each root's lint into titled groups, with a count and the worst severity: the CLI's numbers.
import type { Diagnostic, HomeInfo } from '../../../shared/domain';
import type { LintReport } from '../../../shared/lint';
import { useStudioQueries } from '../api/studio-query';
import type { SidebarSection } from '../sidebar/sidebar';
import type { DiagnosticGroup } from './diagnostics-panel';

const rank: Record<Diagnostic['severity'], number> = { info: 1, warning: 2, error: 3 };

export interface DiagnosticsSummary {
  groups: DiagnosticGroup[];
  count: number;
  severity: Diagnostic['severity'] | null;
  /** Roots whose lint is still running (the count covers the others). */
  pending: number;
}

/** A root's lint as panel rows: one per diagnostic, with its file and line. */
function lintDiagnostics(report: LintReport): Diagnostic[] {
  return report.files.flatMap((file) =>
    file.diagnostics.map((d) => ({ severity: d.severity, rule: d.rule, message: d.message, path: file.path, line: d.line })),
  );
}

/**
 * What `memory-studio inspect` and `lint` report for this home: config.toml's diagnostics and each root's whole lint
 * (Codex's validators, the templates, pointers, secrets, the budget cut, unreadable and special files).
 */
export function useDiagnostics(home: HomeInfo | undefined, sections: readonly SidebarSection[]): DiagnosticsSummary {
  const ready = sections.filter((s) => s.list);
  const reports = useStudioQueries(
    'inspect.lint',
    ready.map((s) => ({ version: s.root.version })),
    (lints) => lints.map((q) => q.data),
  );
  // Cheap enough to redo on each render (a few thousand rows at most); memoising on a list of query results is not.
  const groups: DiagnosticGroup[] = [];
  if (home) groups.push({ title: `config.toml (${home.config.path})`, diagnostics: home.config.diagnostics });
  ready.forEach((section, index) => {
    const report = reports[index];
    if (report) groups.push({ title: `Root ${section.root.version} (${section.root.path})`, diagnostics: lintDiagnostics(report) });
  });
  let severity: Diagnostic['severity'] | null = null;
  let count = 0;
  for (const diagnostic of groups.flatMap((group) => group.diagnostics)) {
    count += 1;
    if (!severity || rank[diagnostic.severity] > rank[severity]) severity = diagnostic.severity;
  }
  return { groups, count, severity, pending: ready.length - reports.filter(Boolean).length };
}
