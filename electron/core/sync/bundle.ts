// Lossless export bundles (issue 25): the manifest's schema, and the strict reader that turns a bundle into an arrival,
// proposed as an import into resources/sync-bundle-*/. Writing one is bundle-export.ts.
import { createReadStream, readSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, ReadEntry } from 'tar';
import { z } from 'zod';
import type { HomeInfo } from '../../../shared/domain';
import { decodeSource, sha256Hex } from '../import/read-source';
import { BUNDLE_FORMAT, BUNDLE_MEMBER_COUNT_LIMIT, BUNDLE_MEMBER_LIMIT_BYTES, BUNDLE_TOTAL_LIMIT_BYTES } from './root';
import { scanImportSecrets } from '../import/secrets';
import { StudioFailure } from '../platform/errors';
import { parseRecord } from '../platform/record-json';
import { closeQuietly, openRegularFile } from '../platform/regular-file';
import { escapeControls, isSafeRelativePath } from '../platform/safe-path';
import { arrivalKey, planArrivals, type ArrivalPlan } from './arrive';
import { FileEntrySchema, type Arrival } from './manifest';
import { type HeldBack, type PublishedFile } from './publish';
import { MANIFEST_FORMAT } from './state';

export { BUNDLE_FORMAT, BUNDLE_MEMBER_COUNT_LIMIT, BUNDLE_MEMBER_LIMIT_BYTES, BUNDLE_TOTAL_LIMIT_BYTES };

/** Decompressed bytes a reader takes besides the members' own: headers, padding, pax records (then it stops reading). */
const ARCHIVE_OVERHEAD_BYTES = 256 * 1024 * 1024;

export const BundleManifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  memoryVersion: z.enum(['v1', 'v2']),
  exportedAt: z.string(),
  /** The exporting machine's name: a newer bundle of it replaces its earlier import, another machine's never does. */
  machine: z.string().optional(),
  files: z.array(FileEntrySchema).max(BUNDLE_MEMBER_COUNT_LIMIT),
  heldBack: z.array(z.object({ path: z.string(), reason: z.string() })).max(BUNDLE_MEMBER_COUNT_LIMIT),
});
export type BundleManifest = z.infer<typeof BundleManifestSchema>;

// ---- Reading a bundle ----

interface Members {
  manifest: Buffer | null;
  files: Map<string, Buffer>;
}

const TYPE_WORDS: Record<string, string> = {
  SymbolicLink: 'is a symlink',
  Link: 'is a hard link',
  CharacterDevice: 'is a character device',
  BlockDevice: 'is a block device',
  FIFO: 'is a named pipe (FIFO)',
};

function refusal(bundle: string, why: string): StudioFailure {
  return new StudioFailure('Invalid', `The bundle ${bundle} was refused: ${why}. Nothing was imported.`, {
    path: bundle,
    hint: 'A bundle from "memory-studio export" holds manifest.json and regular files under files/ only; export it again on the machine it came from.',
  });
}

/** Where a member goes (`manifest.json`, `files/<rel>`, a folder: null) or why it is refused, from its header alone. */
function memberTarget(entry: ReadEntry): { kind: 'manifest' | 'file' | 'dir'; rel: string } | { problem: string } {
  const raw = entry.path;
  if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'Directory')
    return { problem: `${TYPE_WORDS[entry.type] ?? `is a ${entry.type} entry`}; a bundle holds only regular files and folders` };
  if (raw.startsWith('/') || /^(?:[A-Za-z]:|\\\\)/.test(raw)) return { problem: 'has an absolute path' };
  const path = raw.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
  if (path.split(/[/\\]/).includes('..')) return { problem: 'climbs out with ".."' };
  if (entry.type === 'Directory') {
    if (path === '' || path === '.' || path === 'files') return { kind: 'dir', rel: '' };
    return path.startsWith('files/') && isSafeRelativePath(path.slice(6))
      ? { kind: 'dir', rel: path.slice(6) }
      : { problem: 'is a folder outside files/' };
  }
  if (path === 'manifest.json') return { kind: 'manifest', rel: path };
  if (!path.startsWith('files/')) return { problem: 'is outside files/ (only manifest.json may sit beside it)' };
  if (!isSafeRelativePath(path.slice(6))) return { problem: 'is not a safe relative path under files/' };
  return { kind: 'file', rel: path.slice(6) };
}

/** Counts members and bytes as headers arrive; the first problem refuses the whole bundle before its body is read. */
function memberChecker(bundle: string, members: Members) {
  let count = 0;
  let total = 0;
  return (entry: ReadEntry): StudioFailure | null => {
    const shown = `"${escapeControls(entry.path)}"`;
    if (++count > BUNDLE_MEMBER_COUNT_LIMIT) return refusal(bundle, `it holds more than ${BUNDLE_MEMBER_COUNT_LIMIT} members`);
    const target = memberTarget(entry);
    if ('problem' in target) return refusal(bundle, `its member ${shown} ${target.problem}`);
    const size = Math.max(entry.size, entry.remain, entry.header.size ?? 0);
    if (target.kind === 'dir') return size > 0 ? refusal(bundle, `its folder member ${shown} claims ${size} bytes`) : null;
    if (size > BUNDLE_MEMBER_LIMIT_BYTES)
      return refusal(bundle, `its member ${shown} is ${size} bytes, over the ${BUNDLE_MEMBER_LIMIT_BYTES}-byte (64 MB) limit for one file`);
    total += size;
    if (total > BUNDLE_TOTAL_LIMIT_BYTES) return refusal(bundle, `its members hold more than ${BUNDLE_TOTAL_LIMIT_BYTES} bytes (1 GB)`);
    if ((target.kind === 'manifest' && members.manifest) || members.files.has(target.rel))
      return refusal(bundle, `it holds the member ${shown} twice`);
    return null;
  };
}

/** A tar parser that checks every header before its body is read and keeps the accepted members' bytes. */
function memberParser(bundle: string, members: Members, fail: (failure: StudioFailure) => void): Parser {
  const check = memberChecker(bundle, members);
  const refuse = (failure: StudioFailure) => {
    fail(failure);
    parser.abort(failure);
  };
  const parser: Parser = new Parser({
    strict: true,
    brotli: false,
    zstd: false,
    filter: (_path, entry) => {
      const failure = entry instanceof ReadEntry ? check(entry) : refusal(bundle, 'it could not be read');
      if (failure) refuse(failure);
      return failure === null;
    },
  });
  // An entry of a kind tar does not know, or an oversized pax record: never taken as a file.
  parser.on('ignoredEntry', (entry: ReadEntry) =>
    refuse(refusal(bundle, `its member "${escapeControls(entry.path)}" is of a kind a bundle never holds (${entry.type})`)),
  );
  parser.on('error', (error: Error) => fail(refusal(bundle, `it is not a readable tar archive (${error.message})`)));
  parser.on('entry', (entry: ReadEntry) => {
    const target = memberTarget(entry);
    if ('problem' in target || target.kind === 'dir') return void entry.resume();
    const chunks: Buffer[] = [];
    entry.on('data', (c: Buffer) => chunks.push(c));
    entry.on('end', () => {
      const bytes = Buffer.concat(chunks);
      if (target.kind === 'manifest') members.manifest = bytes;
      else members.files.set(target.rel, bytes);
    });
  });
  return parser;
}

/** Every member of the bundle, streamed (never extracted): gzip or plain tar, every header checked before its body. */
async function readMembers(bundle: string): Promise<Members> {
  const { fd } = await openRegularFile(bundle, bundle, { follow: true });
  const head = Buffer.alloc(2);
  let gzip: boolean;
  try {
    gzip = readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } catch (error) {
    await closeQuietly(fd);
    throw error;
  }
  const members: Members = { manifest: null, files: new Map() };
  let failure: StudioFailure | null = null;
  const parser = memberParser(bundle, members, (f) => (failure ??= f));
  const done = new Promise<void>((res) => parser.on('end', () => res()).on('error', () => res()));
  let fed = 0;
  const feed = new Writable({
    write(chunk: Buffer, _encoding, next) {
      if (fed === 0 && chunk[0] === 0x1f && chunk[1] === 0x8b) return next(refusal(bundle, 'it is compressed twice'));
      fed += chunk.length;
      if (fed > BUNDLE_TOTAL_LIMIT_BYTES + ARCHIVE_OVERHEAD_BYTES)
        return next(refusal(bundle, `it unpacks to more than ${BUNDLE_TOTAL_LIMIT_BYTES} bytes`));
      parser.write(chunk);
      next(failure);
    },
    final(next) {
      parser.end();
      next(failure);
    },
  });
  // The stream owns the descriptor from here: it closes it at the end, on an error, or when the pipeline stops it.
  const source = createReadStream(bundle, { fd, autoClose: true, start: 0 });
  try {
    await (gzip ? pipeline(source, createGunzip(), feed) : pipeline(source, feed));
  } catch (error) {
    throw failure ?? (error instanceof StudioFailure ? error : refusal(bundle, `it cannot be read (${(error as Error).message})`));
  }
  await done;
  if (failure) throw failure;
  return members;
}

type VerifiedFile = Pick<PublishedFile, 'path' | 'sha256'> & { bytes: Buffer };

/** The bundle's manifest, and its files as the manifest says them: any lie (a size, a hash, a file more or less) refuses it. */
function verifyMembers(bundle: string, members: Members): { manifest: BundleManifest; files: VerifiedFile[] } {
  if (!members.manifest) throw refusal(bundle, 'it has no manifest.json');
  const parsed = parseRecord(BundleManifestSchema, members.manifest);
  if (!parsed.ok) throw refusal(bundle, `its manifest.json is not a Memory Studio bundle manifest (${parsed.problem})`);
  const manifest = parsed.value;
  const files: VerifiedFile[] = [];
  const named = new Set<string>();
  for (const entry of manifest.files) {
    const shown = `"${escapeControls(entry.path)}"`;
    if (!isSafeRelativePath(entry.path) || named.has(entry.path))
      throw refusal(bundle, `its manifest names ${shown}, which is not a safe relative path (or is named twice)`);
    named.add(entry.path);
    const bytes = members.files.get(entry.path);
    if (!bytes) throw refusal(bundle, `its manifest names ${shown}, which the archive does not hold`);
    if (bytes.length !== entry.size) throw refusal(bundle, `${shown} is ${bytes.length} bytes, but its manifest says ${entry.size}`);
    if (sha256Hex(bytes) !== entry.sha256) throw refusal(bundle, `${shown} does not have the SHA-256 its manifest says`);
    files.push({ path: entry.path, bytes, sha256: entry.sha256 });
  }
  for (const path of members.files.keys())
    if (!named.has(path)) throw refusal(bundle, `it holds files/${escapeControls(path)}, which its manifest does not name`);
  return { manifest, files };
}

export interface BundleContents {
  bundle: string;
  manifest: BundleManifest;
  arrival: Arrival;
  /** What the exporting machine held back (named in the manifest; never in the archive). */
  exportHeldBack: HeldBack[];
}

/** `bundles/<the bundle's file name, made a safe folder name>`: `arrivalKey` makes it `sync-bundle-<name>`. */
export function bundleOwner(bundle: string, machine?: string): string {
  // The machine that exported it when the manifest says (an older bundle: its file name).
  const name = (machine ?? basename(bundle).replace(/\.(?:tar\.gz|tgz|tar)$/i, ''))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.\.+/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 63);
  return `bundles/${name === '' ? 'bundle' : name}`;
}

/**
 * Reads a bundle without extracting it: every member checked from its header (regular files and folders under files/
 * only, no absolute path or "..", at most 64 MB each, 1 GB and 100,000 members in all), every file's size and SHA-256
 * against the manifest, then strict UTF-8; a file with a possible secret is held back, named with rule and line.
 */
export async function readBundle(path: string): Promise<BundleContents> {
  const bundle = resolve(path);
  const { manifest, files } = verifyMembers(bundle, await readMembers(bundle));
  const owner = bundleOwner(bundle, manifest.machine);
  const arrival: Arrival = {
    owner,
    version: manifest.memoryVersion,
    manifest: {
      format: MANIFEST_FORMAT,
      owner,
      memoryVersion: manifest.memoryVersion,
      publishedAt: manifest.exportedAt,
      scopeProject: null,
      files: manifest.files,
    },
    files: [],
    heldBack: [],
    problem: null,
  };
  for (const f of files) {
    const decoded = decodeSource(f.bytes, f.path, 0);
    if (!decoded.ok) {
      arrival.heldBack.push({ path: f.path, reason: decoded.reason });
      continue;
    }
    const first = scanImportSecrets(decoded.file.text)[0]?.finding;
    if (first) {
      arrival.heldBack.push({ path: f.path, reason: `possible secret (${first.rule}) at line ${first.line}; not imported` });
      continue;
    }
    arrival.files.push({ path: f.path, text: decoded.file.text, sha256: f.sha256, size: f.bytes.length });
  }
  const exportHeldBack = manifest.heldBack.map((h) => ({ path: escapeControls(h.path), reason: escapeControls(h.reason) }));
  return { bundle, manifest, arrival, exportHeldBack };
}

export interface BundlePlan {
  contents: BundleContents;
  key: string;
  plan: ArrivalPlan;
}

/** What importing the bundle writes: each import target's `resources/sync-bundle-<name>/` made exactly the bundle's files. */
export async function planBundle(home: HomeInfo, path: string, userHome: string): Promise<BundlePlan> {
  const contents = await readBundle(path);
  const plan = await planArrivals(home, [contents.arrival], contents.bundle, userHome);
  if (plan.problems.length > 0)
    throw new StudioFailure('Invalid', `The bundle cannot be imported here: ${plan.problems[0]}`, {
      hint: 'Replace the symlink with a folder (or remove it), then import again; nothing was changed.',
    });
  return { contents, key: arrivalKey(contents.arrival.owner), plan };
}
