// `memory-studio inspect`: one overview of a Codex home (files, lint, budget, usage, pipeline health).
import type { HomeInfo, MemoryVersion } from '../../shared/domain';
import { DEFAULT_READ_CAP_BYTES, editorCapNote, type IndexedOverview } from '../core/service/use-cases/overview';
import type { StudioService } from '../core/service/service';
import { withCliPrefix } from './cli-follow-up';

/** Where the overview's answers come from: the index (the usual case) or the app's channels (when the index is off). */
export interface OverviewSource extends IndexedOverview {
  home: HomeInfo;
}

export async function serviceSource(service: StudioService): Promise<OverviewSource> {
  return {
    home: await service.call('home.get', {}),
    list: (version) => service.call('workspace.list', { version }),
    lint: (version) => service.call('inspect.lint', { version }),
    budget: (version) => service.call('inspect.budget', { version }),
    rollouts: async (version) => {
      const table = await service.call('inspect.rollouts', { version });
      return {
        rows: table.rows.length,
        cited: table.rows.filter((r) => r.citations > 0).length,
        unused: table.rows.filter((r) => r.citations === 0 && !r.dbUsageCount).length,
      };
    },
    health: () => service.call('inspect.health', {}),
  };
}

export async function buildOverview(source: OverviewSource, versions: MemoryVersion[], started = performance.now()) {
  const home = source.home;
  const healthRead = source.health();
  const roots = [];
  // One root after the other on purpose: the steps share what the first fills (usage, heads), and health runs meanwhile.
  for (const version of versions) {
    const list = await source.list(version);
    const lint = await source.lint(version);
    const budget = await source.budget(version);
    const rollouts = await source.rollouts(version);
    roots.push({
      version,
      path: list.root,
      files: list.files.length,
      /** What lint reads of them: the Markdown files (not symlinks, not other resources). */
      markdownFiles: list.files.filter((f) => !f.symlink && f.path.endsWith('.md')).length,
      bytes: list.totalBytes,
      counts: list.counts,
      lint: lint.counts,
      budget: {
        estimatedTokens: budget.estimatedTokens,
        o200kTokens: budget.o200kTokens,
        limitTokens: budget.limitTokens,
        truncated: budget.truncated,
        hiddenLines: budget.removed ? { start: budget.removed.startLine, end: budget.removed.endLine } : null,
        summaryBytes: budget.summaryBytes,
        /** False past the editor's 16 MiB: the budget is still Codex's (it reads the whole file), the Files view cannot show it. */
        opensInEditor: budget.summaryBytes <= DEFAULT_READ_CAP_BYTES,
      },
      rolloutSummaries: rollouts.rows,
      cited: rollouts.cited,
      /** Neither cited in a session nor counted as used in Codex's DB. */
      unused: rollouts.unused,
    });
  }
  const health = await healthRead;
  return {
    codexHome: home.codexHome,
    featureMemories: home.config.featureMemories,
    /** The version Codex uses for new sessions, and whether config.toml says so or it is Codex's default (v2). */
    memoryVersion: { version: home.config.memories.version, source: home.config.memories.versionSource },
    activeVersions: health.config.activeVersions,
    configDiagnostics: home.config.diagnostics,
    roots,
    health: {
      threads: health.threads,
      versions: health.versions.map((v) => ({
        version: v.version,
        active: v.active,
        stage1: v.stage1Jobs
          ? {
              byStatus: v.stage1Jobs.byStatus,
              failing: v.stage1Jobs.issues.map((i) => ({
                threadId: i.threadId,
                status: i.status,
                lastError: i.lastError,
                retryAt: i.retryAt?.iso ?? null,
              })),
            }
          : null,
        globalJob: v.globalJob
          ? {
              status: v.globalJob.status,
              leaseLive: v.globalJob.leaseLive,
              cooldownActive: v.globalJob.cooldownActive,
              cooldownEndsAt: v.globalJob.cooldownEndsAt?.iso ?? null,
              lastError: v.globalJob.lastError,
            }
          : null,
        claim: v.globalClaim,
        outputs: v.outputs
          ? { total: v.outputs.total, selectedForPhase2: v.outputs.selectedForPhase2, stale: v.outputs.staleByMaxUnusedDays }
          : null,
        phase1: v.phase1,
      })),
      problems: health.problems,
      codex: health.codex,
    },
    elapsedMs: Math.round(performance.now() - started),
  };
}

export type Overview = Awaited<ReturnType<typeof buildOverview>>;

/** The overview as the lines `inspect` prints (a line may start with a blank line, as printed). */
export function overviewLines(o: Overview): string[] {
  const lines: string[] = [];
  const print = (line: string) => {
    lines.push(line);
  };
  print(
    `Codex home ${o.codexHome} (memories feature: ${o.featureMemories === null ? 'not set, so off' : o.featureMemories ? 'on' : 'off'})`,
  );
  print(
    `Codex uses ${o.memoryVersion.version} for new sessions (${o.memoryVersion.source === 'config' ? 'memories.version in config.toml' : 'memories.version not set: Codex’s default'}).`,
  );
  for (const d of o.configDiagnostics.filter((d) => d.severity !== 'info')) print(`  config.toml: ${d.message}`);
  for (const r of o.roots) {
    print(
      `\n${r.version}  ${r.path}: ${r.files} files (${r.markdownFiles} Markdown, which lint reads), ${(r.bytes / 1024).toFixed(0)} KiB`,
    );
    if (r.files === 0)
      print(
        '  empty: no memory files (as "codex debug clear-memories" or a memory reset leaves it, or not consolidated yet); the next session start rebuilds it.',
      );
    print(`  lint: ${r.lint.error} errors, ${r.lint.warning} warnings, ${r.lint.info} notes`);
    const hidden = r.budget.hiddenLines
      ? `; the next session does not see lines ${r.budget.hiddenLines.start}–${r.budget.hiddenLines.end}`
      : '';
    print(
      `  summary: ${r.budget.estimatedTokens} of ${r.budget.limitTokens} tokens by Codex's estimate (${r.budget.o200kTokens} o200k)${hidden}`,
    );
    if (!r.budget.opensInEditor) print(`  ${editorCapNote(r.budget.summaryBytes)}`);
    print(`  rollout summaries: ${r.rolloutSummaries}; cited in sessions: ${r.cited}; never used: ${r.unused}`);
  }
  for (const v of o.health.versions) {
    const s = v.stage1?.byStatus;
    print(
      `\npipeline ${v.version}${v.active ? '' : ' (not active)'}: stage-1 ${s ? `${s.done} done, ${s.pending} pending, ${s.running} running, ${s.error} failed` : 'unknown'}`,
    );
    for (const f of v.stage1?.failing.slice(0, 5) ?? [])
      print(`  failed ${f.threadId}: ${f.lastError ?? 'no error text'}${f.retryAt ? ` (retry at ${f.retryAt})` : ''}`);
    if (v.globalJob)
      print(
        `  consolidation: ${v.globalJob.status}${v.globalJob.leaseLive ? ', running now' : ''}${v.globalJob.cooldownActive && v.globalJob.cooldownEndsAt ? `, cooldown until ${v.globalJob.cooldownEndsAt}` : ''}${v.globalJob.lastError ? `, last error: ${v.globalJob.lastError}` : ''}`,
      );
    if (v.claim) print(`  next consolidation: ${v.claim.reason}`);
    if (v.phase1 && v.active)
      print(
        `  next session start: phase 1 extracts ${v.phase1.nextStartClaims} of ${v.phase1.eligible} waiting thread(s) (max_rollouts_per_startup = ${v.phase1.perStartup})`,
      );
  }
  const release = o.health.codex;
  print(`\ncodex release: ${release.summary}`);
  if (release.warning) print(`  warning: ${release.warning}`);
  for (const f of release.otherDbFiles) print(`\n${f.path}: ${f.note}`);
  for (const p of o.health.problems) print(`\n${p.message}${p.hint ? ` ${withCliPrefix(p.hint)}` : ''}`);
  print(`\n(${o.elapsedMs} ms)`);
  return lines;
}

export function printOverview(o: Overview): void {
  for (const line of overviewLines(o)) console.log(line);
}
