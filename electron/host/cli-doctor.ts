// `memory-studio doctor` and `promote`: the memory doctor's findings, and each fix (or a promotion) as a proposal.
import { parseArgs } from 'node:util';
import type { DoctorEntry, DoctorReport, Finding, FindingKind } from '../../shared/doctor';
import { DoctorFileSchema, ENTRY_ID, findingKinds, STALE_GROUP_ID } from '../../shared/doctor';
import type { MemoryVersion } from '../../shared/domain';
import type { Proposal } from '../../shared/review';
import { StudioFailure } from '../core/platform/errors';
import { CliUsageError, HOME_HINT, requireFolder } from './cli-errors';
import { printJson, reportingFailures } from './cli-output';
import { printProposal } from './cli-diff';
import type { StudioService } from '../core/service/service';
import { cliCodexHome, cliPath, requestIo } from './cli-io';
import { proposalFlags, followUp, type RunFlags } from './cli-follow-up';

/** The service on the named home, once it is known to exist (a missing one is one line, as in every command). */
async function homeService(values: { 'codex-home'?: string; 'data-dir'?: string }): Promise<StudioService> {
  requireFolder(cliCodexHome(values['codex-home']).codexHome, HOME_HINT);
  // Loaded only when a command needs it: the report alone answers from the home's index without the service.
  return (await import('./cli-service.js')).openService(values);
}

type DoctorRunOptions = { version?: MemoryVersion; projects: string[]; staleDays?: number };

/**
 * The report from the home's index (the keeper's when it answers, else opened and refreshed as inspect does): the same
 * report as `doctor.run`, which reads every file, and answers when the index is off (having said why).
 */
async function doctorReport(values: { 'codex-home'?: string; 'data-dir'?: string }, run: DoctorRunOptions): Promise<DoctorReport> {
  requireFolder(cliCodexHome(values['codex-home']).codexHome, HOME_HINT);
  const cli = await (await import('./cli-index.js')).openCliIndex(values, { parts: 'all' });
  try {
    if (cli.indexed) {
      const { commandIndexPath } = await import('../core/service/use-cases/command-index.js');
      const { doctorFromIndex } = await import('../core/service/use-cases/doctor-report.js');
      // Alone, the command only waits: analysing here spares starting a worker and copying the analysis back (about
      // 14% of a warm run's CPU on the heavy home). `keep` keeps its warm pool worker, and its thread free for events;
      // the app's keeper, on a thread of its own, has no pool there and analyses in that thread.
      const inThread = !requestIo();
      return await doctorFromIndex(cli.indexed, commandIndexPath(cli.dataDir, cli.home), { ...run, inThread });
    }
  } finally {
    cli.close();
  }
  const service = await homeService(values);
  try {
    return await service.call('doctor.run', run);
  } finally {
    service.dispose();
  }
}

const options = {
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  version: { type: 'string' },
  project: { type: 'string', multiple: true },
  'stale-days': { type: 'string' },
  kind: { type: 'string' },
  fix: { type: 'string' },
  json: { type: 'boolean' },
} as const;

function version(value: string | undefined): MemoryVersion | undefined {
  if (value === undefined || value === 'v1' || value === 'v2') return value;
  throw new CliUsageError(`--version must be v1 or v2, not "${value}".`);
}

function staleDays(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new CliUsageError(`--stale-days must be a whole number of days from 1 to 3650, not "${value}".`);
  return days;
}

function kinds(value: string | undefined): Set<FindingKind> | null {
  if (value === undefined) return null;
  const asked = value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = asked.filter((k) => !(findingKinds as readonly string[]).includes(k));
  if (unknown.length > 0)
    throw new CliUsageError(`--kind takes ${findingKinds.join(', ')} (comma-separated), not "${unknown.join(', ')}".`);
  return new Set(asked as FindingKind[]);
}

function evidenceLines(finding: Finding, entries: ReadonlyMap<string, DoctorEntry>): string[] {
  const e = finding.evidence;
  switch (e.kind) {
    case 'duplicate':
      return e.members.slice(0, 3).flatMap((m) => {
        const entry = entries.get(m.entryId);
        const head = `    ${finding.file}:${entry?.line ?? '?'} (similarity ${m.similarity.toFixed(2)}, ${m.sharedCount} of ${m.lineCount} lines shared)`;
        return [head, ...m.sharedLines.slice(0, 2).map((l) => `      ${l.line}: ${l.text}`)];
      });
    case 'agents-overlap':
      return e.matches.flatMap((m) => [
        `    ${finding.file}:${m.memoryLine}  ${m.memoryText}`,
        `    ${e.ruleFile}:${m.ruleLine}  ${m.ruleText}  (${m.relation})`,
      ]);
    case 'oversize':
      return e.cut.slice(0, 8).map((c) => `    cut: ${finding.file}:${c.line}-${c.endLine}  ${c.title}${c.partial ? ' (partly)' : ''}`);
    case 'stale':
      return [];
  }
}

function printReport(report: DoctorReport, only: Set<FindingKind> | null, run: RunFlags): void {
  const roots = report.roots.map((r) => `${r.version} ${r.entries} entries`).join(', ');
  const counts = findingKinds.map((k) => `${report.counts[k] ?? 0} ${k}`).join(', ');
  console.log(`Memory doctor: ${report.codexHome} (${roots}): ${counts} (${(report.elapsedMs / 1000).toFixed(1)} s)`);
  const entries = new Map(report.entries.map((e) => [e.id, e]));
  const grouped = new Set((report.staleGroups ?? []).flatMap((g) => g.findingIds));
  for (const finding of report.findings.filter((f) => (!only || only.has(f.kind)) && !grouped.has(f.id))) {
    console.log(
      `\n${finding.kind}  ${finding.id}  ${finding.version} ${finding.file}:${finding.line}\n  ${finding.title}\n  ${finding.message}`,
    );
    for (const line of evidenceLines(finding, entries)) console.log(line);
    for (const fix of finding.fixes)
      console.log(`  fix: ${followUp(['doctor', '--fix', fix.id], run, fix.needsProject ? '--project DIR' : '')}   (${fix.label})`);
  }
  if (!only || only.has('stale')) printStaleGroups(report, run);
  for (const note of report.notes) console.log(`\nNote: ${note}`);
  const withAgents = report.projects.filter((p) => p.ruleFiles.length > 0);
  console.log(`\nProjects checked for AGENTS.md / CLAUDE.md: ${report.projects.length} (${withAgents.length} with instruction files).`);
  if (report.findings.length === 0)
    console.log('Nothing to fix: no duplicates, no overlap with AGENTS.md, nothing stale, the summary fits.');
}

/** Findings listed per stale group; the rest are in `--json` (and the app's Doctor view, expanded). */
const GROUP_SHOWN = 5;

/** Stale findings by reason and project, each group with its count, its first findings and its one bulk fix. */
function printStaleGroups(report: DoctorReport, run: RunFlags): void {
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  for (const group of report.staleGroups ?? []) {
    console.log(
      `\nstale group  ${group.id}  ${group.findingIds.length} finding${group.findingIds.length === 1 ? '' : 's'}\n  ${group.title}`,
    );
    for (const id of group.findingIds.slice(0, GROUP_SHOWN)) {
      const f = byId.get(id);
      if (f) console.log(`    ${f.id}  ${f.version} ${f.file}:${f.line}  ${f.title}`);
    }
    if (group.findingIds.length > GROUP_SHOWN)
      console.log(`    … and ${group.findingIds.length - GROUP_SHOWN} more (--json lists every one)`);
    console.log(`  fix: ${followUp(['doctor', '--fix', group.id], run)}   (${group.fixDescription})`);
  }
}

const FINDING_ID = /^(?:dup|ovl|stale|size)-[0-9a-f]{12}$/;

/** `--fix <finding id>`: a finding is not a fix; its fixes named, to paste (a fix id is the finding's id and an action). */
async function refuseFindingId(service: StudioService, run: DoctorRunOptions, findingId: string, flags: RunFlags): Promise<never> {
  const finding = (await service.call('doctor.run', run)).findings.find((f) => f.id === findingId);
  if (!finding)
    throw new CliUsageError(`${findingId} is not in the doctor's report any more: run ${followUp(['doctor'], flags)} for the current ids.`);
  if (finding.fixes.length === 0)
    throw new CliUsageError(
      `${findingId} has no fix the doctor can propose (${finding.title}); edit ${finding.version} ${finding.file}:${finding.line} by hand.`,
    );
  const fixes = finding.fixes.map((f) => `--fix ${f.id}`).join(' or ');
  throw new CliUsageError(`${findingId} is a finding, not a fix: give one of its fixes, ${fixes}.`);
}

/** `doctor`: the report; with `--fix ID`, that fix as a pending proposal (its id printed). Exit 0, or 1 on a failure. */
export async function doctorCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options });
  if (positionals.length > 0) throw new CliUsageError(`doctor takes no argument "${positionals[0]}"; give a fix with --fix ID.`);
  const projects = (values.project ?? []).map((p) => cliPath(p));
  const run = { version: version(values.version), projects, staleDays: staleDays(values['stale-days']) };
  const only = kinds(values.kind);
  return reportingFailures(values.json, async () => {
    if (!values.fix) {
      const report = await doctorReport(values, run);
      if (values.json) printJson(only ? { ...report, findings: report.findings.filter((f) => only.has(f.kind)) } : report);
      else printReport(report, only, values);
      return 0;
    }
    const service = await homeService(values);
    try {
      if (STALE_GROUP_ID.test(values.fix)) {
        printMade(values, await service.call('doctor.fixGroup', { ...run, groupId: values.fix }));
        return 0;
      }
      if (FINDING_ID.test(values.fix)) await refuseFindingId(service, run, values.fix, values);
      const proposal = await service.call('doctor.fix', { ...run, fixId: values.fix, project: projects[0] });
      printMade(values, proposal);
      return 0;
    } finally {
      service.dispose();
    }
  });
}

function printMade(values: RunFlags & { json?: boolean }, proposal: Proposal): void {
  if (values.json) return printJson(proposal);
  console.log(proposal.id);
  printProposal(proposal);
  console.log('Review it in the app, or here:');
  console.log(`  ${followUp(['show', proposal.id], proposalFlags(values))}`);
  console.log(`  ${followUp(['apply', proposal.id, '--accept', 'all'], proposalFlags(values))}`);
}

/** `promote ENTRY_ID | --file F --line N`: an entry into its project's AGENTS.md (the memory entry removed in the same proposal). */
export async function promoteCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...options, file: { type: 'string' }, line: { type: 'string' } },
  });
  const entryId = positionals[0];
  if (positionals.length > 1 || (entryId === undefined) === (values.line === undefined)) {
    throw new CliUsageError(
      'promote needs one entry: an entry id from "memory-studio doctor --json" (m-…), or --file MEMORY.md|memory_summary.md --line N.',
    );
  }
  if (entryId !== undefined && !ENTRY_ID.test(entryId))
    throw new CliUsageError(`"${entryId}" is not an entry id (they look like m-1a2b3c4d5e6f).`);
  const line = values.line === undefined ? undefined : Number(values.line);
  if (line !== undefined && (!Number.isInteger(line) || line < 1))
    throw new CliUsageError(`--line must be a line number, not "${values.line}".`);
  const file = DoctorFileSchema.safeParse(values.file ?? 'MEMORY.md');
  if (!file.success) throw new CliUsageError(`--file must be MEMORY.md or memory_summary.md, not "${values.file}".`);
  return reportingFailures(values.json, async () => {
    const service = await homeService(values);
    try {
      const asked = version(values.version) ?? (await service.call('home.get', {})).config.memories.version;
      const project = values.project?.[0] === undefined ? undefined : cliPath(values.project[0]);
      const target = entryId ? { entryId } : { line: line as number };
      if (file.data === 'raw_memories.md')
        throw new StudioFailure('Invalid', "Raw memories are rebuilt from Codex's DB at every consolidation, so they cannot be promoted.");
      const proposal = await service.call('doctor.promote', { version: asked, file: file.data, ...target, project });
      printMade(values, proposal);
      return 0;
    } finally {
      service.dispose();
    }
  });
}
