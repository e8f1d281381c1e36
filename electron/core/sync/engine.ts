// Sync through a git remote: init, push (publish this owner's folder), pull (others' folders as a reviewed import), status.
// The clone in the data folder holds nothing of its own: every push rewrites this owner's folder from the memory root,
// so the clone is reset to the remote before each step and recreated when damaged.
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { Proposal } from '../../../shared/review';
import { earlierImportsOf } from '../import/earlier';
import { userHome } from '../import/sources';
import { cancelledFailure, StudioFailure } from '../platform/errors';
import { parseRecord } from '../platform/record-json';
import type { StudioDb } from '../studio-db';
import {
  arrivalKey,
  declinedArrival,
  holdsAlready,
  pendingArrival,
  readTargets,
  planArrivals,
  proposeArrivals,
  sameArrival,
  supersede,
  type GoneCheck,
  type TargetStates,
} from './arrive';
import { createClone, head, prepareClone, REMOTE_BRANCH } from './clone';
import { commitPublication, sameAsPublished, treeDiffers, writePublication } from './folder';
import { gitFailure, isNonFastForward, runSyncGit } from './git';
import { listOwners, ManifestSchema, readArrival, type Arrival } from './manifest';
import { openCleanScans } from './scan-cache';
import { collectPublication, readRoot, type HeldBack } from './publish';
import {
  checkOwnerName,
  checkRemoteUrl,
  defaultMachineName,
  readSettings,
  requireSettings,
  SYNC_BRANCH,
  syncPaths,
  takeSyncLock,
  writeSettings,
  type SyncPaths,
  type SyncSettings,
} from './state';

export interface SyncStep {
  signal?: AbortSignal;
  /** Progress in words ("Fetching from …"), for a CLI's stderr or the app's progress line. */
  progress?: (line: string) => void;
  now?: number;
}

export interface InitInput {
  remote: string;
  machine?: string;
  person?: string;
  scopeProject?: string | null;
  /** The folder on the remote is this machine's own from before (a reinstall, a new data folder): publish into it. */
  takeOver?: boolean;
}

/** How many times a push refetches and rewrites after another machine pushed first. */
const PUSH_ATTEMPTS = 5;

function ownerOf(input: InitInput): string {
  if (input.person !== undefined) return `people/${checkOwnerName(input.person, 'person')}`;
  return `machines/${checkOwnerName(input.machine ?? defaultMachineName(), 'machine')}`;
}

/**
 * Two machines with the same name would overwrite each other's folder: a name the remote already holds is refused
 * unless this data folder published there before, or the person says it is this machine's own (`takeOver`).
 */
async function refuseTakenName(paths: SyncPaths, owner: string, remote: string, before: SyncSettings | null): Promise<void> {
  // Ours: this data folder pushed under that name to this same remote (now, or before a rename).
  const ours =
    before !== null &&
    before.remote === remote &&
    ((before.owner === owner && before.lastPush !== null) || before.formerOwners.includes(owner));
  if (ours || !(await lstat(join(paths.clone, ...owner.split('/'))).catch(() => null))) return;
  // Left as it was found: the next step recreates the clone for the remote the settings still name.
  await rm(paths.clone, { recursive: true, force: true });
  const flag = owner.startsWith('people/') ? '--person' : '--machine';
  throw new StudioFailure('Conflict', `${owner} on ${remote} already holds another machine's memory; nothing was set up.`, {
    hint: `Choose another name (${flag} NAME), or, if that folder is this machine's own from before (a reinstall), run sync init again with --take-over.`,
  });
}

export async function syncInit(dataDir: string, input: InitInput, step: SyncStep = {}): Promise<SyncSettings> {
  const remote = checkRemoteUrl(input.remote);
  const owner = ownerOf(input);
  const paths = syncPaths(dataDir);
  const release = await takeSyncLock(paths, dataDir);
  try {
    const before = await readSettings(paths).catch(() => null);
    const same = before && before.remote === remote && before.owner === owner;
    // This data folder's earlier folder on the same remote, if it ever pushed there, is its own: never pulled back
    // under the new name. A name it never published under stays another machine's to use.
    const pushedBefore = before !== null && before.remote === remote && before.lastPush !== null && before.owner !== owner;
    const former = before && before.remote === remote ? [...before.formerOwners, ...(pushedBefore ? [before.owner] : [])] : [];
    const settings: SyncSettings = {
      remote,
      owner,
      scopeProject: input.scopeProject ?? null,
      createdAt: same ? before.createdAt : (step.now ?? Date.now()),
      formerOwners: [...new Set(former)].filter((o) => o !== owner),
      lastPush: same ? before.lastPush : null,
      lastPull: same ? before.lastPull : null,
    };
    await createClone(paths, remote);
    // Proves the remote answers before anything is recorded.
    await prepareClone(paths, settings, step);
    if (!input.takeOver) await refuseTakenName(paths, owner, remote, before);
    await writeSettings(paths, settings);
    return settings;
  } finally {
    await release();
  }
}

export interface PushResult {
  remote: string;
  owner: string;
  version: MemoryVersion;
  published: number;
  heldBack: HeldBack[];
  leftOut: number;
  /** False when the remote already held exactly this publication. */
  changed: boolean;
  commit: string | null;
  /** Fetch-and-retry rounds after another machine pushed first. */
  retries: number;
}

export async function syncPush(home: HomeInfo, dataDir: string, step: SyncStep = {}): Promise<PushResult> {
  const paths = syncPaths(dataDir);
  const release = await takeSyncLock(paths, dataDir);
  try {
    const settings = await requireSettings(paths);
    step.progress?.('Reading the memory Codex reads and checking it for secrets…');
    const scans = await openCleanScans(paths.dir);
    const pub = await collectPublication(home, settings.scopeProject, scans.has);
    await scans.save(pub.files.map((f) => f.sha256));
    const base: Omit<PushResult, 'changed' | 'commit' | 'retries'> = {
      remote: settings.remote,
      owner: settings.owner,
      version: pub.version,
      published: pub.files.length,
      heldBack: pub.heldBack,
      leftOut: pub.leftOut,
    };
    const [kind, name] = settings.owner.split('/');
    for (let attempt = 0; attempt < PUSH_ATTEMPTS; attempt++) {
      if (step.signal?.aborted) throw cancelledFailure(step.signal);
      await prepareClone(paths, settings, step);
      const dir = join(paths.clone, kind ?? 'machines', name ?? '', pub.version);
      const folder = `${settings.owner}/${pub.version}`;
      const differs = await treeDiffers(paths, settings.remote, 'HEAD', folder, pub.files);
      if (differs.length === 0 && (await sameAsPublished(dir, pub.files, settings.scopeProject))) {
        const commit = await head(paths, settings.remote);
        await recordPush(paths, settings, { at: step.now ?? Date.now(), commit, published: pub.files.length, heldBack: pub.heldBack });
        return { ...base, changed: false, commit, retries: attempt };
      }
      await writePublication(dir, pub, settings, step.now ?? Date.now(), new Set(differs));
      const rel = `${settings.owner}/${pub.version}`;
      await runSyncGit(paths.clone, ['add', '-A', '--force', '--', rel], 'Staging the publication', settings.remote);
      await commitPublication(paths, settings.remote, name ?? 'memory-studio', `Publish ${rel}: ${pub.files.length} files`);
      const missing = await treeDiffers(paths, settings.remote, 'HEAD', rel, pub.files);
      if (missing.length > 0)
        throw new StudioFailure(
          'Internal',
          `The commit of ${rel} does not hold ${missing.length} file(s) it should (first: ${missing[0]}); nothing was pushed.`,
          {
            hint: 'Run "memory-studio sync init" again to recreate the clone, then push again; report it if it happens again.',
          },
        );
      step.progress?.(`Pushing ${pub.files.length} files to ${settings.remote}…`);
      const pushed = await runSyncGit(
        paths.clone,
        ['push', '--quiet', '--porcelain', 'origin', `HEAD:refs/heads/${SYNC_BRANCH}`],
        'Pushing to the remote',
        settings.remote,
        {
          signal: step.signal,
          allowFailure: true,
        },
      );
      if (pushed.code === 0) {
        const commit = await head(paths, settings.remote);
        await recordPush(paths, settings, { at: step.now ?? Date.now(), commit, published: pub.files.length, heldBack: pub.heldBack });
        return { ...base, changed: true, commit, retries: attempt };
      }
      if (!isNonFastForward(pushed)) throw gitFailure('Pushing to the remote', settings.remote, pushed);
      step.progress?.('Another machine pushed first; fetching and trying again…');
    }
    throw new StudioFailure(
      'Busy',
      `${settings.remote} kept moving: ${PUSH_ATTEMPTS} pushes in a row were refused because others pushed first.`,
      {
        hint: 'Try again in a moment; nothing of yours was lost (your memory is untouched).',
      },
    );
  } finally {
    await release();
  }
}

async function recordPush(paths: SyncPaths, settings: SyncSettings, push: NonNullable<SyncSettings['lastPush']>): Promise<void> {
  const now = (await readSettings(paths)) ?? settings;
  await writeSettings(paths, { ...now, lastPush: push });
}

export interface ArrivalSummary {
  owner: string;
  version: MemoryVersion;
  key: string;
  files: number;
  changed: number;
  heldBack: HeldBack[];
  problem: string | null;
}

export interface PullResult {
  remote: string;
  owner: string;
  commit: string | null;
  arrivals: ArrivalSummary[];
  /** Other owners' folders that cannot be read at all (odd names, no manifest). */
  ignored: string[];
  proposal: Proposal | null;
  /** True when `proposal` is the earlier pull's, still pending, which already carries exactly what arrived. */
  reused: boolean;
  /** The earlier pull's pending proposal this one replaced (rejected as superseded), if any. */
  superseded: string | null;
  /** The earlier pull's proposal the person rejected, which carried exactly what is there now: not proposed again. */
  declined: string | null;
  /** Arrivals (`sync-…` keys) whose machine or person is gone from the remote: their removal is in the proposal. */
  removed: string[];
  /** Problems of the target folders (a symlink where resources belong): the arrivals wait until they are fixed. */
  problems: string[];
}

/** The version of another owner's folder to import: the one this home's Codex reads, else what they published. */
function pickVersion(versions: readonly MemoryVersion[], ours: MemoryVersion): MemoryVersion | null {
  return versions.includes(ours) ? ours : (versions[0] ?? null);
}

/** Every other owner's folder read and checked, the folders that are no owner's, and what is gone from the remote. */
async function readOwners(
  paths: SyncPaths,
  settings: SyncSettings,
  ours: MemoryVersion,
  current: TargetStates,
  db: StudioDb,
  step: SyncStep,
): Promise<{ arrivals: Arrival[]; ignored: string[]; gone: GoneCheck }> {
  const arrivals: Arrival[] = [];
  const ignored: string[] = [];
  const listed = await listOwners(paths.clone, [settings.owner, ...settings.formerOwners]);
  const gone: GoneCheck = {
    remote: settings.remote,
    present: new Set([settings.owner, ...settings.formerOwners, ...listed.map((o) => o.owner)].map(arrivalKey)),
    earlier: earlierImportsOf(db),
  };
  for (const o of listed) {
    const version = pickVersion(o.versions, ours);
    if (o.problem || !version) {
      ignored.push(o.problem ?? o.owner);
      continue;
    }
    if (step.signal?.aborted) throw cancelledFailure(step.signal);
    arrivals.push(await readArrival(paths.clone, o.owner, version, holdsAlready(current, o.owner)));
  }
  return { arrivals, ignored, gone };
}

export async function syncPull(
  home: HomeInfo,
  dataDir: string,
  db: StudioDb,
  step: SyncStep = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<PullResult> {
  const paths = syncPaths(dataDir);
  const release = await takeSyncLock(paths, dataDir);
  try {
    const settings = await requireSettings(paths);
    const hasBranch = await prepareClone(paths, settings, step);
    const commit = await head(paths, settings.remote);
    const ours = readRoot(home).version;
    const current = await readTargets(home);
    const { arrivals, ignored, gone } = await readOwners(paths, settings, ours, current, db, step);
    const usable = arrivals.filter((a) => a.problem === null);
    // A remote without the branch (emptied, or a new one by the same URL) says nothing about who is gone.
    const plan = await planArrivals(home, usable, settings.remote, userHome(env), current, hasBranch ? gone : undefined);
    if (plan.problems.length > 0)
      throw new StudioFailure('Invalid', `The arrivals cannot be written: ${plan.problems[0]}`, {
        hint: 'Replace the symlink with a folder (or remove it), then pull again; nothing was changed.',
      });
    const lastId = settings.lastPull?.proposalId;
    const earlier = pendingArrival(db, lastId);
    const declined = declinedArrival(db, lastId, plan);
    let proposal: Proposal | null = null;
    let superseded: string | null = null;
    if (earlier && sameArrival(db, earlier, plan)) proposal = earlier;
    else if (!declined) {
      proposal = await proposeArrivals(db, home, plan);
      if (earlier && proposal && supersede(db, earlier, proposal)) superseded = earlier.id;
    }
    const summaries = arrivals.map((a) => ({
      owner: a.owner,
      version: a.version,
      key: arrivalKey(a.owner),
      files: a.files.length,
      changed: plan.changed.get(a.owner) ?? 0,
      heldBack: a.heldBack,
      problem: a.problem,
    }));
    const now = (await readSettings(paths)) ?? settings;
    await writeSettings(paths, {
      ...now,
      lastPull: {
        at: step.now ?? Date.now(),
        commit,
        // A declined arrival stays the one compared with, so it is not proposed again until something changes.
        proposalId: proposal?.id ?? declined ?? null,
        arrived: summaries.reduce((n, a) => n + a.changed, 0),
      },
    });
    return {
      remote: settings.remote,
      owner: settings.owner,
      commit,
      arrivals: summaries,
      ignored,
      proposal,
      reused: proposal !== null && proposal === earlier,
      superseded,
      declined,
      removed: plan.removed,
      problems: plan.problems,
    };
  } finally {
    await release();
  }
}

export interface StatusResult {
  configured: boolean;
  /** The root Codex reads here: what a push publishes (held-back paths are relative to it). */
  version: MemoryVersion;
  remote: string | null;
  owner: string | null;
  scopeProject: string | null;
  lastPush: SyncSettings['lastPush'];
  lastPull: SyncSettings['lastPull'];
  /** What a push would change in this owner's folder (as the clone last saw the remote): paths added, changed, removed. */
  pending: { added: string[]; changed: string[]; removed: string[] };
  heldBack: HeldBack[];
  /** Other owners on the remote as of the last fetch. */
  others: string[];
}

/** Without the network: the settings, the last push and pull, and what a push would publish or hold back now. */
export async function syncStatus(home: HomeInfo, dataDir: string): Promise<StatusResult> {
  const paths = syncPaths(dataDir);
  const settings = await readSettings(paths);
  const empty = { added: [], changed: [], removed: [] };
  if (!settings)
    return {
      configured: false,
      version: readRoot(home).version,
      remote: null,
      owner: null,
      scopeProject: null,
      lastPush: null,
      lastPull: null,
      pending: empty,
      heldBack: [],
      others: [],
    };
  const pub = await collectPublication(home, settings.scopeProject, (await openCleanScans(paths.dir)).has);
  // The remote as last fetched (not the clone's working tree, which may hold a commit a failed push never delivered).
  const shown = await runSyncGit(
    paths.clone,
    ['show', `${REMOTE_BRANCH}:${settings.owner}/${pub.version}/manifest.json`],
    'Reading the sync clone',
    settings.remote,
    {
      allowFailure: true,
    },
  ).catch(() => null);
  const bytes = shown && shown.code === 0 ? Buffer.from(shown.stdout, 'utf8') : null;
  const parsed = bytes ? parseRecord(ManifestSchema, bytes) : null;
  const before = new Map((parsed?.ok ? parsed.value.files : []).map((f) => [f.path, f.sha256]));
  const now = new Map(pub.files.map((f) => [f.path, f.sha256]));
  const pending = {
    added: [...now.keys()].filter((p) => !before.has(p)),
    changed: [...now.keys()].filter((p) => before.has(p) && before.get(p) !== now.get(p)),
    removed: [...before.keys()].filter((p) => !now.has(p)),
  };
  const others = (await listOwners(paths.clone, [settings.owner, ...settings.formerOwners])).filter((o) => !o.problem).map((o) => o.owner);
  return {
    configured: true,
    version: pub.version,
    remote: settings.remote,
    owner: settings.owner,
    scopeProject: settings.scopeProject,
    lastPush: settings.lastPush,
    lastPull: settings.lastPull,
    pending,
    heldBack: pub.heldBack,
    others,
  };
}
