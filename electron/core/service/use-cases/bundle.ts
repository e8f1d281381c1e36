// Bundles for a short-lived host (the CLI): `import --from bundle` through the same arrival path as a sync pull
// (proposed in the data folder's Studio DB). `memory-studio export` is use-cases/export.ts.
import type { HomeInfo, MemoryVersion } from '../../../../shared/domain';
import type { Proposal } from '../../../../shared/review';
import { userHome } from '../../import/sources';
import { openStudioDb } from '../../studio-db';
import { proposeArrivals } from '../../sync/arrive';
import { planBundle, type BundlePlan } from '../../sync/bundle';

/** A bundle's import as a terminal shows it: what it holds, what was held back, and every write (no file texts). */
export interface BundleImportSummary {
  bundle: string;
  owner: string;
  /** `sync-bundle-<name>`: the folder under `extensions/external_agent_import/resources/` it lands in. */
  key: string;
  version: MemoryVersion;
  exportedAt: string;
  /** Files verified and taken (held-back ones not counted). */
  files: number;
  heldBack: { path: string; reason: string }[];
  /** What the exporting machine held back (named in the manifest, never in the archive). */
  exportHeldBack: { path: string; reason: string }[];
  writes: { version: MemoryVersion; relPath: string; action: 'write' | 'delete' }[];
}

function summaryOf(planned: BundlePlan): BundleImportSummary {
  const { contents } = planned;
  return {
    bundle: contents.bundle,
    owner: contents.arrival.owner,
    key: planned.key,
    version: contents.manifest.memoryVersion,
    exportedAt: contents.manifest.exportedAt,
    files: contents.arrival.files.length,
    heldBack: contents.arrival.heldBack,
    exportHeldBack: contents.exportHeldBack,
    writes: planned.plan.writes.map((w) => ({ version: w.version, relPath: w.relPath, action: w.content === null ? 'delete' : 'write' })),
  };
}

/** `import --from bundle --plan`: the bundle read and checked, and what importing it would write (nothing is). */
export async function planBundleImport(home: HomeInfo, bundle: string, env: NodeJS.ProcessEnv): Promise<BundleImportSummary> {
  return summaryOf(await planBundle(home, bundle, userHome(env)));
}

/**
 * `import --from bundle --apply`, its first step: the bundle read and checked, then proposed in `dataDir`'s Studio DB
 * (null when the target already holds exactly the bundle). A refused bundle proposes nothing.
 */
export async function proposeBundleImport(
  home: HomeInfo,
  dataDir: string,
  bundle: string,
  env: NodeJS.ProcessEnv,
): Promise<{ summary: BundleImportSummary; proposal: Proposal | null }> {
  const planned = await planBundle(home, bundle, userHome(env));
  const db = openStudioDb(dataDir);
  try {
    return { summary: summaryOf(planned), proposal: await proposeArrivals(db, home, planned.plan) };
  } finally {
    db.close();
  }
}
