// The sync clone in the data folder: created with `git init` + origin (never a copy of the remote's config or hooks),
// made exactly the remote's branch before every step, recreated when damaged. It holds nothing of its own.
import { lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StudioFailure } from '../platform/errors';
import { escapeControls } from '../platform/safe-path';
import { runSyncGit } from './git';
import { SYNC_BRANCH, type SyncPaths, type SyncSettings } from './state';

export const REMOTE_BRANCH = `refs/remotes/origin/${SYNC_BRANCH}`;

export interface CloneStep {
  signal?: AbortSignal;
  progress?: (line: string) => void;
}

async function isRepo(paths: SyncPaths, remote: string): Promise<boolean> {
  if (!(await lstat(join(paths.clone, '.git')).catch(() => null))?.isDirectory()) return false;
  const top = await runSyncGit(paths.clone, ['rev-parse', '--show-toplevel'], 'Reading the sync clone', remote, { allowFailure: true });
  return top.code === 0;
}

/**
 * The clone's own attributes, which win over any .gitattributes a remote carries: no filter (a person's git-lfs or any
 * smudge program never runs on remote content), no end-of-line or encoding conversion, so bytes are what was hashed.
 */
async function neutralAttributes(paths: SyncPaths): Promise<void> {
  await mkdir(join(paths.clone, '.git', 'info'), { recursive: true });
  await writeFile(join(paths.clone, '.git', 'info', 'attributes'), '* -filter -text -eol -working-tree-encoding -ident -export-subst\n');
}

/** Bounds on what a checkout of the remote may put on this disk, checked from the tree before anything is written. */
const TREE_LIMITS = { file: 65 * 1024 * 1024, total: 2 * 1024 * 1024 * 1024, entries: 500_000 };

/** Refuses a remote whose tree would fill the disk (one huge or many files) before it is checked out. */
async function checkRemoteTree(paths: SyncPaths, remote: string): Promise<void> {
  const tree = await runSyncGit(paths.clone, ['ls-tree', '-r', '-l', '-z', REMOTE_BRANCH], 'Reading the remote', remote);
  let total = 0;
  let entries = 0;
  for (const line of tree.stdout.split('\0')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const size = Number(line.slice(0, tab).trim().split(/\s+/)[3]);
    entries++;
    total += Number.isFinite(size) ? size : 0;
    if ((Number.isFinite(size) && size > TREE_LIMITS.file) || total > TREE_LIMITS.total || entries > TREE_LIMITS.entries)
      throw new StudioFailure(
        'Invalid',
        `The remote ${remote} holds more than sync ever writes (at ${escapeControls(line.slice(tab + 1))}: ${size} bytes; ${entries} files, ${total} bytes so far); nothing was checked out.`,
        {
          hint: 'Someone put files there that are not Memory Studio publications; remove them from the remote (or use another), then try again.',
        },
      );
  }
}

export async function createClone(paths: SyncPaths, remote: string): Promise<void> {
  // Only ever our own folder in the data folder: never a memory root, never its .git.
  await rm(paths.clone, { recursive: true, force: true });
  await mkdir(paths.clone, { recursive: true, mode: 0o700 });
  await runSyncGit(paths.clone, ['init', '-q', '-b', SYNC_BRANCH], 'Creating the sync clone', remote);
  await runSyncGit(paths.clone, ['remote', 'add', 'origin', remote], 'Creating the sync clone', remote);
}

/**
 * Makes the clone exactly the remote's branch (or empty when the remote has none yet): fetched, checked out, cleaned.
 * A damaged clone is recreated; nothing in it is lost, since the memory root is what a push publishes.
 */
export async function prepareClone(paths: SyncPaths, settings: SyncSettings, step: CloneStep): Promise<boolean> {
  const { remote } = settings;
  if (!(await isRepo(paths, remote))) await createClone(paths, remote);
  const url = await runSyncGit(paths.clone, ['config', '--get', 'remote.origin.url'], 'Reading the sync clone', remote, {
    allowFailure: true,
  });
  if (url.stdout.trim() !== remote) {
    await createClone(paths, remote);
  }
  step.progress?.(`Fetching from ${remote}…`);
  await runSyncGit(
    paths.clone,
    ['fetch', '--quiet', '--prune', 'origin', `+refs/heads/*:refs/remotes/origin/*`],
    'Fetching from the remote',
    remote,
    {
      signal: step.signal,
    },
  );
  const has = await runSyncGit(paths.clone, ['rev-parse', '--verify', '--quiet', REMOTE_BRANCH], 'Reading the sync clone', remote, {
    allowFailure: true,
  });
  await neutralAttributes(paths);
  if (has.code === 0) {
    await checkRemoteTree(paths, remote);
    await runSyncGit(paths.clone, ['checkout', '-q', '-f', '-B', SYNC_BRANCH, REMOTE_BRANCH], 'Checking out the remote', remote);
  } else {
    // An empty remote: start an unborn branch with an empty index.
    await runSyncGit(paths.clone, ['symbolic-ref', 'HEAD', `refs/heads/${SYNC_BRANCH}`], 'Preparing the sync clone', remote);
    await runSyncGit(paths.clone, ['update-ref', '-d', `refs/heads/${SYNC_BRANCH}`], 'Preparing the sync clone', remote, {
      allowFailure: true,
    });
    await runSyncGit(paths.clone, ['read-tree', '--empty'], 'Preparing the sync clone', remote);
  }
  await runSyncGit(paths.clone, ['clean', '-q', '-f', '-d', '-x'], 'Cleaning the sync clone', remote);
  return has.code === 0;
}

export async function head(paths: SyncPaths, remote: string): Promise<string | null> {
  const r = await runSyncGit(paths.clone, ['rev-parse', '--verify', '--quiet', 'HEAD'], 'Reading the sync clone', remote, {
    allowFailure: true,
  });
  return r.code === 0 ? r.stdout.trim() : null;
}
