// System git as a process for the sync clone: the person's own git, credentials and transport; errors in their words.
import { spawn } from 'node:child_process';
import { cancelledFailure, StudioFailure } from '../platform/errors';

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface GitOptions {
  /** The caller's cancel: git is killed and the step fails as Cancelled (the clone is reset before its next use). */
  signal?: AbortSignal;
  /** A network step that hangs past this is killed (default two minutes). */
  timeoutMs?: number;
  /** Returns a non-zero exit as a result instead of a failure (for probes such as `ls-remote`). */
  allowFailure?: boolean;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Settings every sync command runs with: no prompt for a password (a terminal git would open is not ours; a credential
 * helper or SSH agent still answers), no pager, no signing prompt, no hooks of the person's global config in our clone,
 * and messages in English so they can be classified.
 */
function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    LC_ALL: 'C',
    LANGUAGE: 'C',
    // An SSH remote without an agent or key must fail, not ask for a passphrase on a terminal nobody sees.
    GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes',
  };
}

/**
 * Settings of every command: no hooks, no signing prompt, no background gc, bytes as they are (no CRLF conversion), a
 * symlink in the remote checked out as a plain file, and the person's global ignore rules left out (a published file
 * must never be skipped by `git add`). The clone's own info/attributes (engine.ts) turns off every filter and
 * conversion a remote's .gitattributes could ask for.
 */
const FIXED_CONFIG = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'gc.auto=0',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.symlinks=false',
  '-c',
  'core.excludesFile=/dev/null',
  '-c',
  'core.fsmonitor=false',
];

/** The person-facing failure for a git step, from what git printed. */
export function gitFailure(step: string, remote: string, result: GitResult): StudioFailure {
  const err = result.stderr.trim();
  const last = err
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-3)
    .join(' ');
  const said = last === '' ? `git exited with ${result.code}` : `git said: ${last}`;
  if (/Authentication failed|Permission denied|could not read Username|403|401|access denied|not authorized/i.test(err))
    return new StudioFailure('Invalid', `${step}: ${remote} refused the authentication (${said}).`, {
      hint: 'Check that your own git can reach it (git ls-remote URL): set up your SSH key or credential helper; Memory Studio stores no credentials.',
    });
  if (/does not appear to be a git repository|not a git repository|repository .* not found|Repository not found/i.test(err))
    return new StudioFailure('NotFound', `${step}: ${remote} is not a git repository (${said}).`, {
      hint: 'Check the URL; for a shared folder, create the repository first with "git init --bare <folder>".',
    });
  if (
    /Could not resolve host|unable to access|Connection refused|Connection timed out|Could not read from remote|No route to host|Network is unreachable/i.test(
      err,
    )
  )
    return new StudioFailure('Busy', `${step}: ${remote} cannot be reached (${said}).`, {
      hint: 'Check your network and that the remote is up, then try again; nothing was changed.',
    });
  return new StudioFailure('Unsupported', `${step} failed (${said}).`, {
    hint: 'Run "memory-studio sync status" to see the clone; "sync init" again recreates it.',
  });
}

/** Runs `git <args>` in `cwd`; resolves its output; a non-zero exit fails with `gitFailure` unless allowed. */
export function runSyncGit(
  cwd: string,
  args: readonly string[],
  step: string,
  remote: string,
  options: GitOptions = {},
): Promise<GitResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(cancelledFailure(signal));
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...FIXED_CONFIG, ...args], { cwd, env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const errs: Buffer[] = [];
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() =>
        reject(
          new StudioFailure(
            'Busy',
            `${step}: git did not finish within ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s talking to ${remote}.`,
            {
              hint: 'Check that the remote answers (git ls-remote URL), then try again; nothing was changed.',
            },
          ),
        ),
      );
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const onAbort = () => {
      child.kill('SIGKILL');
      finish(() => reject(cancelledFailure(signal)));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => errs.push(d));
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish(() =>
        reject(
          error.code === 'ENOENT'
            ? new StudioFailure('Unsupported', 'Sync needs git, and git is not installed or not on PATH.', {
                hint: 'Install git (https://git-scm.com), then try again.',
              })
            : error,
        ),
      ),
    );
    child.on('close', (code) =>
      finish(() => {
        const result = { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(errs).toString('utf8'), code: code ?? -1 };
        if (result.code === 0 || options.allowFailure) resolve(result);
        else reject(gitFailure(step, remote, result));
      }),
    );
  });
}

/** A push the remote refused because it moved on (another machine pushed first): fetched and retried, never forced. */
export function isNonFastForward(result: GitResult): boolean {
  // `--porcelain` reports the refused ref on stdout ("!\tHEAD:refs/heads/main\t[rejected] (fetch first)"), hints on stderr.
  return (
    result.code !== 0 &&
    /\[rejected\]|non-fast-forward|fetch first|failed to update ref|cannot lock ref|stale info/i.test(`${result.stdout}\n${result.stderr}`)
  );
}
