// This owner's folder of the clone: whether it already holds a publication, and writing one (only what changed).
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseRecord } from '../platform/record-json';
import { runSyncGit } from './git';
import { ManifestSchema, manifestOf } from './manifest';
import type { Publication, PublishedFile } from './publish';
import type { SyncPaths, SyncSettings } from './state';

/** Whether the folder already holds exactly this publication: the same files with the same hashes, and the same scope. */
export async function sameAsPublished(
  dir: string,
  files: readonly { path: string; sha256: string }[],
  scopeProject: string | null,
): Promise<boolean> {
  const bytes = await readFile(join(dir, 'manifest.json')).catch(() => null);
  if (!bytes) return false;
  const parsed = parseRecord(ManifestSchema, bytes);
  if (!parsed.ok || parsed.value.files.length !== files.length || parsed.value.scopeProject !== scopeProject) return false;
  return parsed.value.files.every((f, i) => f.path === files[i]?.path && f.sha256 === files[i]?.sha256);
}

/** Every file under `dir`, relative with `/` (the clone's own folder: nothing in it is a symlink, core.symlinks is off). */
async function filesIn(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true }).catch(() => [])) {
    const path = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) out.push(...(await filesIn(dir, path)));
    else out.push(path);
  }
  return out;
}

/**
 * This owner's folder of the clone made exactly the publication: its files and a manifest of their hashes. Only what
 * changed is written (a file whose hash the last manifest already names is left as checked out), so git re-hashes only
 * those: a one-line change to a 4,000-file publication writes one file.
 */
export async function writePublication(
  dir: string,
  pub: Publication,
  settings: SyncSettings,
  now: number,
  rewrite: ReadonlySet<string>,
): Promise<void> {
  const filesDir = join(dir, 'files');
  const wanted = new Set(pub.files.map((f) => f.path));
  for (const stale of await filesIn(filesDir)) if (!wanted.has(stale)) await rm(join(filesDir, ...stale.split('/')), { force: true });
  for (const f of pub.files) {
    const target = join(filesDir, ...f.path.split('/'));
    // `rewrite`: what the checked-out tree does not hold byte for byte (git's blob ids, not the remote's manifest).
    if (!rewrite.has(f.path) && (await lstat(target).catch(() => null))?.isFile()) continue;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, f.text);
  }
  await mkdir(dir, { recursive: true });
  const manifest = manifestOf(settings.owner, pub.version, pub.files, settings.scopeProject, now);
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

export async function commitPublication(paths: SyncPaths, remote: string, who: string, message: string): Promise<void> {
  const identity = ['-c', `user.name=Memory Studio (${who})`, '-c', `user.email=${who}@memory-studio.invalid`];
  await runSyncGit(paths.clone, [...identity, 'commit', '-q', '--allow-empty', '-m', message], 'Committing the publication', remote);
}

/** Git's id of a blob holding `text` (SHA-1 of "blob <size>\\0" and the bytes), to compare with a tree without reading it. */
function blobId(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * The paths of `files/` in this owner's folder at `rev` that do not hold the publication's bytes, or that should not be
 * there: empty when the commit carries exactly the publication (a tampered remote or a skipped file shows here).
 */
export async function treeDiffers(
  paths: SyncPaths,
  remote: string,
  rev: string,
  folder: string,
  files: readonly PublishedFile[],
): Promise<string[]> {
  const listed = await runSyncGit(paths.clone, ['ls-tree', '-r', '-z', rev, '--', `${folder}/files/`], 'Reading the sync clone', remote, {
    allowFailure: true,
  });
  const prefix = `${folder}/files/`;
  const have = new Map<string, string>();
  for (const line of listed.stdout.split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    have.set(line.slice(tab + 1).slice(prefix.length), line.slice(0, tab).split(' ')[2] ?? '');
  }
  const wrong = files.filter((f) => have.get(f.path) !== blobId(f.text)).map((f) => f.path);
  const wanted = new Set(files.map((f) => f.path));
  return [...wrong, ...[...have.keys()].filter((p) => !wanted.has(p))];
}
