// Read-only git plumbing for a memory root's baseline: never writes into `.git/` (no index refresh, no optional locks).
import { spawn } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { StudioFailure } from '../../platform/errors';
import { describeFileType, notRegular } from '../../platform/regular-file';

/** `git` is not installed (or not on PATH): the baseline cannot be read, which is not an error for the app. */
export class GitMissing extends Error {}

export interface TreeEntry {
  mode: string;
  type: string;
  sha: string;
  path: string;
}

/**
 * `--git-dir` points at the root's own `.git`, so git never discovers a repository above the root; commands are
 * plumbing that only reads objects (rev-parse, ls-tree, cat-file). GIT_OPTIONAL_LOCKS=0 and --no-optional-locks
 * forbid even the opportunistic index refresh some commands do.
 */
function gitArgs(root: string, args: readonly string[]): string[] {
  return ['--no-optional-locks', `--git-dir=${join(root, '.git')}`, '-c', 'core.fsmonitor=false', '-c', 'gc.auto=0', ...args];
}

const gitEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GIT_OPTIONAL_LOCKS: '0',
  GIT_TERMINAL_PROMPT: '0',
  GIT_NO_REPLACE_OBJECTS: '1',
  LC_ALL: 'C',
});

/**
 * git opens its files with a blocking open(2), so a FIFO in `.git/` would hold it (and the consolidation waiting on it,
 * with Codex's lease) for ever. The files every command here reads first are checked; anything else git would wait
 * on is ended by the deadline below.
 */
const GIT_FIRST_READS = ['HEAD', 'config', 'packed-refs', 'commondir'];
/** Object reads of a memory root take milliseconds; past this git is waiting on something that never answers. */
const GIT_DEADLINE_MS = 60_000;

async function checkGitFiles(root: string): Promise<void> {
  for (const name of GIT_FIRST_READS) {
    const info = await lstat(join(root, '.git', name)).catch(() => null);
    if (info && !info.isFile() && !info.isSymbolicLink()) throw notRegular(`.git/${name} in ${root}`, describeFileType(info));
  }
}

/** Runs git in `root`; resolves its stdout, rejects with its stderr; GitMissing when the binary is absent. */
export async function runGit(root: string, args: readonly string[], input?: Buffer): Promise<Buffer> {
  await checkGitFiles(root);
  return new Promise((resolve, reject) => {
    const child = spawn('git', gitArgs(root, args), { cwd: root, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new StudioFailure(
          'Unsupported',
          `git did not answer within ${GIT_DEADLINE_MS / 1000} s reading the baseline in ${join(root, '.git')}.`,
          {
            path: join(root, '.git'),
            hint: 'Something in the folder may be a named pipe, or the disk may be stalled; the memory files themselves were not touched.',
          },
        ),
      );
    }, GIT_DEADLINE_MS);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      reject(error.code === 'ENOENT' ? new GitMissing('git was not found on PATH') : error);
    });
    child.on('close', (code) => {
      clearTimeout(deadline);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`git ${args[0] ?? ''} failed (${code}): ${Buffer.concat(err).toString('utf8').trim()}`));
    });
    child.stdin.on('error', () => undefined); // git may exit before reading all of stdin; its exit code tells.
    child.stdin.end(input ?? Buffer.alloc(0));
  });
}

/** The HEAD commit and its committer time (ms), or null when the repository has no commit yet. */
export async function headCommit(root: string): Promise<{ commit: string; committedAt: number | null } | null> {
  let commit: string;
  try {
    commit = (await runGit(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).toString('utf8').trim();
  } catch (error) {
    if (error instanceof GitMissing || error instanceof StudioFailure) throw error;
    return null;
  }
  if (!commit) return null;
  const body = (await runGit(root, ['cat-file', 'commit', commit])).toString('utf8');
  const committer = /^committer .* (\d+) [+-]\d{4}$/m.exec(body);
  return { commit, committedAt: committer ? Number(committer[1]) * 1000 : null };
}

/** Every entry of the commit's tree, recursively (`ls-tree -r -z`, so any file name is parsed exactly). */
export async function listTree(root: string, commit: string): Promise<TreeEntry[]> {
  const out = (await runGit(root, ['ls-tree', '-r', '-z', '--full-tree', commit])).toString('utf8');
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode = '', type = '', sha = ''] = record.slice(0, tab).split(' ');
    entries.push({ mode, type, sha, path: record.slice(tab + 1) });
  }
  return entries;
}

/** Blob contents by object id, all in one `cat-file --batch`. */
export async function readBlobs(root: string, shas: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  if (shas.length === 0) return blobs;
  const out = await runGit(root, ['cat-file', '--batch'], Buffer.from(`${shas.join('\n')}\n`, 'utf8'));
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol === -1) break;
    const [sha = '', type = '', size = ''] = out.subarray(at, eol).toString('utf8').split(' ');
    at = eol + 1;
    if (type === 'missing' || size === '') continue;
    const length = Number(size);
    blobs.set(sha, out.subarray(at, at + length));
    at += length + 1;
  }
  return blobs;
}
