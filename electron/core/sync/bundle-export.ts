// Writing an export bundle (issue 25): every file of a memory root in one .tar.gz beside a manifest of hashes, secrets
// held back. Apart from the reader (bundle.ts): an export loads no schema library, no arrival planning and no scanner
// on the main thread (the scan runs on the pool, bundle-secrets.ts).
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { isInside, sha256Hex } from '../import/read-source';
import { StudioFailure } from '../platform/errors';
import { mapLimit } from '../platform/map-limit';
import { readRegularFile } from '../platform/regular-file';
import { escapeControls } from '../platform/safe-path';
import { runTask } from '../runtime/pool';
import type { BundleManifest } from './bundle';
import type { FileSecret } from './bundle-secrets';
import { writeArchive } from './bundle-write';
import type { HeldBack } from './publish';
import {
  BUNDLE_FORMAT,
  BUNDLE_MEMBER_COUNT_LIMIT,
  BUNDLE_MEMBER_LIMIT_BYTES,
  BUNDLE_TOTAL_LIMIT_BYTES,
  defaultMachineName,
  readRoot,
} from './root';
import { walkRoot, type SkipWhy } from './walk';
import { slicesByWeight } from '../platform/slices';

/** Each file's first secret, in the files' order. */
export async function secretsOfFiles(files: readonly Buffer[]): Promise<(FileSecret | null)[]> {
  const { slices } = slicesByWeight(files, (f) => f.length, 4);
  return (await Promise.all(slices.map((files) => runTask('bundle-secrets', { files })))).flat();
}

export interface ExportResult {
  out: string;
  version: MemoryVersion;
  root: string;
  files: number;
  /** Bytes of the files in the bundle (uncompressed). */
  bytes: number;
  /** Bytes of the written .tar.gz. */
  archiveBytes: number;
  heldBack: HeldBack[];
}

interface RootFile {
  path: string;
  bytes: Buffer;
  mode: number;
  mtime: Date;
}

/** Every file of the root, and what an export cannot carry (a symlink, a special file, an unsafe name), held back. */
async function listAll(root: string, held: HeldBack[]): Promise<string[]> {
  const walked = await walkRoot(root);
  for (const s of walked.skipped)
    held.push({ path: s.why === 'unsafe-name' ? escapeControls(s.path) : s.path, reason: EXPORT_SKIPS[s.why](s.detail) });
  return walked.files;
}

const EXPORT_SKIPS: Record<SkipWhy, (detail: string) => string> = {
  symlink: () => 'a symlink; an export never follows one',
  'unsafe-name': () => 'a name a bundle cannot carry safely',
  special: (detail) => `${detail}, not a regular file`,
  unreadable: (detail) => `a folder that cannot be read (${detail})`,
};

/** Reads each file, holding back what cannot travel: a possible secret (named by rule and line), over a limit, unreadable. */
async function collectRoot(root: string, held: HeldBack[]): Promise<RootFile[]> {
  const files: RootFile[] = [];
  let total = 0;
  // Reads overlap (32 in flight, in order): a disk's latency is paid once per batch, not once per file.
  const reads = await mapLimit(await listAll(root, held), 32, (path) =>
    readRegularFile(join(root, ...path.split('/')), path, BUNDLE_MEMBER_LIMIT_BYTES).then(
      (read) => ({ path, read }),
      (error: unknown) => ({ path, read: null, why: error instanceof Error ? error.message : String(error) }),
    ),
  );
  // Secrets are looked for on the pool, all files at once; a file that is not UTF-8 in what decodes (bundle-secrets.ts).
  const secrets = await secretsOfFiles(reads.flatMap((r) => (r.read ? [r.read.bytes] : [])));
  let scanned = 0;
  for (const { path, read, ...rest } of reads) {
    if (!read) {
      held.push({ path, reason: 'why' in rest ? rest.why : 'unreadable' });
      continue;
    }
    // A file that is not UTF-8 still travels byte for byte.
    const first = secrets[scanned++];
    if (first) {
      const more = first.count > 1 ? ` and ${first.count - 1} more` : '';
      held.push({
        path,
        reason: `possible secret (${first.rule}) at line ${first.line}${more}; redact it ("memory-studio redact --file ${path}"), then export again`,
      });
      continue;
    }
    if (files.length >= BUNDLE_MEMBER_COUNT_LIMIT || total + read.size > BUNDLE_TOTAL_LIMIT_BYTES) {
      held.push({ path, reason: `past a bundle's limits (${BUNDLE_MEMBER_COUNT_LIMIT} files, ${BUNDLE_TOTAL_LIMIT_BYTES} bytes)` });
      continue;
    }
    total += read.size;
    files.push({ path, bytes: read.bytes, mode: read.info.mode & 0o777, mtime: new Date(read.mtimeMs) });
  }
  return files;
}

/** Refuses an --out inside the Codex home (a bundle is never written into a memory root) or that is a folder. */
async function checkOut(home: HomeInfo, out: string): Promise<string> {
  const target = resolve(out);
  const parent = dirname(target);
  if (!(await stat(parent).catch(() => null))?.isDirectory())
    throw new StudioFailure('NotFound', `The folder ${parent} for the bundle does not exist.`, {
      path: parent,
      hint: 'Create it first, or pass --out a file in a folder that exists.',
    });
  const realTarget = join(await realpath(parent), basename(target));
  const homes = [resolve(home.codexHome), await realpath(home.codexHome).catch(() => resolve(home.codexHome))];
  if (homes.some((h) => isInside(h, target) || isInside(h, realTarget)))
    throw new StudioFailure('Invalid', `${target} is inside the Codex home ${home.codexHome}; a bundle is never written there.`, {
      path: target,
      hint: 'Write it outside the Codex home, e.g. --out ~/memory-bundle.tar.gz.',
    });
  if ((await lstat(target).catch(() => null))?.isDirectory())
    throw new StudioFailure('Invalid', `${target} is a folder; --out names the bundle file to write.`, { path: target });
  return target;
}

/**
 * Exports every file of the root (the one Codex reads, or `version`'s) to `out`: lossless, except what is held back (a
 * possible secret, a symlink, a file that is not regular or is past a limit), each named with its reason.
 */
export async function exportBundle(
  home: HomeInfo,
  out: string,
  options: { version?: MemoryVersion; now?: number } = {},
): Promise<ExportResult> {
  const target = await checkOut(home, out);
  const root = readRoot(home, options.version);
  const info = await lstat(root.path).catch(() => null);
  if (!info?.isDirectory())
    throw new StudioFailure('NotFound', `There is no ${root.version} memory folder to export at ${root.path}.`, {
      path: root.path,
      hint: info?.isSymbolicLink()
        ? 'It is a symlink, which Codex refuses; replace it with the real folder.'
        : 'Pick the other one with --version.',
    });
  const heldBack: HeldBack[] = [];
  const files = await collectRoot(root.path, heldBack);
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    memoryVersion: root.version,
    exportedAt: new Date(options.now ?? Date.now()).toISOString(),
    machine: defaultMachineName(),
    files: files.map((f) => ({ path: f.path, sha256: sha256Hex(f.bytes), size: f.bytes.length })),
    heldBack,
  };
  const archiveBytes = await writeArchive(target, manifest, files);
  const bytes = files.reduce((n, f) => n + f.bytes.length, 0);
  return { out: target, version: root.version, root: root.path, files: files.length, bytes, archiveBytes, heldBack };
}
