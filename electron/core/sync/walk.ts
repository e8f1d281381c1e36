// One walk of a memory root for everything sync reads from it (a push's publication, an export): regular files only,
// never through a symlink, `.git` anywhere and Codex's baseline folders at the root left out, and what it cannot take
// named with why, for each caller to say in its own words.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describeFileType } from '../platform/regular-file';
import { isBaselineDirName, isGitName, isSafeRelativePath } from '../platform/safe-path';

export type SkipWhy = 'symlink' | 'unsafe-name' | 'special' | 'unreadable';

export interface RootWalk {
  /** Root-relative, `/`-separated, sorted. */
  files: string[];
  skipped: { path: string; why: SkipWhy; detail: string }[];
}

const skipAtRoot = (name: string) => isBaselineDirName(name) || name.toLowerCase().startsWith('.codex-baseline');

export async function walkRoot(root: string): Promise<RootWalk> {
  const walked: RootWalk = { files: [], skipped: [] };
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      // The root itself missing is an empty root, not a problem.
      if (rel !== '' || error.code !== 'ENOENT')
        walked.skipped.push({ path: rel === '' ? '.' : rel, why: 'unreadable', detail: error.code ?? error.message });
      return [];
    });
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (isGitName(e.name) || (rel === '' && skipAtRoot(e.name))) continue;
      if (e.isSymbolicLink()) walked.skipped.push({ path, why: 'symlink', detail: '' });
      else if (!isSafeRelativePath(path)) walked.skipped.push({ path, why: 'unsafe-name', detail: '' });
      else if (e.isDirectory()) await walk(join(dir, e.name), path);
      else if (e.isFile()) walked.files.push(path);
      else walked.skipped.push({ path, why: 'special', detail: describeFileType(e) });
    }
  };
  await walk(root, '');
  walked.files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return walked;
}
