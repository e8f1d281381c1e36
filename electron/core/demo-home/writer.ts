// Writes generated files with bounded concurrency, measures memory roots and records their git baseline.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileKind, MemoryVersion } from '../../../shared/domain';
import { listMemoryRoot } from '../codex/workspace';
import { itemAt } from '../platform/indexed';
import type { OutFile } from './types';

/** Write `files` under `base`, creating directories first, at most `concurrency` writes in flight. */
export async function writeFiles(
  base: string,
  files: readonly OutFile[],
  concurrency = 48,
  onDone?: (done: number, total: number) => void,
): Promise<void> {
  const dirs = new Set<string>();
  for (const f of files) dirs.add(path.dirname(path.join(base, ...f.rel.split('/'))));
  for (const dir of Array.from(dirs).sort()) await fs.promises.mkdir(dir, { recursive: true });
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const f = itemAt(files, next++);
      const target = path.join(base, ...f.rel.split('/'));
      await fs.promises.writeFile(target, f.data, { mode: f.mode ?? 0o644 });
      if (f.mode !== undefined) await fs.promises.chmod(target, f.mode);
      done++;
      if (onDone && (done % 256 === 0 || done === files.length)) onDone(done, files.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
}

export interface RootStats {
  counts: Record<FileKind, number>;
  files: number;
  bytes: number;
}

/** Counts a generated root with the same listing the app uses, so the manifest and the sidebar cannot disagree by construction of two classifiers. */
export async function measureRoot(root: string, version: MemoryVersion): Promise<RootStats> {
  const list = await listMemoryRoot(root, version);
  return { counts: list.counts, files: list.files.length, bytes: list.totalBytes };
}

/** Runs a command and resolves with its stdout; `input` is written to its stdin. */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed in ${cwd}: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
    // A command that exits before reading its input (git --version) must not crash the generator with EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

/** True when `git --version` runs. */
export async function gitAvailable(): Promise<boolean> {
  try {
    await run('git', ['--version'], process.cwd(), process.env);
    return true;
  } catch {
    return false;
  }
}

/** Codex's baseline identity and message (`reset_git_repository`, seen in a 0.169.0 home: no trailing newline). */
export const BASELINE_AUTHOR = { name: 'Codex', email: 'noreply@openai.com' } as const;
export const BASELINE_MESSAGE = 'Initialize Codex git baseline\n\nCo-authored-by: Codex <noreply@openai.com>';

/**
 * A baseline as Codex 0.169.0 leaves it after a successful consolidation: a repository on `main` with one parentless
 * commit of the whole root (`phase2_workspace_diff.md` never in it), `.git/codex-baseline-version` = 1 and the lock
 * file `.codex-baseline/.git/codex-baseline.lock`. `commit-tree` keeps the message byte for byte.
 */
export async function commitBaseline(root: string, date: Date): Promise<void> {
  const when = `${Math.floor(date.getTime() / 1000)} +0000`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: BASELINE_AUTHOR.name,
    GIT_AUTHOR_EMAIL: BASELINE_AUTHOR.email,
    GIT_COMMITTER_NAME: BASELINE_AUTHOR.name,
    GIT_COMMITTER_EMAIL: BASELINE_AUTHOR.email,
    GIT_AUTHOR_DATE: when,
    GIT_COMMITTER_DATE: when,
    GIT_TERMINAL_PROMPT: '0',
  };
  const base = ['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', '-c', 'init.defaultBranch=main'];
  await run('git', [...base, 'init', '-q'], root, env);
  await run('git', [...base, 'add', '-A', '--', '.', ':(exclude)phase2_workspace_diff.md'], root, env);
  const tree = (await run('git', [...base, 'write-tree'], root, env)).trim();
  const commit = (await run('git', [...base, 'commit-tree', tree], root, env, BASELINE_MESSAGE)).trim();
  await run('git', [...base, 'update-ref', 'refs/heads/main', commit], root, env);
  await fs.promises.writeFile(path.join(root, '.git', 'codex-baseline-version'), '1\n');
  await fs.promises.mkdir(path.join(root, '.codex-baseline', '.git'), { recursive: true });
  await fs.promises.writeFile(path.join(root, '.codex-baseline', '.git', 'codex-baseline.lock'), '');
}
