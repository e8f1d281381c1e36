// The coverage ledger: every session of Codex's thread catalog with its stage in the memory pipeline of one version.
import type { CoverageInput, CoverageReason, CoverageReport, CoverageStage, CoverageThread } from '../../../shared/coverage';
import { CoverageReasonSchema, CoverageStageSchema } from '../../../shared/coverage';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { OpenOptions } from '../codex-db/open-db';
import { activeVersions } from '../codex-db/stores';
import { requiredTime } from '../codex-db/time';
import { claimOrder } from './claim';
import { consolidationOf } from './consolidation';
import { judgeThread, type JudgeContext } from './judge';
import { listPresenceFiles, readPresence } from './presence';
import { readCoverageSnapshot } from './read';

/** Sessions whose window closes within this many seconds are listed as aging out. */
const AGING_OUT_SECONDS = 7 * 86_400;

/** Why Codex extracts nothing into this version now, said after each claim it would otherwise make; null when it runs. */
function pipelineNote(home: HomeInfo, version: MemoryVersion): string | null {
  const config = home.config;
  if (config.featureMemories !== true)
    return 'But the memories feature is not on in config.toml ([features] memories = true), so Codex runs no extraction at all.';
  if (!config.memories.generateMemories) return 'But generate_memories = false in config.toml: Codex extracts nothing.';
  const active = activeVersions(home);
  if (!active.includes(version))
    return `But Codex writes ${active.join(' and ')} memories only (memories.version), so nothing is extracted into ${version}.`;
  return null;
}

function zeros<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

const byUpdatedDesc = (a: CoverageThread, b: CoverageThread) =>
  (b.updatedAt?.seconds ?? -Infinity) - (a.updatedAt?.seconds ?? -Infinity) ||
  (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0);

/** Waiting and failed sessions whose window closes within seven days, soonest first. */
function agingOut(threads: readonly CoverageThread[], nowSec: number): string[] {
  return threads
    .filter((t) => (t.stage === 'waiting' || t.stage === 'failed') && t.agesOutAt !== null)
    .filter((t) => {
      const closes = t.agesOutAt?.seconds ?? 0;
      return closes > nowSec && closes <= nowSec + AGING_OUT_SECONDS;
    })
    .sort((a, b) => (a.agesOutAt?.seconds ?? 0) - (b.agesOutAt?.seconds ?? 0) || (a.threadId < b.threadId ? -1 : 1))
    .map((t) => t.threadId);
}

/**
 * Every session Codex knows (`state_5.sqlite` threads, active within `sinceDays` when given) and how far the memory
 * pipeline of `input.version` (default: the version Codex writes per config.toml) took it, judged as Codex's phase 1
 * judges it at `nowSec`. Reads each DB once and writes nothing; a missing, locked or damaged DB is a problem in the
 * report, never a throw.
 */
export async function buildCoverage(
  home: HomeInfo,
  input: CoverageInput,
  nowSec: number,
  options: OpenOptions = {},
): Promise<CoverageReport> {
  const version = input.version ?? home.config.memories.version;
  const config = home.config.memories;
  // The root's listing runs while the DBs are read.
  const files = listPresenceFiles(home, version, nowSec);
  const snapshot = await readCoverageSnapshot(home, version, nowSec, options);
  // The claim order is Codex's over the whole catalog; the `since` filter only narrows what is listed.
  const order = claimOrder(snapshot.threads, snapshot.outputs, snapshot.jobs, config, nowSec);
  const since = input.sinceDays === undefined ? null : nowSec - input.sinceDays * 86_400;
  const listed = since === null ? snapshot.threads : snapshot.threads.filter((t) => t.updatedAt !== null && t.updatedAt >= since);
  const ctx: JudgeContext = {
    version,
    config,
    nowSec,
    outputs: snapshot.outputs,
    jobs: snapshot.jobs,
    order,
    pipelineNote: pipelineNote(home, version),
  };
  const presence = await readPresence(home, version, await files, listed, snapshot.outputs);
  const threads: CoverageThread[] = listed
    .map((t) => ({ ...judgeThread(t, ctx), presence: presence.get(t.id) ?? { rolloutSummary: null, namedIn: [] } }))
    .sort(byUpdatedDesc);
  const totals = zeros<CoverageStage>(CoverageStageSchema.options);
  const notEligible = zeros<CoverageReason>(CoverageReasonSchema.options);
  for (const t of threads) {
    totals[t.stage]++;
    if (t.stage === 'not-eligible' && t.reason) notEligible[t.reason]++;
  }
  return {
    version,
    generatedAt: requiredTime(nowSec),
    window: {
      maxRolloutAgeDays: config.maxRolloutAgeDays,
      minRolloutIdleHours: config.minRolloutIdleHours,
      maxRolloutsPerStartup: config.maxRolloutsPerStartup,
    },
    sinceDays: input.sinceDays ?? null,
    totals,
    notEligible,
    agingOut: agingOut(threads, nowSec),
    threads,
    consolidation: consolidationOf(snapshot.global, version, nowSec),
    problems: snapshot.problems,
  };
}

/** The ledger as a pool task (its DB reads are synchronous: 100-300 ms on a heavy home). */
export function coverageTask(task: { home: HomeInfo; input: CoverageInput; nowSec?: number }): Promise<CoverageReport> {
  return buildCoverage(task.home, task.input, task.nowSec ?? Math.floor(Date.now() / 1000));
}
