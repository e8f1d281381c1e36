// Reading import sources safely: no symlinks followed, nothing outside the source root, size/binary/UTF-8 refusals as data.
import { createHash } from 'node:crypto';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { SkipCode, SkippedEntry } from '../../../shared/import';
import { cancelledFailure, StudioFailure } from '../platform/errors';
import { mapLimit } from '../platform/map-limit';
import { describeFileType, notRegular, readRegularFile, readRegularFileSync } from '../platform/regular-file';
import { turnClock } from '../platform/turn-clock';
import { decodeUtf8Strict, findInvalidUtf8 } from '../platform/utf8';

/** Codex's and the spec's default limit for one imported file. */
export const IMPORT_FILE_LIMIT_BYTES = 1024 * 1024;

export interface SourceText {
  text: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

export type ReadOutcome = { ok: true; file: SourceText } | { ok: false; code: SkipCode; reason: string };

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export function skip(path: string, code: SkipCode, reason: string, projectKey: string | null): SkippedEntry {
  return { path, code, reason, projectKey };
}

export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function errnoOutcome(error: unknown, path: string): ReadOutcome {
  const code = (error as NodeJS.ErrnoException).code;
  // A FIFO, socket, device or folder: refused by the open, unread and never waited on.
  if (error instanceof StudioFailure && code !== 'ELOOP' && code !== 'ENOENT')
    return { ok: false, code: 'unreadable', reason: error.message };
  if (code === 'ELOOP') return { ok: false, code: 'symlink', reason: `${path} is a symlink; imports never follow symlinks.` };
  if (code === 'EACCES' || code === 'EPERM')
    return { ok: false, code: 'unreadable', reason: `${path} cannot be read (permission denied); check its permissions, then plan again.` };
  if (code === 'ENOENT') return { ok: false, code: 'missing', reason: `${path} disappeared while it was being read; plan again.` };
  return { ok: false, code: 'unreadable', reason: `${path} cannot be read (${code ?? (error as Error).message}).` };
}

/** Checks the bytes: NUL means binary, then strict UTF-8 (a BOM is kept so the copy stays byte for byte). */
export function decodeSource(bytes: Buffer, path: string, mtimeMs: number): ReadOutcome {
  if (bytes.includes(0))
    return { ok: false, code: 'binary', reason: `${path} contains NUL bytes, so it is not a text file; only Markdown text is imported.` };
  const text = decodeUtf8Strict(bytes);
  if (text === null) {
    const problem = findInvalidUtf8(bytes);
    const where = problem ? ` at byte ${problem.byteOffset} (line ${problem.line})` : '';
    return { ok: false, code: 'invalid-utf8', reason: `${path} is not valid UTF-8${where}; re-save it as UTF-8, then plan again.` };
  }
  return { ok: true, file: { text, size: bytes.length, mtimeMs, sha256: sha256Hex(bytes) } };
}

/** Past the limit: its size rides on the error until the outcome says it in words. */
class TooLarge extends Error {
  constructor(readonly size: number) {
    super(`${size} bytes`);
  }
}

function failedRead(error: unknown, path: string, limit: number): ReadOutcome {
  if (!(error instanceof TooLarge)) return errnoOutcome(error, path);
  return {
    ok: false,
    code: 'too-large',
    reason: `${path} is ${error.size} bytes, over the ${limit}-byte limit for one imported file; split it or leave it out.`,
  };
}

const tooLarge = (size: number) => new TooLarge(size);

/**
 * Reads one regular file through the product's one safe read (`platform/regular-file.ts`): never through a symlink at
 * the last component, a FIFO or device refused without waiting, at most `limit` bytes. Asynchronous on the thread pool,
 * so reads overlap (`readSourceFiles`) and a slow disk or network mount never stops the host's event loop.
 */
export async function readSourceFile(path: string, limit = IMPORT_FILE_LIMIT_BYTES): Promise<ReadOutcome> {
  try {
    const file = await readRegularFile(path, path, limit, tooLarge);
    return decodeSource(file.bytes, path, file.info.mtimeMs);
  } catch (error) {
    return failedRead(error, path, limit);
  }
}

/** `readSourceFile`, synchronously: for a thread of its own (the CLI), where 10,000 reads took ~75 ms against ~250 ms. */
export function readSourceFileSync(path: string, limit = IMPORT_FILE_LIMIT_BYTES): ReadOutcome {
  try {
    const file = readRegularFileSync(path, path, limit, tooLarge);
    return decodeSource(file.bytes, path, file.info.mtimeMs);
  } catch (error) {
    return failedRead(error, path, limit);
  }
}

/**
 * Reads in flight at once: enough to keep libuv's four pool threads busy (10,000 small files read about as fast at 32
 * as at 64), few enough that one import never holds hundreds of descriptors.
 */
const SOURCE_READ_CONCURRENCY = 32;

/**
 * `readSourceFile` over `files`, outcomes in the order given. On a shared loop (the app's, serve's) the reads overlap on
 * the thread pool and never hold the loop; on a thread of its own (`sharedLoop` false: the CLI) they are synchronous,
 * without a pool round trip per open, stat, read and close, with a turn every few ms for a signal or Ctrl+C.
 */
export async function readSourceFiles<F extends { path: string }>(
  files: readonly F[],
  limit = IMPORT_FILE_LIMIT_BYTES,
  signal?: AbortSignal,
  sharedLoop = true,
): Promise<Array<{ f: F; outcome: ReadOutcome }>> {
  if (!sharedLoop) {
    const clock = turnClock();
    const out: Array<{ f: F; outcome: ReadOutcome }> = [];
    for (const f of files) {
      if (clock.due()) await clock.turn();
      if (signal?.aborted) throw cancelledFailure(signal);
      out.push({ f, outcome: readSourceFileSync(f.path, limit) });
    }
    return out;
  }
  return mapLimit(files, SOURCE_READ_CONCURRENCY, async (f) => {
    // A plan nobody waits for any more (a superseded query, a closed page) stops at its next file.
    if (signal?.aborted) throw cancelledFailure(signal);
    return { f, outcome: await readSourceFile(f.path, limit) };
  });
}

/** How far an import may list its sources: a memory folder holds tens of Markdown files, never a whole disk. */
export interface WalkLimits {
  /** Folders below a walked source folder. */
  maxDepth: number;
  /** Entries (files, folders, links) listed in one discovery, across every folder it walks. */
  maxEntries: number;
  /** Milliseconds one discovery may spend listing folders. */
  maxMs: number;
}

/**
 * A real Claude or Cursor memory folder is two levels deep with tens of files (10,000 plan in about a second); an
 * `autoMemoryDirectory` of "/" walked the whole disk for 38 s and 830 MB before this bound.
 */
export const IMPORT_WALK_LIMITS: WalkLimits = { maxDepth: 16, maxEntries: 50_000, maxMs: 60_000 };

const NARROW_HINT =
  'An import reads memory folders of Markdown files. If this folder is an autoMemoryDirectory (in a Claude settings.json) ' +
  'or the --source-home you gave, point it at the memory folder itself, not at a folder above it such as / or your home ' +
  'folder; otherwise move what is not memory out of it. Nothing was imported.';

/** One discovery's allowance for listing folders: every walk of it spends from the same count and clock. */
export class WalkBudget {
  private entries = 0;
  private readonly deadline: number;
  readonly limits: WalkLimits;

  constructor(
    limits: Partial<WalkLimits> = {},
    private readonly now: () => number = Date.now,
    /** The plan's caller: when it gives up, listing and reading stop at the next folder or file. */
    readonly signal?: AbortSignal,
    /** False on a thread of its own (the CLI): files are read synchronously (readSourceFiles). */
    readonly sharedLoop = true,
  ) {
    this.limits = { ...IMPORT_WALK_LIMITS, ...limits };
    this.deadline = now() + this.limits.maxMs;
  }

  /** Counts `count` entries listed in `dir` (a folder of the walk of `root`); throws once a limit is passed. */
  spend(count: number, dir: string, root: string): void {
    if (this.signal?.aborted) throw cancelledFailure(this.signal);
    this.entries += count;
    if (this.entries > this.limits.maxEntries)
      throw stopped(
        root,
        `${root} holds more than ${this.limits.maxEntries.toLocaleString('en')} files and folders, far more than a memory folder; the import stopped listing it at ${dir}.`,
      );
    if (this.now() > this.deadline)
      throw stopped(
        root,
        `Listing ${root} took more than ${Math.round(this.limits.maxMs / 1000)} s (it was at ${dir}), far longer than a memory folder takes; the import stopped.`,
      );
  }

  /** Throws when `dir` lies `depth` folders below `root`, past the limit. */
  depth(depth: number, dir: string, root: string): void {
    if (depth > this.limits.maxDepth)
      throw stopped(
        root,
        `${root} nests folders more than ${this.limits.maxDepth} levels deep (${dir}), deeper than a memory folder does; the import stopped listing it.`,
      );
  }
}

function stopped(root: string, message: string): StudioFailure {
  return new StudioFailure('Invalid', message, { path: root, hint: NARROW_HINT });
}

export interface WalkedFile {
  /** `/`-separated, relative to the walked root. */
  relPath: string;
  path: string;
}

export interface WalkResult {
  files: WalkedFile[];
  skipped: SkippedEntry[];
}

/**
 * Every `*.md` under `root` (realpath `realRoot`), never following symlinks: symlinks and unreadable folders are
 * reported; each folder's real path must stay inside the root.
 */
/** `name` ends with `ext` (lower case, with the dot) in any case: `NOTES.MD` is Markdown on every file system. */
export function hasExtension(name: string, ext: string): boolean {
  return name.toLowerCase().endsWith(ext);
}

export async function walkMarkdown(
  root: string,
  realRoot: string,
  projectKey: string | null,
  accept: (name: string) => boolean = (n) => hasExtension(n, '.md'),
  label = '*.md',
  budget: WalkBudget = new WalkBudget(),
): Promise<WalkResult> {
  const out: WalkResult = { files: [], skipped: [] };
  const visit = async (dir: string, rel: string, depth: number): Promise<void> => {
    budget.depth(depth, dir, root);
    let entries;
    try {
      const real = await realpath(dir);
      if (!isInside(realRoot, real)) {
        out.skipped.push(skip(dir, 'outside-root', `${dir} resolves outside the source folder ${root}; it was not read.`, projectKey));
        return;
      }
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      const outcome = errnoOutcome(error, dir);
      if (!outcome.ok) out.skipped.push(skip(dir, outcome.code, outcome.reason, projectKey));
      return;
    }
    budget.spend(entries.length, dir, root);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink())
        out.skipped.push(
          skip(
            path,
            'symlink',
            `${path} is a symlink; imports never follow symlinks (replace it with the real file to import it).`,
            projectKey,
          ),
        );
      else if (entry.isDirectory()) await visit(path, relPath, depth + 1);
      else if (entry.isFile() && accept(entry.name)) out.files.push({ relPath, path });
      else if (entry.isFile())
        out.skipped.push(
          skip(path, 'not-markdown', `${path} is not a Markdown memory file (only ${label} files are imported).`, projectKey),
        );
      // A FIFO, socket or device is said, never opened (a FIFO's open would wait for a writer).
      else out.skipped.push(skip(path, 'unreadable', notRegular(path, describeFileType(entry)).message, projectKey));
    }
  };
  await visit(root, '', 0);
  return out;
}

/** What a path is, without following a symlink at the end: `missing`, `symlink`, `dir`, `file` or `other`. */
export async function pathKind(path: string): Promise<'missing' | 'symlink' | 'dir' | 'file' | 'other' | 'unreadable'> {
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return 'symlink';
    if (info.isDirectory()) return 'dir';
    return info.isFile() ? 'file' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable';
  }
}
