// Staging for a consolidation: a copy of the live root (no .git, no symlinks) synced as Codex's Phase 2 syncs it, plus its workspace diff.
import { link as fsLink, lstat, mkdir, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import { FILES, REDACTED_SECRET } from '../codex/constants';
import { redactAllSecrets } from '../lint';
import { StudioFailure } from '../platform/errors';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { troubleAt, writeTroubleWords } from '../platform/storage-faults';
import { extensionResourceInfo } from '../codex/extension-resources';
import { renderRawMemoriesFile, renderRolloutSummaryFile, rolloutSummaryFileName } from '../formats/phase2-files';
import type { Phase2Selection, ProgressFn, StageResult } from './types';
import { hiddenNote, hideSecretsInStaging } from './hidden-secrets';
import { diffAgainstBaseline, renderWorkspaceDiffFile, walkFiles, type WalkedFiles } from './workspace-diff';

export interface StageOptions {
  liveRoot: string;
  stagingDir: string;
  version: MemoryVersion;
  selection: Phase2Selection;
  nowSec: number;
  signal: AbortSignal;
  progress: ProgressFn;
  /**
   * Hard-link the rollout summaries instead of copying them (falls back to a copy across file systems). Only for an
   * engine that provably never writes them in place (the builtin engine writes two artifacts and nothing else): an
   * agent editing a linked file in place would edit the live one. The sync itself never writes in place (below).
   */
  linkRolloutSummaries?: boolean;
}

const COPY_CONCURRENCY = 32;

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The staging folder must be new or empty: staging never merges into (or deletes) something else. */
async function prepareStagingDir(stagingDir: string): Promise<void> {
  const info = await lstat(stagingDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (info && (!info.isDirectory() || (await readdir(stagingDir)).length > 0)) {
    throw new StudioFailure(
      'Conflict',
      `The staging folder ${stagingDir} already exists and is not empty, so the consolidation cannot stage into it.`,
      {
        path: stagingDir,
        hint: 'Each run needs a fresh staging folder; remove the old one or start a new run.',
      },
    );
  }
  await mkdir(stagingDir, { recursive: true });
}

/** Copies `files` with at most COPY_CONCURRENCY in flight, checking the signal before each file. */
/** Rollout summaries are the bulk of a root (4,096 files on a heavy one) and are only read by the builtin engine. */
const isRolloutSummary = (rel: string) =>
  rel.startsWith(`${FILES.rolloutSummariesDir}/`) && rel.endsWith('.md') && rel.split('/').length === 2;

/** A hard link where allowed and possible (same file system); else the copy. Copying 4,096 small files took seconds here. */
async function linkOrCopy(from: string, to: string, link: boolean): Promise<void> {
  if (link) {
    const linked = await fsLink(from, to).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EXDEV' || error.code === 'EPERM' || error.code === 'ENOTSUP' || error.code === 'EMLINK') return false;
        throw error;
      },
    );
    if (linked) return;
  }
  // Read through the platform's regular-file read: a FIFO swapped in since the listing is refused, never waited on
  // (copyFile's own open would block). 'wx' never overwrites, and the copy keeps the mode (exec bit).
  const { bytes, info } = await readRegularFile(from, from, NO_CAP);
  await writeFile(to, bytes, { flag: 'wx', mode: info.mode & 0o777 });
}

async function copyFiles(
  liveRoot: string,
  stagingDir: string,
  files: string[],
  signal: AbortSignal,
  progress: ProgressFn,
  linkSummaries: boolean,
): Promise<void> {
  // One queue the workers share: each takes the next file.
  const queue = files.values();
  let done = 0;
  // One mkdir per folder, not per file (4,096 rollout summaries share one folder).
  const made = new Map<string, Promise<unknown>>();
  const ensureDir = (dir: string) => {
    let pending = made.get(dir);
    if (!pending) made.set(dir, (pending = mkdir(dir, { recursive: true })));
    return pending;
  };
  const worker = async (): Promise<void> => {
    for (const rel of queue) {
      signal.throwIfAborted();
      const to = join(stagingDir, ...rel.split('/'));
      await ensureDir(dirname(to));
      await linkOrCopy(join(liveRoot, ...rel.split('/')), to, linkSummaries && isRolloutSummary(rel));
      done++;
      if (done % 200 === 0 || done === files.length)
        progress(`Copied ${done} of ${files.length} files`, files.length === 0 ? 1 : done / files.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, files.length) }, worker));
  signal.throwIfAborted();
}

/**
 * A FIFO, socket or device in the live folder stops the run before anything is copied: staging could not copy it,
 * and the proposal would then replace (or delete) something that is not a file. Reading one used to hang the run.
 */
function refuseSpecialFiles(version: MemoryVersion, special: WalkedFiles['special']): void {
  const first = special[0];
  if (!first) return;
  const which = special.map((s) => `${s.path} is ${s.what}`).join('; ');
  throw new StudioFailure('Invalid', `${which}, not a regular file, in the ${version} memory folder, so the consolidation does not run.`, {
    path: first.path,
    hint: 'A memory folder holds plain files only: remove or move it, then start the consolidation again.',
  });
}

/** A staged file's text, or null when there is none (a folder in its place counts as none). */
async function readOrNull(path: string): Promise<string | null> {
  return readRegularFile(path, path, NO_CAP).then(
    (file) => file.bytes.toString('utf8'),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EISDIR') return null;
      throw error;
    },
  );
}

/** What the sync did: the files it wrote or removed, those whose text from Codex's DB held a secret, all it rendered. */
interface SyncLog {
  synced: StageResult['synced'];
  redacted: string[];
  /** Every file the sync rendered (written or left as identical): redacted already, so not scanned again. */
  rendered: Set<string>;
}

/**
 * Writes `content` at `rel` and files it as added or rewritten (an identical file is left alone). Never in place: the
 * old name is unlinked first, so a staged file hard-linked to the live one is replaced, never written through.
 * A secret in the text (stage-1 output Codex's own four patterns missed) is written as `[REDACTED_SECRET]`, by the
 * redactor the import gate uses: no engine reads it, and the proposal redacts the live file too.
 */
async function writeSynced(root: string, rel: string, rendered: string, log: SyncLog): Promise<void> {
  const { synced } = log;
  const content = redactAllSecrets(rendered);
  log.rendered.add(rel);
  if (content !== rendered) log.redacted.push(rel);
  const abs = join(root, ...rel.split('/'));
  const before = await readOrNull(abs);
  if (before === content) return;
  if (before !== null) await unlink(abs);
  await writeFile(abs, content, { encoding: 'utf8', flag: 'wx' });
  (before === null ? synced.added : synced.rewritten).push(rel);
}

/** `rollout_summaries/` becomes exactly the selection: other `.md` files there are deleted (Codex's prune), the selection is (re)written. */
async function syncRolloutSummaries(root: string, selection: Phase2Selection, log: SyncLog): Promise<void> {
  const { synced } = log;
  const dir = join(root, FILES.rolloutSummariesDir);
  await mkdir(dir, { recursive: true });
  const keep = new Set(selection.rows.map((r) => rolloutSummaryFileName(r)));
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.name.endsWith('.md') || keep.has(entry.name) || entry.isDirectory()) continue;
    await rm(join(dir, entry.name), { force: true });
    synced.removed.push(`${FILES.rolloutSummariesDir}/${entry.name}`);
  }
  // In parallel (bounded): one at a time, reading back 4,096 summaries took a second on a heavy root.
  const queue = selection.rows.values();
  const worker = async (): Promise<void> => {
    for (const row of queue) {
      await writeSynced(root, `${FILES.rolloutSummariesDir}/${rolloutSummaryFileName(row)}`, renderRolloutSummaryFile(row), log);
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, selection.rows.length) }, worker));
}

/**
 * Codex's `prune_old_extension_resources` on a root, as relative paths: flat `.md` files directly in
 * `extensions/<ext>/resources/` whose name timestamp is at least 7 days old, only where `instructions.md` exists.
 */
export async function expiredExtensionResources(root: string, nowSec: number): Promise<string[]> {
  const extRoot = join(root, FILES.extensionsDir);
  const expired: string[] = [];
  const extensions = await readdir(extRoot, { withFileTypes: true }).catch(() => []);
  for (const ext of extensions) {
    if (!ext.isDirectory() || !(await stat(join(extRoot, ext.name, 'instructions.md')).catch(() => null))) continue;
    const resources = await readdir(join(extRoot, ext.name, 'resources'), { withFileTypes: true }).catch(() => []);
    for (const entry of resources) {
      const rel = `${FILES.extensionsDir}/${ext.name}/resources/${entry.name}`;
      if (entry.isFile() && extensionResourceInfo(rel, nowSec, new Set([ext.name]))?.expired) expired.push(rel);
    }
  }
  return expired.sort();
}

async function sync(root: string, options: StageOptions, log: SyncLog): Promise<void> {
  const { synced } = log;
  await syncRolloutSummaries(root, options.selection, log);
  if (options.version === 'v1') await writeSynced(root, FILES.rawMemories, renderRawMemoriesFile(options.selection.rows), log);
  for (const rel of await expiredExtensionResources(root, options.nowSec)) {
    await rm(join(root, ...rel.split('/')), { force: true });
    synced.removed.push(rel);
  }
  synced.added.sort();
  synced.removed.sort();
  synced.rewritten.sort();
}

/**
 * Stages a consolidation in `stagingDir` (new or empty): copies the live root without `.git/`, the old workspace
 * diff and symlinks (each symlink is noted), syncs it as Codex's Phase 2 does, writes every secret left in the copy
 * as `[REDACTED_SECRET]` (`hidden`: no engine reads one), and writes `phase2_workspace_diff.md` against the live
 * root's git baseline, redacted alike. The live root and its `.git/` are only read.
 */
export async function stageRoot(options: StageOptions): Promise<StageResult> {
  const { liveRoot, stagingDir, signal } = options;
  signal.throwIfAborted();
  const rootInfo = await lstat(liveRoot).catch(() => null);
  if (!rootInfo?.isDirectory()) {
    throw new StudioFailure(
      'NotFound',
      `There is no ${options.version} memory folder at ${liveRoot} to stage (or it is a symlink, which Codex refuses).`,
      {
        path: liveRoot,
        hint: 'Codex creates the folder at its first memory run; pick a home whose memories exist.',
      },
    );
  }
  try {
    return await stageInto(options);
  } catch (error) {
    throw stagingFailure(error, stagingDir, options.version);
  }
}

/** The error codes of a write that found no room or no right to write: always about the staging side of a copy. */
const WRITE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS']);

/**
 * A write into staging that failed names the staging file and says it is Memory Studio's own copy in the data folder,
 * not the live file it was copied from (a failed `copyFile` carries the source as its `path`). Read errors of the live
 * folder, and anything else, are left as they are.
 */
export function stagingFailure(error: unknown, stagingDir: string, version: MemoryVersion): unknown {
  if (error instanceof StudioFailure) return error;
  const e = error as NodeJS.ErrnoException & { dest?: string };
  const code = e?.code ?? '';
  const inStaging = (p: string | undefined) => p !== undefined && isInside(stagingDir, p);
  const target = inStaging(e?.dest) ? e.dest : inStaging(e?.path) ? e.path : WRITE_CODES.has(code) ? (e?.dest ?? stagingDir) : undefined;
  const trouble = target === undefined ? null : troubleAt(error, target);
  if (target === undefined || trouble === null || trouble === 'missing') return error;
  return new StudioFailure(
    'Unsupported',
    `Memory Studio could not write its staging copy of the ${version} memory folder (${target}): ${writeTroubleWords(trouble, error)}. That copy is Memory Studio's own, in its data folder (${stagingDir}); your memory folder was not touched.`,
    {
      path: target,
      fault: 'staging-write',
      cause: error,
      hint: "Free some space on the data folder's disk (or choose another data folder with --data-dir or MEMORY_STUDIO_DATA), then run again.",
    },
  );
}

async function stageInto(options: StageOptions): Promise<StageResult> {
  const { liveRoot, stagingDir, signal, progress } = options;
  await prepareStagingDir(stagingDir);
  progress('Listing the live memory folder', 0);
  const { files, symlinks, special } = await walkFiles(liveRoot, [FILES.workspaceDiff]);
  refuseSpecialFiles(options.version, special);
  const notes = symlinks.map((p) => `${p} is a symlink in the live folder; it was not copied (Codex deletes symlinks in a memory folder).`);
  await copyFiles(liveRoot, stagingDir, files, signal, progress, options.linkRolloutSummaries === true);
  progress('Syncing rollout summaries and raw memories as Codex does', 1);
  const synced: StageResult['synced'] = { added: [], removed: [], rewritten: [] };
  const log: SyncLog = { synced, redacted: [], rendered: new Set() };
  await sync(stagingDir, options, log);
  for (const rel of log.redacted.sort())
    notes.push(
      `${rel}: Codex's stage-1 output holds a secret; it was staged as ${REDACTED_SECRET}, so no engine reads it and the result redacts the file.`,
    );
  signal.throwIfAborted();
  // Everything copied from the live folder (notes, MEMORY.md, the summary, skills, resources) too: no engine reads a
  // secret, and the openai engine would send it off the machine.
  progress('Hiding secrets from the engine', 1);
  const hidden = await hideSecretsInStaging(stagingDir, log.rendered, signal);
  for (const h of hidden) notes.push(hiddenNote(h));
  progress('Diffing against the git baseline', 1);
  const diff = await diffAgainstBaseline(stagingDir, liveRoot);
  await writeFile(join(stagingDir, FILES.workspaceDiff), renderWorkspaceDiffFile(diff), 'utf8');
  return { stagingRoot: stagingDir, synced, workspaceChanged: diff.changes.length > 0, hidden, notes: [...notes, ...diff.notes] };
}
