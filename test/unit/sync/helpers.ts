// Two machines and a real bare git repository: homes generated on disk, sync through system git, the CLI in process.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, vi } from 'vitest';
import { main } from '../../../electron/host/cli';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

export interface Machine {
  name: string;
  codexHome: string;
  dataDir: string;
  /** The root Codex reads (v1 `memories/`, v2 `memories_v2/`). */
  root: string;
  cli: (...args: string[]) => Promise<{ code: number; out: string; err: string }>;
}

export interface World {
  dir: string;
  remote: string;
  machine: (name: string, options?: { version?: 'v1' | 'v2'; seed?: number }) => Promise<Machine>;
  /** Every path of the remote's branch, and every blob ever pushed, as text (to prove a secret never left). */
  remoteFiles: () => string[];
  remoteHistory: () => string;
  cleanup: () => Promise<void>;
}

export async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return { code: await main(args), out: out.join('\n'), err: err.join('\n') };
  } finally {
    stderr.mockRestore();
    vi.restoreAllMocks();
  }
}

export async function makeWorld(): Promise<World> {
  const temp = await makeTempDir();
  const remote = join(temp.dir, 'remote.git');
  git(temp.dir, 'init', '-q', '--bare', remote);
  return {
    dir: temp.dir,
    remote,
    async machine(name, options = {}) {
      const version = options.version ?? 'v1';
      const codexHome = join(temp.dir, name, 'home');
      await generateHome({ dir: codexHome, scale: 'small', version, seed: options.seed ?? name.length, git: false });
      const dataDir = join(temp.dir, name, 'data');
      const common = ['--codex-home', codexHome, '--data-dir', dataDir];
      return {
        name,
        codexHome,
        dataDir,
        root: join(codexHome, version === 'v1' ? 'memories' : 'memories_v2'),
        cli: (...args: string[]) => {
          const [, sub] = args;
          // init takes no home; every other sync command and apply/show take both folders.
          return run(sub === 'init' ? [...args, '--data-dir', dataDir] : [...args, ...common]);
        },
      };
    },
    remoteFiles: () => {
      const out = execFileSync('git', ['--git-dir', remote, 'ls-tree', '-r', '--name-only', 'main'], { encoding: 'utf8' });
      return out.split('\n').filter(Boolean);
    },
    remoteHistory: () =>
      execFileSync('git', ['--git-dir', remote, 'log', '-p', '--all'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }),
    cleanup: temp.cleanup,
  };
}

/** A working clone of the remote where a test plays a foreign or hostile writer. */
export async function tamper(world: World, edit: (dir: string) => Promise<void>, message = 'tamper'): Promise<void> {
  const dir = join(world.dir, `tamper-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  // The branch sync uses (a bare repository's HEAD may name another that does not exist).
  const hasMain = execFileSync('git', ['--git-dir', world.remote, 'branch', '--list', 'main'], { encoding: 'utf8' }).trim() !== '';
  git(world.dir, 'clone', '-q', ...(hasMain ? ['-b', 'main'] : []), world.remote, dir);
  await edit(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  git(dir, 'push', '-q', 'origin', 'HEAD:main');
}

export async function appendTo(path: string, text: string): Promise<void> {
  await writeFile(path, (await readFile(path, 'utf8')) + text);
}

export function proposalIdOf(out: string): string {
  const m = /(?:Proposed|pending from the last pull:) (p-[0-9a-f]+)/.exec(out);
  if (!m?.[1]) throw new Error(`no proposal id in: ${out}`);
  return m[1];
}

/** `world()` for a test file: each world made in a test is removed after it. */
export function useWorlds(): () => Promise<World> {
  const made: World[] = [];
  afterEach(async () => {
    for (const w of made.splice(0)) await w.cleanup();
  });
  return async () => {
    const w = await makeWorld();
    made.push(w);
    return w;
  };
}
