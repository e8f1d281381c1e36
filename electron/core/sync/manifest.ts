// A published folder of the remote: `<owner>/<version>/manifest.json` beside `files/…`, and the checks an arrival passes.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { MemoryVersion } from '../../../shared/domain';
import { decodeSource, sha256Hex } from '../import/read-source';
import { scanImportSecrets } from '../import/secrets';
import { parseRecord } from '../platform/record-json';
import { mapLimit } from '../platform/map-limit';
import { isSafeRelativePath } from '../platform/safe-path';
import type { PublishedFile } from './publish';
import { SYNC_FILE_LIMIT_BYTES } from './publish';
import { MANIFEST_FORMAT } from './state';

/** One file of a publication or a bundle: its root-relative path, SHA-256 (hex) and size. */
export const FileEntrySchema = z.object({
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
});

export const ManifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  owner: z.string(),
  memoryVersion: z.enum(['v1', 'v2']),
  publishedAt: z.string(),
  scopeProject: z.string().nullable(),
  files: z.array(FileEntrySchema).max(100_000),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** Owners' folders on the remote: one per machine, one per person of a team. */
export const OWNER_KINDS = ['machines', 'people'] as const;

export function manifestOf(
  owner: string,
  version: MemoryVersion,
  files: readonly PublishedFile[],
  scopeProject: string | null,
  now: number,
): Manifest {
  return {
    format: MANIFEST_FORMAT,
    owner,
    memoryVersion: version,
    publishedAt: new Date(now).toISOString(),
    scopeProject,
    files: files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size })),
  };
}

/** What another owner published, checked file by file; `problem` when the folder cannot be trusted as a whole. */
export interface Arrival {
  owner: string;
  version: MemoryVersion;
  manifest: Manifest | null;
  files: PublishedFile[];
  heldBack: { path: string; reason: string }[];
  problem: string | null;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** Every `<kind>/<name>/<version>/` folder of the clone with a manifest, except `own`; symlinks and odd names refused. */
export async function listOwners(
  clone: string,
  own: readonly string[],
): Promise<{ owner: string; versions: MemoryVersion[]; problem: string | null }[]> {
  const out: { owner: string; versions: MemoryVersion[]; problem: string | null }[] = [];
  for (const kind of OWNER_KINDS) {
    const entries = await readdir(join(clone, kind), { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const owner = `${kind}/${e.name}`;
      if (own.includes(owner)) continue;
      if (!e.isDirectory() || !NAME.test(e.name) || e.name.includes('..')) {
        out.push({
          owner,
          versions: [],
          problem: `"${owner}" is not a folder with a safe name (a symlink, a file, or a name with odd characters); it is ignored`,
        });
        continue;
      }
      const versions: MemoryVersion[] = [];
      for (const v of ['v1', 'v2'] as const) {
        const info = await lstat(join(clone, kind, e.name, v, 'manifest.json')).catch(() => null);
        if (info?.isFile()) versions.push(v);
      }
      out.push({ owner, versions, problem: versions.length === 0 ? `"${owner}" has no manifest.json; it is ignored` : null });
    }
  }
  return out;
}

/**
 * Reads `<owner>/<version>/` of the clone: the manifest must parse, name only safe relative paths, and every file must
 * be a regular file whose bytes have the size and SHA-256 the manifest says. A manifest that lies about one file makes
 * the whole folder refused (another machine's copy is damaged or forged); a file with a secret is held back.
 */
type FileCheck = { file: PublishedFile } | { held: { path: string; reason: string } } | { problem: string };

/**
 * One published file against its manifest entry: a regular file (never a symlink) of that size and SHA-256, UTF-8 text,
 * and no secret. `unchanged` names contents the receiving root already holds at that path: they would not be written,
 * so their scan is skipped.
 */
async function checkFile(
  dir: string,
  entry: Manifest['files'][number],
  unchanged: (path: string, sha256: string) => boolean,
): Promise<FileCheck> {
  const path = join(dir, 'files', ...entry.path.split('/'));
  const info = await lstat(path).catch(() => null);
  if (!info || !info.isFile()) return { problem: `${entry.path} is missing or not a regular file (a symlink is never followed)` };
  if (info.size !== entry.size) return { problem: `${entry.path} is ${info.size} bytes, but the manifest says ${entry.size}` };
  const data = await readFile(path);
  if (sha256Hex(data) !== entry.sha256) return { problem: `${entry.path} does not have the SHA-256 the manifest says` };
  const decoded = decodeSource(data, entry.path, 0);
  if (!decoded.ok) return { held: { path: entry.path, reason: decoded.reason } };
  const findings = unchanged(entry.path, entry.sha256) ? [] : scanImportSecrets(decoded.file.text);
  if (findings.length > 0)
    return {
      held: {
        path: entry.path,
        reason: `possible secret (${findings[0]?.finding.rule ?? 'secret'}) at line ${findings[0]?.finding.line ?? 0}; not imported`,
      },
    };
  return { file: { path: entry.path, text: decoded.file.text, sha256: entry.sha256, size: entry.size } };
}

export async function readArrival(
  clone: string,
  owner: string,
  version: MemoryVersion,
  unchanged: (path: string, sha256: string) => boolean = () => false,
): Promise<Arrival> {
  const dir = join(clone, ...owner.split('/'), version);
  const arrival: Arrival = { owner, version, manifest: null, files: [], heldBack: [], problem: null };
  const refuse = (problem: string) => ({ ...arrival, files: [], heldBack: [], problem });
  const bytes = await readFile(join(dir, 'manifest.json')).catch(() => null);
  if (!bytes) return refuse('its manifest.json cannot be read');
  const parsed = parseRecord(ManifestSchema, bytes);
  if (!parsed.ok) return refuse(`its manifest.json is not a Memory Studio sync manifest (${parsed.problem})`);
  const manifest = parsed.value;
  if (manifest.owner !== owner || manifest.memoryVersion !== version)
    return refuse(`its manifest names ${manifest.owner} ${manifest.memoryVersion}, not the folder it is in`);
  arrival.manifest = manifest;
  const seen = new Set<string>();
  for (const entry of manifest.files) {
    if (!isSafeRelativePath(entry.path) || seen.has(entry.path))
      return refuse(`its manifest names the path "${entry.path}", which is not a safe relative path (or twice)`);
    seen.add(entry.path);
    if (entry.size > SYNC_FILE_LIMIT_BYTES)
      return refuse(`its manifest says ${entry.path} is ${entry.size} bytes, over the ${SYNC_FILE_LIMIT_BYTES}-byte limit`);
  }
  // Reads overlap (32 in flight); every file is checked against the manifest, in the manifest's order.
  const outcomes = await mapLimit(manifest.files, 32, (entry) => checkFile(dir, entry, unchanged));
  for (const outcome of outcomes) {
    if ('problem' in outcome) return refuse(outcome.problem);
    if ('held' in outcome) arrival.heldBack.push(outcome.held);
    else arrival.files.push(outcome.file);
  }
  return arrival;
}
