// The memory doctor: the files' findings (off thread) and the citations' (sessions), joined into one report.
import { isAbsolute } from 'node:path';
import type { DoctorOptions, DoctorReport, Finding, FindingKind, StaleReason } from '../../../shared/doctor';
import { findingKinds } from '../../../shared/doctor';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { UsageReport } from '../../../shared/provenance';
import { StudioFailure } from '../platform/errors';
import { collectUsage } from '../sessions';
import { runInThread, runTask } from '../runtime/pool';
import type { Analysis, AnalyzeInput } from './analyze';
import type { DoctorIndex } from './indexed-roots';
import { judgedForStaleness, notCitedReason, staleFinding } from './stale';
import { groupStale, type StaleItem } from './stale-groups';

export interface DoctorRun extends DoctorOptions {
  /** Milliseconds since the epoch (tests); now by default. */
  now?: number;
  /** Where citations come from: the host's index when it keeps one (shared with lint), else the sessions read now. */
  usage?: (home: HomeInfo) => Promise<UsageReport>;
  /** Aborts the analysis on its worker when the caller is gone (a closed page, a dropped request). */
  signal?: AbortSignal;
  /** The host's refreshed index (the CLI's, the keeper's): the files' part is read from it where it keeps it. */
  index?: DoctorIndex;
  /** Analyse on this thread: a one-command process whose warm run is mostly what the index keeps (no worker to start). */
  inThread?: boolean;
}

const ORDER: Record<FindingKind, number> = { oversize: 0, duplicate: 1, 'agents-overlap': 2, stale: 3 };

function rootsOf(home: HomeInfo, version: MemoryVersion | undefined): AnalyzeInput['roots'] {
  const present = home.roots.filter((r) => r.exists && !r.isSymlink);
  if (version) {
    const root = present.find((r) => r.version === version);
    if (!root)
      throw new StudioFailure('NotFound', `${home.codexHome} has no ${version} memory folder.`, {
        hint: 'Pick the version whose folder exists (memories/ is v1, memories_v2/ is v2).',
      });
    return [{ version, path: root.path }];
  }
  if (present.length === 0)
    throw new StudioFailure('NotFound', `${home.codexHome} has no memory folder (memories/ or memories_v2/) to check.`, {
      hint: 'Point --codex-home at the Codex home that holds your memories, or open the demo.',
    });
  return present.map((r) => ({ version: r.version, path: r.path }));
}

function checkProjects(projects: readonly string[]): string[] {
  for (const p of projects) {
    if (!isAbsolute(p))
      throw new StudioFailure('Invalid', `The project folder "${p}" is not an absolute path.`, {
        hint: 'Give the full path of the project folder.',
      });
  }
  return [...projects];
}

function staleFindings(analysis: Analysis, usage: UsageReport | null, days: number, nowSec: number): StaleItem[] {
  const out: StaleItem[] = [];
  for (const entry of analysis.entries.filter(judgedForStaleness)) {
    const reasons: StaleReason[] = [...(analysis.fileStale[entry.id] ?? [])];
    const notCited = usage ? notCitedReason(entry, usage, days, nowSec) : null;
    if (notCited) reasons.push(notCited);
    if (reasons.length > 0) out.push({ finding: staleFinding(entry, reasons), entry, reasons });
  }
  return out;
}

function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      ORDER[a.kind] - ORDER[b.kind] ||
      a.version.localeCompare(b.version) ||
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.id.localeCompare(b.id),
  );
}

/** Runs every check on the home's roots (or the one version asked for); reads only, writes nothing. */
export async function runDoctor(home: HomeInfo, options: DoctorRun = {}): Promise<DoctorReport> {
  const started = performance.now();
  const now = options.now ?? Date.now();
  const input: AnalyzeInput = {
    codexHome: home.codexHome,
    roots: rootsOf(home, options.version),
    projects: checkProjects(options.projects ?? []),
    ...(options.index ? { index: options.index } : {}),
  };
  const notes: string[] = [];
  const [analysis, usage] = await Promise.all([
    (options.inThread ? runInThread : runTask)('doctor-analyze', input, { signal: options.signal }),
    (options.usage ?? collectUsage)(home).catch((error: unknown) => {
      notes.push(`Citations could not be read, so "never cited" is not judged: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }),
  ]);
  const staleDays = options.staleDays ?? home.config.memories.maxUnusedDays;
  const stale = staleFindings(analysis, usage, staleDays, Math.floor(now / 1000));
  const findings = [...analysis.findings, ...stale.map((s) => s.finding)];
  const sorted = sortFindings(findings);
  const order = new Map(sorted.map((f, i) => [f.id, i]));
  const staleGroups = groupStale([...stale].sort((a, b) => (order.get(a.finding.id) ?? 0) - (order.get(b.finding.id) ?? 0)));
  const named = new Set(findings.filter((f) => f.kind !== 'stale').flatMap((f) => f.entryIds));
  const counts = Object.fromEntries(findingKinds.map((k) => [k, findings.filter((f) => f.kind === k).length])) as Record<
    FindingKind,
    number
  >;
  return {
    codexHome: home.codexHome,
    generatedAt: now,
    staleDays,
    roots: analysis.roots,
    entries: analysis.entries.filter((e) => named.has(e.id)),
    projects: analysis.projects,
    findings: sorted,
    staleGroups,
    counts,
    notes: [...analysis.notes, ...notes, ...(usage?.problems ?? []).map((p) => p.message)],
    elapsedMs: Math.round(performance.now() - started),
  };
}
