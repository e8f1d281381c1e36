// `history.sinceBaseline`: the live files of a root against Codex's git baseline (its last consolidation), read only.
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryVersion } from '../../../../shared/domain';
import type { BaselineDiff } from '../../../../shared/review';
import { FILES } from '../../codex/constants';
import { computeReviewHunks } from '../../review/review-hunks';
import { decodeUtf8Strict } from '../../platform/utf8';
import { readRegularFile } from '../../platform/regular-file';
import { ANALYSIS_CAP_BYTES, listMemoryRoot } from '../../codex/workspace';
import { GitMissing, headCommit, listTree, readBlobs, type TreeEntry } from './git-read';

/** Files bigger than this are listed with their status but without hunks. */
export const BASELINE_HUNK_CAP_BYTES = 16 * 1024 * 1024;

type FileDiff = BaselineDiff['files'][number];

/** Git's object id of `bytes` as a blob, in the repository's hash (SHA-1, or SHA-256 when ids are 64 hex digits). */
function blobId(bytes: Buffer, idLength: number): string {
  return createHash(idLength === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}

/** Reads a listed working file: never through a symlink or a FIFO put there since the listing, at most the analysis cap. */
export async function readWorking(root: string, relPath: string): Promise<Buffer> {
  return (await readRegularFile(join(root, ...relPath.split('/')), relPath, ANALYSIS_CAP_BYTES)).bytes;
}

function noBaseline(version: MemoryVersion, note: string): BaselineDiff {
  return { version, hasBaseline: false, commit: null, committedAt: null, files: [], notes: [note] };
}

/** Hunks when both sides are text under the cap; otherwise the status alone, with a note saying why. */
function hunksFor(path: string, base: Buffer | null, live: Buffer | null, notes: string[]): FileDiff['hunks'] {
  if ((base?.length ?? 0) > BASELINE_HUNK_CAP_BYTES || (live?.length ?? 0) > BASELINE_HUNK_CAP_BYTES) {
    notes.push(`${path} is larger than ${BASELINE_HUNK_CAP_BYTES} bytes; its hunks are not shown.`);
    return [];
  }
  const baseText = base === null ? null : decodeUtf8Strict(base);
  const liveText = live === null ? null : decodeUtf8Strict(live);
  if ((base !== null && baseText === null) || (live !== null && liveText === null)) {
    notes.push(`${path} is not UTF-8 text; its hunks are not shown.`);
    return [];
  }
  return computeReviewHunks(baseText, liveText, { relPath: path });
}

/** The baseline's regular files; symlinks and submodules are noted (Codex never leaves them in a root). */
function baselineBlobs(entries: readonly TreeEntry[], notes: string[]): Map<string, TreeEntry> {
  const blobs = new Map<string, TreeEntry>();
  for (const e of entries) {
    if (e.type === 'blob' && e.mode !== '120000') blobs.set(e.path, e);
    else notes.push(`The baseline holds ${e.path} as a ${e.mode === '120000' ? 'symlink' : e.type}; it is not compared.`);
  }
  return blobs;
}

/** Working files present now, and those that differ from the baseline (added or modified) with their bytes. */
async function scanWorking(
  root: string,
  version: MemoryVersion,
  tree: Map<string, TreeEntry>,
  idLength: number,
  notes: string[],
): Promise<{ present: Set<string>; changed: Map<string, Buffer> }> {
  const present = new Set<string>();
  const changed = new Map<string, Buffer>();
  const list = await listMemoryRoot(root, version);
  // A FIFO, socket or device is not read, and not reported as deleted either: the note says what it is.
  for (const d of list.diagnostics.filter((d) => d.rule === 'workspace/special-file' && d.path)) {
    notes.push(`${d.path} is not a regular file (a socket, device or pipe); it is not compared.`);
    present.add(d.path as string);
  }
  for (const file of list.files) {
    // Codex's own rendering of this very diff: written before the agent runs, deleted before each baseline reset.
    if (file.path === FILES.workspaceDiff) continue;
    if (file.symlink) {
      notes.push(`${file.path} is a symlink; it is not compared.`);
      present.add(file.path);
      continue;
    }
    const bytes = await readWorking(root, file.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null; // Removed since the listing: it shows as deleted when the baseline has it.
      notes.push(`${error.message} It is not compared.`);
      present.add(file.path);
      return null;
    });
    if (bytes === null) continue;
    present.add(file.path);
    if (tree.get(file.path)?.sha !== blobId(bytes, idLength)) changed.set(file.path, bytes);
  }
  return { present, changed };
}

/** Statuses and hunks; baseline blobs are read only for the files that differ, in one `cat-file --batch`. */
async function diffFiles(
  root: string,
  tree: Map<string, TreeEntry>,
  present: Set<string>,
  changed: Map<string, Buffer>,
  notes: string[],
): Promise<FileDiff[]> {
  const deleted = [...tree.keys()].filter((p) => !present.has(p));
  const needBase = [...[...changed.keys()].filter((p) => tree.has(p)), ...deleted];
  const blobs = await readBlobs(root, [...new Set(needBase.map((p) => (tree.get(p) as TreeEntry).sha))]);
  const baseOf = (p: string): Buffer | null => blobs.get((tree.get(p) as TreeEntry).sha) ?? null;
  const files: FileDiff[] = [];
  for (const [path, live] of changed) {
    const inBaseline = tree.has(path);
    files.push({ path, status: inBaseline ? 'modified' : 'added', hunks: hunksFor(path, inBaseline ? baseOf(path) : null, live, notes) });
  }
  for (const path of deleted) files.push({ path, status: 'deleted', hunks: hunksFor(path, baseOf(path), null, notes) });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Compares the live files with HEAD of `<root>/.git`. Only object reads: no `git status` or `git diff` (which may
 * refresh and rewrite the index), so `.git/` is byte-for-byte and mtime-for-mtime unchanged afterwards.
 */
export async function sinceBaseline(root: string, version: MemoryVersion): Promise<BaselineDiff> {
  const gitDir = await lstat(join(root, '.git')).catch(() => null);
  if (!gitDir?.isDirectory())
    return noBaseline(version, 'This memory folder has no git baseline yet: Codex makes one at its first consolidation.');
  let head: Awaited<ReturnType<typeof headCommit>>;
  try {
    head = await headCommit(root);
  } catch (error) {
    if (error instanceof GitMissing) return noBaseline(version, 'git is not installed (or not on PATH), so the baseline cannot be read.');
    throw error;
  }
  if (!head) return noBaseline(version, 'The git baseline has no commit yet.');
  const notes: string[] = [];
  const tree = baselineBlobs(await listTree(root, head.commit), notes);
  const { present, changed } = await scanWorking(root, version, tree, head.commit.length, notes);
  const files = await diffFiles(root, tree, present, changed, notes);
  return { version, hasBaseline: true, commit: head.commit, committedAt: head.committedAt, files, notes };
}
