// Lists a memory root's files by kind and reads one file safely (inside the root, no symlinks, capped, UTF-8).
import { type Dirent, type Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic, FileContent, FileEntry, FileKind, FileList, MemoryVersion } from '../../../shared/domain';
import { fileKinds } from '../../../shared/file-kinds';
import { FILES, isBaselineDirName } from './constants';
import { activeExtensions, extensionResourceInfo } from './extension-resources';
import { StudioFailure } from '../platform/errors';
import { describeFileType, notRegular, readRegularFile } from '../platform/regular-file';
import { checkRelativePath, resolveInsideRoot } from '../platform/safe-path';
import { decodeUtf8Strict, findInvalidUtf8 } from '../platform/utf8';

/** Files bigger than this are refused by `readMemoryFile` with a clear error instead of freezing the editor. */
export const DEFAULT_READ_CAP_BYTES = 16 * 1024 * 1024;

/**
 * The largest memory file lint, the index, consolidation and review read (a MEMORY.md grows past the editor's cap
 * long before it reaches this); above it a file is reported as too big, with its size, and left alone.
 */
export const ANALYSIS_CAP_BYTES = 64 * 1024 * 1024;

/** Whether Codex puts the file into every session's prompt, cut to its token budget: only the root's memory_summary.md. */
export function isInjected(path: string): boolean {
  return path === FILES.summary;
}

/** People curate the summary, MEMORY.md, skills and notes; Codex rebuilds raw memories and rollout summaries from its DB. */
const EDITING: Partial<Record<FileKind, FileContent['editing']>> = {
  summary: 'curated',
  memory: 'curated',
  skill: 'curated',
  'skill-file': 'curated',
  'ad-hoc-note': 'curated',
  'raw-memories': 'regenerated',
  'rollout-summary': 'regenerated',
};

/** What an edit of a file of this kind amounts to (FileContent.editing). */
export function editingOf(kind: FileKind): FileContent['editing'] {
  return EDITING[kind] ?? 'none';
}

/** The kind of a root-relative path (with `/` separators), by Codex's layout (docs/codex-facts.md, Memory root layout). */
export function classifyPath(path: string): FileKind {
  const slash = path.indexOf('/');
  if (slash === -1) {
    if (path === FILES.summary) return 'summary';
    if (path === FILES.memory) return 'memory';
    if (path === FILES.rawMemories) return 'raw-memories';
    if (path === FILES.workspaceDiff) return 'workspace-diff';
    return 'unknown';
  }
  const first = path.slice(0, slash);
  // The common case first, without splitting: thousands of rollout summaries per root.
  if (first === FILES.rolloutSummariesDir)
    return path.indexOf('/', slash + 1) === -1 && path.endsWith('.md') ? 'rollout-summary' : 'unknown';
  const parts = path.split('/');
  const [, second, third] = parts;
  if (first === FILES.skillsDir) return parts.length === 3 && third === 'SKILL.md' ? 'skill' : parts.length >= 3 ? 'skill-file' : 'unknown';
  if (first === FILES.extensionsDir && parts.length >= 3) {
    if (second === 'ad_hoc' && third === 'notes' && parts.length === 4 && path.endsWith('.md')) return 'ad-hoc-note';
    if (parts.length === 3 && third === 'instructions.md') return 'extension-instructions';
    if (parts.length === 3 && third === 'manifest.json') return 'extension-manifest';
    if (third === 'resources' && parts.length >= 4)
      return parts[parts.length - 1] === 'scope.json' ? 'extension-scope' : 'extension-resource';
  }
  return 'unknown';
}

export function emptyCounts(): Record<FileKind, number> {
  return Object.fromEntries(fileKinds.map((kind) => [kind, 0])) as Record<FileKind, number>;
}

export interface WalkState {
  root: string;
  files: FileEntry[];
  diagnostics: Diagnostic[];
}

const STAT_BATCH = 64;

/** Splits one folder's entries into sub-folders and files to stat; special files and `.git/` are noted or skipped. */
export function sortEntries(
  state: WalkState,
  relDir: string,
  entries: ReadonlyArray<Pick<Dirent, 'name' | 'isFile' | 'isDirectory' | 'isSymbolicLink'>>,
): { subdirs: string[]; fileNames: string[] } {
  const subdirs: string[] = [];
  const fileNames: string[] = [];
  for (const entry of entries) {
    const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
    if (relDir === '' && isBaselineDirName(entry.name)) continue; // Codex's git baseline: never listed, never touched.
    if (entry.isDirectory()) subdirs.push(rel);
    else if (entry.isFile() || entry.isSymbolicLink()) fileNames.push(rel);
    else
      state.diagnostics.push({
        severity: 'warning',
        rule: 'workspace/special-file',
        message: `${rel} is not a regular file (socket, device or pipe) and is ignored.`,
        path: rel,
      });
  }
  return { subdirs, fileNames };
}

export const unreadableFolder = (relDir: string, error: unknown): Diagnostic => ({
  severity: 'warning',
  rule: 'workspace/unreadable-folder',
  message: `The folder ${relDir || '.'} cannot be read (${(error as Error).message}); its files are not listed.`,
  path: relDir || '.',
});

/** Adds one stat'ed file to the listing (a symlink is listed and flagged, never followed). */
export function addFileEntry(state: WalkState, rel: string, info: Pick<Stats, 'size' | 'mtimeMs' | 'isSymbolicLink'>): FileEntry {
  const symlink = info.isSymbolicLink();
  const entry: FileEntry = { path: rel, kind: classifyPath(rel), size: info.size, mtimeMs: Math.round(info.mtimeMs), symlink };
  state.files.push(entry);
  if (symlink) {
    state.diagnostics.push({
      severity: 'warning',
      rule: 'workspace/symlink',
      message: `${rel} is a symlink. Memory Studio does not follow it, and Codex deletes symlinks in the memory folder at its next run.`,
      path: rel,
    });
  }
  return entry;
}

async function walk(state: WalkState, relDir: string): Promise<void> {
  let entries: Dirent[];
  const absDir = relDir === '' ? state.root : join(state.root, relDir);
  try {
    entries = await readdir(absDir, { withFileTypes: true });
  } catch (error) {
    state.diagnostics.push(unreadableFolder(relDir, error));
    return;
  }
  const { subdirs, fileNames } = sortEntries(state, relDir, entries);
  for (let i = 0; i < fileNames.length; i += STAT_BATCH) {
    const batch = fileNames.slice(i, i + STAT_BATCH);
    const infos = await Promise.all(batch.map((rel) => lstat(join(state.root, rel)).catch(() => null)));
    batch.forEach((rel, k) => {
      const info = infos[k];
      if (info) addFileEntry(state, rel, info); // Removed between readdir and lstat: the watcher will refresh the list.
    });
  }
  for (const dir of subdirs) await walk(state, dir);
}

/** Marks each extension resource with what Codex's 7-day pruner does to it (in place). */
export function describeResources(files: FileEntry[], nowSec: number): void {
  // By kind, so the thousands of rollout summaries of a heavy root are not split into path parts each time.
  const resources = files.filter((f) => f.kind === 'extension-resource');
  if (resources.length === 0) return;
  const active = activeExtensions(files.filter((f) => f.kind === 'extension-instructions').map((f) => f.path));
  for (const file of resources) {
    const info = extensionResourceInfo(file.path, nowSec, active);
    if (info) file.resource = info;
  }
}

export async function listMemoryRoot(root: string, version: MemoryVersion, nowSec = Math.floor(Date.now() / 1000)): Promise<FileList> {
  const info = await lstat(root).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? missingRoot(root, version) : error;
  });
  checkRootInfo(root, version, info);
  const state: WalkState = { root, files: [], diagnostics: [] };
  await walk(state, '');
  return finishList(state, version, nowSec);
}

/** Checks that `root` is a real folder, as Codex requires of a memory root; the failure says what to do. */
export function checkRootInfo(root: string, version: MemoryVersion, info: Pick<Stats, 'isSymbolicLink' | 'isDirectory'>): void {
  if (info.isSymbolicLink()) {
    throw new StudioFailure(
      'Unsupported',
      `The ${version} memory folder ${root} is a symlink; Codex refuses symlinked memory roots, so it is not listed.`,
      { path: root, hint: 'Replace the symlink with the real folder.' },
    );
  }
  if (!info.isDirectory()) throw new StudioFailure('Invalid', `${root} is not a folder.`, { path: root });
}

export const missingRoot = (root: string, version: MemoryVersion) =>
  new StudioFailure('NotFound', `There is no ${version} memory folder at ${root}.`, {
    path: root,
    hint: 'Codex creates it the first time it writes memories with this version.',
  });

/** The walk's files sorted by path, with resource notes, counts and total size: a FileList. */
export function finishList(state: WalkState, version: MemoryVersion, nowSec: number): FileList {
  state.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  describeResources(state.files, nowSec);
  const counts = emptyCounts();
  let totalBytes = 0;
  for (const file of state.files) {
    counts[file.kind]++;
    totalBytes += file.size;
  }
  return { version, root: state.root, files: state.files, counts, totalBytes, diagnostics: state.diagnostics };
}

const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`);

/** Reads one file of a root: refuses escapes, symlinks, folders, oversized, binary and invalid UTF-8 with clear errors. */
export async function readMemoryFile(
  root: string,
  version: MemoryVersion,
  relPath: string,
  capBytes = DEFAULT_READ_CAP_BYTES,
): Promise<FileContent> {
  const abs = await resolveInsideRoot(root, relPath, { mustExist: true });
  return readCheckedFile(abs, version, relPath, capBytes);
}

/**
 * A reader for many listed files of one root (lint, scans): each folder's path is proven safe once (lstat chain
 * and real path, as readMemoryFile does per file), then each file is read in one call with O_NOFOLLOW. The listed
 * size is checked against the cap before reading, so a huge file is refused without being loaded.
 */
export function createRootReader(
  root: string,
  version: MemoryVersion,
  capBytes = ANALYSIS_CAP_BYTES,
  /** Report the mtime the read itself saw (the history's snapshot), not the listed one when the size agrees. */
  readMtime = false,
): (entry: Pick<FileEntry, 'path' | 'size' | 'mtimeMs'>) => Promise<FileContent> {
  const checkedFolders = new Map<string, Promise<string>>();
  return async (entry) => {
    const relPath = entry.path;
    const slash = relPath.lastIndexOf('/');
    const folder = slash === -1 ? '' : relPath.slice(0, slash);
    const name = relPath.slice(slash + 1);
    checkRelativePath(name);
    let checked = checkedFolders.get(folder);
    if (!checked)
      checkedFolders.set(folder, (checked = folder === '' ? resolveRoot(root) : resolveInsideRoot(root, folder, { mustExist: true })));
    if (entry.size > capBytes) throw tooBig(relPath, entry.size, capBytes);
    const file = await readRegularFile(join(await checked, name), relPath, capBytes, (size) => tooBig(relPath, size, capBytes));
    return decodeChecked(file.bytes, version, relPath, !readMtime && entry.size === file.size ? entry.mtimeMs : file.mtimeMs);
  };
}

/** The root itself, refused when it is a symlink (Codex refuses symlinked roots). */
async function resolveRoot(root: string): Promise<string> {
  const info = await lstat(root);
  if (info.isSymbolicLink())
    throw new StudioFailure('Unsupported', `The memory folder ${root} is a symlink; Codex refuses symlinked memory roots.`, { path: root });
  return root;
}

const tooBig = (relPath: string, size: number, capBytes: number) =>
  capBytes <= DEFAULT_READ_CAP_BYTES
    ? new StudioFailure(
        'Unsupported',
        `${relPath} is ${formatBytes(size)}, more than the ${formatBytes(capBytes)} Memory Studio opens in the editor.`,
        {
          path: relPath,
          hint: "Search it with Memory Studio's search or rg, or open it in a text editor; Codex itself never injects more than the summary budget.",
        },
      )
    : new StudioFailure(
        'Unsupported',
        `${relPath} is ${formatBytes(size)}, more than the ${formatBytes(capBytes)} Memory Studio reads from one memory file.`,
        {
          path: relPath,
          hint: 'Split it or move old parts out (Codex reads MEMORY.md with search tools, not whole); then Memory Studio lints, reviews and consolidates it again.',
        },
      );

async function readCheckedFile(abs: string, version: MemoryVersion, relPath: string, capBytes: number): Promise<FileContent> {
  // lstat first: a FIFO, socket or device is refused without being opened; the open is non-blocking and re-checked
  // with fstat, and O_NOFOLLOW closes the gap between the lstat checks and the open (a symlink swapped in meanwhile).
  const info = await lstat(abs).catch(() => null);
  if (info && !info.isFile()) throw info.isSymbolicLink() ? symlinkFailure(relPath) : notRegular(relPath, describeFileType(info));
  const file = await readRegularFile(abs, relPath, capBytes, (size) => tooBig(relPath, size, capBytes));
  return decodeChecked(file.bytes, version, relPath, file.mtimeMs);
}

const symlinkFailure = (relPath: string) =>
  new StudioFailure('Unsupported', `${relPath} is a symlink; Memory Studio never follows symlinks in a memory folder.`, { path: relPath });

/** Refuses binary and invalid UTF-8 content with what to do next; decodes exactly (a BOM is kept). */
function decodeChecked(bytes: Buffer, version: MemoryVersion, relPath: string, mtimeMs: number): FileContent {
  if (bytes.includes(0)) {
    throw new StudioFailure('Unsupported', `${relPath} looks binary (it contains NUL bytes), so it is not shown as text.`, {
      path: relPath,
      hint: 'Memory files are Markdown; if this file does not belong here, remove it.',
    });
  }
  const content = decodeUtf8Strict(bytes);
  if (content === null) {
    const problem = findInvalidUtf8(bytes);
    throw new StudioFailure(
      'Invalid',
      `${relPath} is not valid UTF-8 (first bad byte at offset ${problem?.byteOffset ?? '?'}, line ${problem?.line ?? '?'}).`,
      {
        path: relPath,
        hint: 'Codex writes UTF-8; re-save the file as UTF-8 to make it readable.',
      },
    );
  }
  const lineCount = content.length === 0 ? 0 : content.split('\n').length;
  const eol = content.includes('\r\n') ? 'crlf' : content.includes('\n') ? 'lf' : 'none';
  const kind = classifyPath(relPath);
  return {
    version,
    path: relPath,
    kind,
    content,
    size: bytes.length,
    mtimeMs,
    lineCount,
    eol,
    injected: isInjected(relPath),
    editing: editingOf(kind),
  };
}
