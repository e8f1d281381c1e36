// Arrivals as an import: another owner's published folder lands in `resources/sync-…/` of each import target, as one
// reviewed proposal with provenance naming the remote and the owner; an update replaces only that owner's earlier arrival.
import { join } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';
import type { ImportTarget } from '../../../shared/import';
import type { FileProvenance, Proposal } from '../../../shared/review';
import type { EarlierImports } from '../import/earlier';
import { IMPORT_INSTRUCTIONS, IMPORT_INSTRUCTIONS_PATH, IMPORT_RESOURCES_DIR, SYNC_KEY_PREFIX } from '../import/instructions';
import { scopeJson } from '../import/plan-root';
import { enqueueChanges } from '../import/propose';
import { sha256Hex } from '../import/read-source';
import { chooseTargets, readTargetState, type TargetState } from '../import/targets';
import { importTitle } from '../import/title';
import { createProposal, fileTextsOf, getProposal, proposalStatusOf, rejectProposal } from '../review';
import type { StudioDb } from '../studio-db';
import { insertProvenance } from '../studio-db/provenance';
import type { Arrival } from './manifest';

/** `machines/laptop` → `sync-machine-laptop`; `people/alice` → `sync-person-alice`; `bundles/x` → `sync-bundle-x`. */
export function arrivalKey(owner: string): string {
  const [kind, name] = owner.split('/');
  return `${SYNC_KEY_PREFIX}${kind === 'people' ? 'person' : kind === 'bundles' ? 'bundle' : 'machine'}-${name ?? ''}`;
}

export interface ArrivalWrite {
  version: ImportTarget['version'];
  root: string;
  relPath: string;
  content: string | null;
  provenance: FileProvenance | null;
}

export interface ArrivalPlan {
  writes: ArrivalWrite[];
  /** Per owner: files that change (created, modified or removed) in the first target. */
  changed: Map<string, number>;
  problems: string[];
  /** Keys whose owner is gone from the remote and whose arrival this remote wrote: removed by this proposal. */
  removed: string[];
}

/** What a pull knows besides the arrivals: which keys the remote still has, and who wrote each earlier arrival. */
export interface GoneCheck {
  remote: string;
  /** `sync-…` keys of every owner folder on the remote now (refused ones too: a damaged folder is not a gone one). */
  present: ReadonlySet<string>;
  earlier: EarlierImports;
}

/** An earlier arrival of a machine or person no longer on the remote, written by a pull from this remote: ours to remove. */
function goneArrival(key: string, version: ImportTarget['version'], gone: GoneCheck): boolean {
  if (!/^sync-(machine|person)-/.test(key) || gone.present.has(key)) return false;
  const source = gone.earlier(version, key);
  return source?.tool === 'sync' && source.sourceHome === gone.remote;
}

/**
 * The writes that make each target's `resources/<key>/` hold exactly what the owner published: `scope.json` (the
 * owner's project scope, else the person's home folder: another machine's memory applies everywhere here) and every
 * file at its published path. Files of that key the owner no longer publishes are deleted; nothing outside the key is.
 */
export interface TargetStates {
  targets: ImportTarget[];
  states: TargetState[];
}

/** Each import target of the home with what its `external_agent_import` holds now (read once per pull). */
export async function readTargets(home: HomeInfo): Promise<TargetStates> {
  const { targets } = chooseTargets(home);
  return { targets, states: await Promise.all(targets.map((t) => readTargetState(t))) };
}

/**
 * Whether every target already holds exactly these bytes at `path` of `owner`'s arrival, so nothing would be written
 * anywhere (a file one root holds and another lacks is scanned: it would be copied).
 */
export function holdsAlready(read: TargetStates, owner: string): (path: string, sha256: string) => boolean {
  const key = arrivalKey(owner);
  return (path, sha256) =>
    read.states.length > 0 &&
    read.states.every((state) => {
      const text = state.projects.get(key)?.get(path);
      return typeof text === 'string' && sha256Hex(text) === sha256;
    });
}

export async function planArrivals(
  home: HomeInfo,
  arrivals: readonly Arrival[],
  remote: string,
  userHome: string,
  read?: TargetStates,
  gone?: GoneCheck,
): Promise<ArrivalPlan> {
  const plan: ArrivalPlan = { writes: [], changed: new Map(), problems: [], removed: [] };
  const { targets, states } = read ?? (await readTargets(home));
  for (const [index, target] of targets.entries()) {
    const state = states[index] ?? (await readTargetState(target));
    for (const p of state.problems) if (index === 0) plan.problems.push(p);
    let touched = false;
    for (const arrival of arrivals) {
      if (!arrival.manifest) continue;
      const key = arrivalKey(arrival.owner);
      const base = `${IMPORT_RESOURCES_DIR}/${key}`;
      const current = state.projects.get(key) ?? new Map<string, string | null>();
      const desired = new Map<string, { text: string; provenance: FileProvenance | null }>();
      desired.set('scope.json', { text: scopeJson(arrival.manifest.scopeProject ?? userHome), provenance: null });
      for (const f of arrival.files) {
        if (f.path === 'scope.json') continue;
        desired.set(f.path, {
          text: f.text,
          provenance: {
            version: target.version,
            relPath: `${base}/${f.path}`,
            tool: 'sync',
            sourcePath: `${remote} ${arrival.owner}/${arrival.version}/files/${f.path}`,
            sourceMtimeMs: Date.parse(arrival.manifest.publishedAt) || 0,
            sourceSha256: f.sha256,
            sourceHome: remote,
          },
        });
      }
      let changed = 0;
      for (const [rel, want] of desired) {
        if (current.get(rel) === want.text) continue;
        changed++;
        plan.writes.push({
          version: target.version,
          root: target.root,
          relPath: `${base}/${rel}`,
          content: want.text,
          provenance: want.provenance,
        });
      }
      for (const rel of current.keys()) {
        if (desired.has(rel)) continue;
        changed++;
        plan.writes.push({ version: target.version, root: target.root, relPath: `${base}/${rel}`, content: null, provenance: null });
      }
      if (changed > 0) touched = true;
      if (index === 0 && changed > 0) plan.changed.set(arrival.owner, changed);
    }
    for (const [key, files] of gone ? state.projects : []) {
      if (!gone || !goneArrival(key, target.version, gone)) continue;
      if (!plan.removed.includes(key)) plan.removed.push(key);
      for (const rel of files.keys())
        plan.writes.push({
          version: target.version,
          root: target.root,
          relPath: `${IMPORT_RESOURCES_DIR}/${key}/${rel}`,
          content: null,
          provenance: null,
        });
    }
    // Codex's interpretation rules beside the resources, written only where missing (as the import does).
    if (touched && state.instructions === null)
      plan.writes.unshift({
        version: target.version,
        root: target.root,
        relPath: IMPORT_INSTRUCTIONS_PATH,
        content: IMPORT_INSTRUCTIONS,
        provenance: null,
      });
  }
  return plan;
}

/** The arrivals as one pending import proposal (consolidation enqueued on Apply), or null when nothing changes. */
export async function proposeArrivals(db: StudioDb, home: HomeInfo, plan: ArrivalPlan): Promise<Proposal | null> {
  if (plan.writes.length === 0) return null;
  const owners = [...plan.changed.keys()].map((o) => o.split('/')[1] ?? o);
  if (owners.length === 0 && plan.removed.length > 0) owners.push(`${plan.removed.length} gone from the remote`);
  const versions = [...new Set(plan.writes.map((w) => w.version))].sort();
  return createProposal(db, {
    title: importTitle(
      `sync (${owners.join(', ') || 'removals'})`,
      plan.writes.map((w) => ({ relPath: w.relPath, action: w.content === null ? 'delete' : 'write', imported: w.provenance !== null })),
    ),
    source: 'import',
    files: plan.writes.map((w) => ({ version: w.version, root: w.root, relPath: w.relPath, proposedContent: w.content })),
    dbChanges: enqueueChanges(home, versions),
    afterInsert: (tx, id) =>
      insertProvenance(
        tx,
        id,
        plan.writes.flatMap((w) => (w.provenance ? [w.provenance] : [])),
      ),
  });
}

/** Where an arrival of `owner` sits in a root (for messages). */
export function arrivalDir(root: string, owner: string): string {
  return join(root, ...IMPORT_RESOURCES_DIR.split('/'), arrivalKey(owner));
}

/**
 * The earlier pull's proposal while it is still pending, else null (applied, rejected, or gone with its data folder).
 * Its status is read first: an arrival of thousands of files is loaded only when it is still pending.
 */
export function pendingArrival(db: StudioDb, id: string | null | undefined): Proposal | null {
  if (!id) return null;
  try {
    if (proposalStatusOf(db, id)?.status !== 'pending') return null;
    const proposal = getProposal(db, id);
    return proposal.status === 'pending' ? proposal : null;
  } catch {
    return null;
  }
}

/** Whether a pending proposal already carries exactly these writes (a second pull with nothing new proposes nothing new). */
export function sameArrival(db: StudioDb, proposal: Proposal, plan: ArrivalPlan): boolean {
  if (proposal.files.length !== plan.writes.length) return false;
  return plan.writes.every((w) => {
    const f = proposal.files.find((x) => x.version === w.version && x.relPath === w.relPath);
    return f !== undefined && fileTextsOf(db, proposal.id, f.ord).proposedContent === w.content;
  });
}

/** The earlier pull's proposal when the person rejected it (not superseded by us) and it carried exactly `plan`. */
export function declinedArrival(db: StudioDb, id: string | null | undefined, plan: ArrivalPlan): string | null {
  if (!id || plan.writes.length === 0) return null;
  try {
    const status = proposalStatusOf(db, id);
    if (status?.status !== 'rejected' || (status.note ?? '').startsWith(SUPERSEDED)) return null;
    const proposal = getProposal(db, id);
    if (proposal.status !== 'rejected' || (proposal.note ?? '').startsWith(SUPERSEDED)) return null;
    return sameArrival(db, proposal, plan) ? proposal.id : null;
  } catch {
    return null;
  }
}

const SUPERSEDED = 'Superseded by ';

/**
 * A newer pull's proposal holds everything the earlier one did (both are planned against the disk), so the earlier one
 * is rejected as superseded, unless the person has begun deciding it: then it stays, and applying one makes the other
 * a conflict, never an overwrite.
 */
export function supersede(db: StudioDb, earlier: Proposal, next: Proposal): boolean {
  if (earlier.files.some((f) => Object.keys(f.decisions).length > 0)) return false;
  rejectProposal(db, earlier.id, `${SUPERSEDED}${next.id}, a later sync pull that carries its changes too.`);
  return true;
}
