// Codex's global Phase 2 lease as a manual consolidation sees it: only a live lease held by someone else refuses a run.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { LeaseView } from '../../../shared/consolidate';
import type { GlobalJob } from '../../../shared/health';
import { deadInThisNamespace, parseStudioWorker } from '../platform/host-identity';
import { STUDIO_WORKER_PREFIX, studioWorkerId } from '../lease/lease-row';
import { openCodexStores, readGlobalJob } from '../codex-db';

const NOT_BINDING = "it paces Codex's own automatic runs and does not block a manual run";

function pacingNotes(job: GlobalJob, nowSec: number): string[] {
  const notes: string[] = [];
  if (job.cooldownActive && job.cooldownEndsAt)
    notes.push(`Codex's 6 h cooldown after its last success runs until ${job.cooldownEndsAt.iso}; ${NOT_BINDING}.`);
  if (job.retryAt && job.retryAt.seconds > nowSec)
    notes.push(
      `Codex's retry backoff${job.lastError ? ` after "${job.lastError}"` : ''} runs until ${job.retryAt.iso}; ${NOT_BINDING} either.`,
    );
  return notes;
}

/** The lease view from the global job row (null: Codex has not created it yet). */
export function leaseViewOf(job: GlobalJob | null, version: MemoryVersion, nowSec: number): LeaseView {
  if (!job) {
    return {
      state: 'free',
      holder: null,
      leaseUntil: null,
      cooldownUntil: null,
      retryAt: null,
      status: null,
      message: `No ${version} consolidation has run yet, so the lease is free: a run can start now.`,
    };
  }
  const cooldownUntil = job.cooldownActive && job.cooldownEndsAt ? job.cooldownEndsAt.seconds : null;
  const base = {
    holder: job.workerId,
    leaseUntil: job.leaseUntil?.seconds ?? null,
    cooldownUntil,
    retryAt: job.retryAt?.seconds ?? null,
    status: job.status,
  };
  if (job.leaseLive && job.leaseUntil) {
    if ((job.workerId ?? '').startsWith(STUDIO_WORKER_PREFIX)) {
      const holder = parseStudioWorker(job.workerId);
      if (holder && deadInThisNamespace(holder.pid, holder.namespace)) {
        const message = `Memory Studio process ${holder.pid}, which is no longer running, left the ${version} lease held until ${job.leaseUntil.iso}. A run started here takes it over at once, and Codex's row is put back as that process found it; otherwise the next Memory Studio command does that.`;
        return { ...base, state: 'held-by-dead-studio', message };
      }
      const ours = job.workerId === studioWorkerId();
      const message = ours
        ? `This Memory Studio holds the ${version} lease (a run, an Apply, or a consolidation result waiting in the review) until ${job.leaseUntil.iso}. A new run supersedes that hold; Apply here works under it.`
        : `Another Memory Studio process (${job.workerId}) holds the ${version} lease until ${job.leaseUntil.iso}; apply or reject its consolidation there, or wait for it to finish.`;
      return { ...base, state: 'held-by-studio', message };
    }
    return {
      ...base,
      state: 'held',
      message: `Codex is consolidating ${version} memories right now (lease held by ${job.workerId ?? 'an unnamed worker'} until ${job.leaseUntil.iso}); a run can start after that.`,
    };
  }
  const expired = job.status === 'running' ? " (the last holder's lease has expired)" : '';
  return {
    ...base,
    state: 'free',
    message: [`The ${version} lease is free${expired}: a run can start now.`, ...pacingNotes(job, nowSec)].join(' '),
  };
}

/** The columns our claim writes: without any of them Memory Studio cannot take Codex's lock. */
const LEASE_COLUMNS = ['status', 'worker_id', 'ownership_token', 'lease_until', 'retry_at', 'finished_at'];

function noDb(message: string): LeaseView {
  return { state: 'no-db', holder: null, leaseUntil: null, cooldownUntil: null, retryAt: null, status: null, message };
}

/**
 * Reads the global job of `version`'s memory DB read-only; `no-db` when there is no usable jobs table. Only a DB that
 * does not exist has nobody to coordinate with; one that cannot be read (damaged, locked, empty, another schema)
 * refuses a run and an Apply, which say so with the file.
 */
export async function readLeaseView(home: HomeInfo, version: MemoryVersion, nowSec: number): Promise<LeaseView> {
  const stores = await openCodexStores(home);
  try {
    const store = stores.versions.find((v) => v.version === version);
    const refused = `Memory Studio cannot take Codex's lock in it, so a ${version} run (and an Apply) is refused until it is fixed.`;
    if (!store?.handle || !store.jobs) {
      const problem = stores.problems.find((p) => p.db === store?.dbName);
      if (!store?.read.exists || problem?.kind === 'missing')
        return noDb(
          `${problem ? problem.message : `There is no ${version} memory DB yet.`} Codex has no lease to respect, so a run can start; it has no stage-1 inputs either.`,
        );
      return noDb(`${problem ? problem.message : `The ${version} memory DB has no jobs table.`} ${refused}`);
    }
    const lacking = LEASE_COLUMNS.filter((c) => store.jobs?.missing.includes(c));
    if (lacking.length > 0) return noDb(`${store.read.path} has a jobs table without the columns ${lacking.join(', ')}. ${refused}`);
    return leaseViewOf(readGlobalJob(store.handle.db, store.jobs, nowSec), version, nowSec);
  } finally {
    stores.close();
  }
}
