// Writes generated files with bounded concurrency, measures memory roots and records their git baseline.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileKind, MemoryVersion } from '../../../shared/domain';
import { listMemoryRoot } from '../workspace';
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
      const f = files[next++] as OutFile;
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

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed in ${cwd}: ${stderr.trim() || err.message}`));
      else resolve();
    });
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

/** `git init`, `git add -A` (without the transient workspace diff, which Codex deletes before each baseline reset), `git commit -m "memory baseline"` in `root`, with a fixed identity and date. */
export async function commitBaseline(root: string, date: Date): Promise<void> {
  const when = date.toISOString();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Codex',
    GIT_AUTHOR_EMAIL: 'codex@localhost',
    GIT_COMMITTER_NAME: 'Codex',
    GIT_COMMITTER_EMAIL: 'codex@localhost',
    GIT_AUTHOR_DATE: when,
    GIT_COMMITTER_DATE: when,
    GIT_TERMINAL_PROMPT: '0',
  };
  const base = ['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', '-c', 'init.defaultBranch=main'];
  await run('git', [...base, 'init', '-q'], root, env);
  await run('git', [...base, 'add', '-A', '--', '.', ':(exclude)phase2_workspace_diff.md'], root, env);
  await run('git', [...base, 'commit', '-q', '--no-verify', '-m', 'memory baseline'], root, env);
}
