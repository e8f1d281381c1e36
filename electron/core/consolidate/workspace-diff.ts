// `phase2_workspace_diff.md` as Codex renders it: a staged root against the live root's git baseline (A/M/D, unified diff, 4 MiB cap).
import { isGitName } from '../platform/safe-path';
import { createHash } from 'node:crypto';
import { type Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FILES, WORKSPACE_DIFF_MAX_BYTES } from '../codex/constants';
import { GitMissing, headCommit, listTree, readBlobs, type TreeEntry } from '../history/baseline/git-read';
import { diffLineArrays, groupBlocks, hunkBounds, type ChangeBlock } from '../review/lines';
import { splitLines } from '../review';
import { floorCharBoundary } from '../codex/rust-str';
import { describeFileType, NO_CAP, readRegularFile } from '../platform/regular-file';
import { itemAt } from '../platform/indexed';
import { redactAllSecrets } from '../lint';

export type ChangeLabel = 'A' | 'M' | 'D';

export interface WorkspaceChange {
  label: ChangeLabel;
  path: string;
}

export interface WorkspaceDiff {
  changes: WorkspaceChange[];
  unifiedDiff: string;
  /** Whether the live root had a readable baseline (without one, every staged file is Added). */
  hasBaseline: boolean;
  notes: string[];
}

/** A file on one side: its git mode (100644, 100755, 120000) and a way to get its bytes. */
interface Side {
  mode: string;
  sha: string;
}

const CONTEXT = 3;
const READ_BATCH = 32;
const decoder = new TextDecoder('utf-8'); // Not fatal: Rust's from_utf8_lossy replaces bad bytes the same way.

function blobId(bytes: Buffer, idLength: number): string {
  return createHash(idLength === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}

export interface WalkedFiles {
  files: string[];
  symlinks: string[];
  /** FIFOs, sockets and devices (`what`: "a named pipe (FIFO)", …): never read, never copied. */
  special: Array<{ path: string; what: string }>;
}

/** Every regular file under `root` (never an entry named `.git`, at any depth, as Codex's tree walk), `/`-separated. */
export async function walkFiles(root: string, skipRootFiles: readonly string[] = []): Promise<WalkedFiles> {
  const files: string[] = [];
  const symlinks: string[] = [];
  const special: WalkedFiles['special'] = [];
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.pop() as string;
    const entries: Dirent[] = await readdir(rel === '' ? root : join(root, rel), { withFileTypes: true });
    for (const entry of entries) {
      if (isGitName(entry.name)) continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (rel === '' && skipRootFiles.includes(entry.name)) continue;
      if (entry.isSymbolicLink()) symlinks.push(path);
      else if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) files.push(path);
      else special.push({ path, what: describeFileType(entry) });
    }
  }
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return { files: files.sort(byPath), symlinks: symlinks.sort(byPath), special: special.sort((a, b) => byPath(a.path, b.path)) };
}

/** The live root's baseline tree (files and symlinks), or null with a note when there is none or git is missing. */
async function baselineTree(liveRoot: string, notes: string[]): Promise<{ tree: Map<string, TreeEntry>; idLength: number } | null> {
  const gitDir = await lstat(join(liveRoot, '.git')).catch(() => null);
  if (!gitDir?.isDirectory()) {
    notes.push("The live memory folder has no git baseline yet, so every staged file counts as added (as at Codex's first consolidation).");
    return null;
  }
  try {
    const head = await headCommit(liveRoot);
    if (!head) {
      notes.push('The live git baseline has no commit yet, so every staged file counts as added.');
      return null;
    }
    const tree = new Map<string, TreeEntry>();
    for (const e of await listTree(liveRoot, head.commit)) if (e.type === 'blob') tree.set(e.path, e);
    return { tree, idLength: head.commit.length };
  } catch (error) {
    if (!(error instanceof GitMissing)) throw error;
    notes.push(
      'git is not installed (or not on PATH), so the baseline cannot be read: every staged file counts as added. Install git to get the real diff.',
    );
    return null;
  }
}

/** Unified hunk range: `start` alone for one line, else `start,len` (an empty range starts at the line before). */
function range(start0: number, len: number): string {
  return len === 1 ? `${start0 + 1}` : `${len === 0 ? start0 : start0 + 1},${len}`;
}

function emitLine(out: string[], sign: string, line: string): void {
  out.push(sign, line);
  if (!line.endsWith('\n')) out.push('\n\\ No newline at end of file\n');
}

function renderHunk(a: string[], b: string[], group: ChangeBlock[], out: string[]): void {
  const { oldFrom, oldTo, newFrom, newTo } = hunkBounds(a.length, group, CONTEXT);
  out.push(`@@ -${range(oldFrom, oldTo - oldFrom)} +${range(newFrom, newTo - newFrom)} @@\n`);
  let oi = oldFrom;
  for (const block of group) {
    for (; oi < block.oldIdx; oi++) emitLine(out, ' ', itemAt(a, oi));
    for (let k = 0; k < block.oldLen; k++, oi++) emitLine(out, '-', itemAt(a, oi));
    for (let k = 0; k < block.newLen; k++) emitLine(out, '+', itemAt(b, block.newIdx + k));
  }
  for (; oi < oldTo; oi++) emitLine(out, ' ', itemAt(a, oi));
}

/** One file's section: `diff --git`, mode lines, then `--- / +++` and hunks when the texts differ (Codex's `render_change_diff`). */
export function renderFileDiff(
  path: string,
  before: { mode: string; bytes: Buffer } | null,
  after: { mode: string; bytes: Buffer } | null,
): string {
  const out: string[] = [`diff --git a/${path} b/${path}\n`];
  if (!before && after) out.push(`new file mode ${after.mode}\n`);
  else if (before && !after) out.push(`deleted file mode ${before.mode}\n`);
  else if (before && after && before.mode !== after.mode) out.push(`old mode ${before.mode}\nnew mode ${after.mode}\n`);
  const a = splitLines(before ? decoder.decode(before.bytes) : '');
  const b = splitLines(after ? decoder.decode(after.bytes) : '');
  const groups = groupBlocks(CONTEXT, diffLineArrays(a, b));
  if (groups.length > 0) out.push(`--- ${before ? `a/${path}` : '/dev/null'}\n+++ ${after ? `b/${path}` : '/dev/null'}\n`);
  for (const group of groups) renderHunk(a, b, group, out);
  return out.join('');
}

/** The file Codex writes: title, the "read first" line, `## Status`, and the fenced diff capped at 4 MiB on a char boundary. */
export function renderWorkspaceDiffFile(diff: Pick<WorkspaceDiff, 'changes' | 'unifiedDiff'>): string {
  let rendered =
    '# Memory Workspace Diff\n\nGenerated by Codex before Phase 2 memory consolidation. Read this file first and do not edit it.\n\n## Status\n';
  if (diff.changes.length === 0) return `${rendered}- none\n`;
  for (const change of diff.changes) rendered += `- ${change.label} ${change.path}\n`;
  rendered += '\n## Diff\n\n```diff\n';
  const bytes = Buffer.from(diff.unifiedDiff, 'utf8');
  if (bytes.length <= WORKSPACE_DIFF_MAX_BYTES) {
    rendered += diff.unifiedDiff.endsWith('\n') || diff.unifiedDiff === '' ? diff.unifiedDiff : `${diff.unifiedDiff}\n`;
  } else {
    const cut = bytes.subarray(0, floorCharBoundary(bytes, WORKSPACE_DIFF_MAX_BYTES)).toString('utf8');
    rendered += cut.endsWith('\n') ? cut : `${cut}\n`;
    rendered += `\n[workspace diff truncated at ${WORKSPACE_DIFF_MAX_BYTES} bytes]\n`;
  }
  return `${rendered}\`\`\`\n`;
}

async function stagedSide(stagingRoot: string, path: string, idLength: number): Promise<Side & { bytes: Buffer }> {
  const abs = join(stagingRoot, ...path.split('/'));
  // A regular file only, never through a symlink; its fstat gives the mode.
  const { bytes, info } = await readRegularFile(abs, path, NO_CAP);
  return { mode: (info.mode & 0o111) !== 0 ? '100755' : '100644', sha: blobId(bytes, idLength), bytes };
}

/** A baseline blob as the engine may see it: every secret written as `[REDACTED_SECRET]`, as staging writes them. */
function redactedBlob(bytes: Buffer): Buffer {
  const text = decoder.decode(bytes);
  const redacted = redactAllSecrets(text);
  return redacted === text ? bytes : Buffer.from(redacted, 'utf8');
}

/**
 * Codex's `diff_since_latest_init` with the staged folder as the working tree and the live root's `.git` as the
 * baseline (read-only git plumbing). `phase2_workspace_diff.md` itself is never part of the comparison.
 * The staged folder holds no secret (staging hid each one, `hidden-secrets.ts`), and the diff, given to every engine,
 * holds none either: the baseline's texts are redacted the same way before they are compared and rendered, so a file
 * that differs from its baseline only by the secrets staging hid counts as unchanged.
 */
export async function diffAgainstBaseline(stagingRoot: string, liveRoot: string): Promise<WorkspaceDiff> {
  const notes: string[] = [];
  const base = await baselineTree(liveRoot, notes);
  const tree = base?.tree ?? new Map<string, TreeEntry>();
  const idLength = base?.idLength ?? 40;
  const { files } = await walkFiles(stagingRoot, [FILES.workspaceDiff]);
  const changed = new Map<string, { before: TreeEntry | null; after: (Side & { bytes: Buffer }) | null }>();
  for (let i = 0; i < files.length; i += READ_BATCH) {
    const batch = files.slice(i, i + READ_BATCH);
    const sides = await Promise.all(batch.map(async (path) => ({ path, after: await stagedSide(stagingRoot, path, idLength) })));
    for (const { path, after } of sides) {
      const before = tree.get(path) ?? null;
      if (!before || before.sha !== after.sha || before.mode !== after.mode) changed.set(path, { before, after: { ...after } });
    }
  }
  const present = new Set(files);
  for (const [path, entry] of tree) if (!present.has(path)) changed.set(path, { before: entry, after: null });
  const paths = [...changed.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const needed = [...new Set(paths.map((p) => changed.get(p)?.before?.sha).filter((s): s is string => s !== undefined))];
  const blobs = base ? await readBlobs(liveRoot, needed) : new Map<string, Buffer>();
  const redacted = new Map<string, Buffer>();
  const blobOf = (sha: string) => {
    let bytes = redacted.get(sha);
    if (!bytes) redacted.set(sha, (bytes = redactedBlob(blobs.get(sha) ?? Buffer.alloc(0))));
    return bytes;
  };
  const changes: WorkspaceChange[] = [];
  const sections: string[] = [];
  for (const path of paths) {
    const { before, after } = changed.get(path) as { before: TreeEntry | null; after: (Side & { bytes: Buffer }) | null };
    const beforeSide = before ? { mode: before.mode, bytes: blobOf(before.sha) } : null;
    // Equal once the baseline's secrets are hidden as staging hid them: the person changed nothing there.
    if (beforeSide && after && beforeSide.mode === after.mode && beforeSide.bytes.equals(after.bytes)) continue;
    changes.push({ label: !before ? 'A' : !after ? 'D' : 'M', path });
    sections.push(renderFileDiff(path, beforeSide, after ? { mode: after.mode, bytes: after.bytes } : null));
  }
  return { changes, unifiedDiff: sections.join(''), hasBaseline: base !== null, notes };
}
