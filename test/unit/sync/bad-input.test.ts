// Sync against hostile or broken remotes: a lying manifest, paths that climb out, odd folder names, a symlink, a remote
// that is gone or not a repository, a damaged clone, two syncs at once, pushes racing from two machines.
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectHome } from '../../../electron/core/codex/home';
import { acquireLockFile, releaseLockFile } from '../../../electron/core/apply/lock-file';
import { syncPaths, syncPush } from '../../../electron/core/sync';
import { git, proposalIdOf, tamper, useWorlds } from './helpers';

const world = useWorlds();

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Writes a publication by hand (as a foreign or forged writer would) under `<owner>/v1/`. */
async function forge(
  dir: string,
  owner: string,
  files: Record<string, string>,
  manifestFiles?: { path: string; sha256: string; size: number }[],
) {
  const base = join(dir, ...owner.split('/'), 'v1');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(base, 'files', ...path.split('/').slice(0, -1)), { recursive: true });
    await writeFile(join(base, 'files', ...path.split('/')), text);
  }
  const manifest = {
    format: 'memory-studio-sync/1',
    owner,
    memoryVersion: 'v1',
    publishedAt: new Date().toISOString(),
    scopeProject: null,
    files: manifestFiles ?? Object.entries(files).map(([path, text]) => ({ path, sha256: sha(text), size: Buffer.byteLength(text) })),
  };
  await mkdir(base, { recursive: true });
  await writeFile(join(base, 'manifest.json'), JSON.stringify(manifest));
}

describe('sync with bad input', () => {
  it('refuses a folder whose manifest lies, climbs out or points at a symlink, and still takes the honest one', async () => {
    const w = await world();
    const desk = await w.machine('desk');
    await desk.cli('sync', 'init', '--remote', w.remote, '--machine', 'desk');
    const honest = '# Task Group: honest\n';
    await tamper(w, async (dir) => {
      await forge(dir, 'machines/honest', { 'MEMORY.md': honest });
      await forge(dir, 'machines/liar', { 'MEMORY.md': 'changed after hashing\n' }, [
        { path: 'MEMORY.md', sha256: sha('original\n'), size: 22 },
      ]);
      await forge(dir, 'machines/climber', { 'MEMORY.md': 'x\n' }, [{ path: '../../../../etc/passwd', sha256: sha('x\n'), size: 2 }]);
      await forge(dir, 'machines/linker', {}, [{ path: 'MEMORY.md', sha256: sha('root:x:0:0\n'), size: 11 }]);
      await mkdir(join(dir, 'machines/linker/v1/files'), { recursive: true });
      await symlink('/etc/passwd', join(dir, 'machines/linker/v1/files/MEMORY.md'));
      await mkdir(join(dir, 'machines', 'bad name', 'v1'), { recursive: true });
      await writeFile(join(dir, 'machines', 'bad name', 'v1', 'manifest.json'), '{}');
    });
    const pulled = await desk.cli('sync', 'pull', '--json');
    // 4: some folders were refused; the honest one is still proposed.
    expect(pulled.code, pulled.err).toBe(4);
    const json = JSON.parse(pulled.out) as {
      arrivals: { owner: string; problem: string | null; changed: number }[];
      ignored: string[];
      proposalId: string;
    };
    const by = Object.fromEntries(json.arrivals.map((a) => [a.owner, a]));
    expect(by['machines/honest']).toMatchObject({ problem: null, changed: 2 });
    expect(by['machines/liar']?.problem).toMatch(/SHA-256|bytes/);
    expect(by['machines/climber']?.problem).toContain('not a safe relative path');
    expect(by['machines/linker']?.problem).toMatch(/SHA-256|bytes|regular file/);
    expect(json.ignored.join('\n')).toContain('machines/bad name');
    const shown = JSON.parse((await desk.cli('show', json.proposalId, '--json')).out) as { files: { relPath: string }[] };
    expect(shown.files.every((f) => f.relPath.startsWith('extensions/external_agent_import/'))).toBe(true);
    expect(shown.files.some((f) => f.relPath.includes('sync-machine-honest/MEMORY.md'))).toBe(true);
    expect(shown.files.some((f) => /liar|climber|linker/.test(f.relPath))).toBe(false);
  });

  it('says plainly when the remote is not there or not a repository, and records nothing', async () => {
    const w = await world();
    const desk = await w.machine('desk');
    const gone = await desk.cli('sync', 'init', '--remote', join(w.dir, 'nowhere.git'), '--machine', 'desk');
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/not a git repository|cannot be reached/);
    expect(existsSync(syncPaths(desk.dataDir).settings)).toBe(false);
    await mkdir(join(w.dir, 'plain'));
    const plain = await desk.cli('sync', 'init', '--remote', join(w.dir, 'plain'), '--machine', 'desk');
    expect(plain.code).toBe(1);
    expect(plain.err).toContain('is not a git repository');
    const token = await desk.cli('sync', 'init', '--remote', 'https://me:ghp_abc123@example.invalid/m.git');
    expect(token.code).toBe(1);
    expect(token.err).toContain('password or token');
    const name = await desk.cli('sync', 'init', '--remote', w.remote, '--machine', '../up');
    expect(name.code).toBe(1);
    expect(name.err).toContain('cannot name a machine folder');
  });

  it('a remote that goes away before a push fails cleanly; the memory is untouched and the next push works', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    const before = await readFile(join(laptop.root, 'MEMORY.md'), 'utf8');
    await rename(w.remote, `${w.remote}.away`);
    const failed = await laptop.cli('sync', 'push');
    expect(failed.code).toBe(1);
    expect(failed.err).toMatch(/not a git repository|cannot be reached/);
    expect(await readFile(join(laptop.root, 'MEMORY.md'), 'utf8')).toBe(before);
    await rename(`${w.remote}.away`, w.remote);
    expect((await laptop.cli('sync', 'push')).code).toBe(0);
  });

  it('recreates a damaged clone, and refuses a second sync while one runs', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    const paths = syncPaths(laptop.dataDir);
    await writeFile(join(paths.clone, '.git', 'HEAD'), 'garbage');
    expect((await laptop.cli('sync', 'push')).code).toBe(0);
    expect(w.remoteFiles()).toContain('machines/laptop/v1/manifest.json');
    // Another sync holding the lock, in this very process (the app answers every request in one process).
    const held = await acquireLockFile(laptop.dataDir, paths.clone, Date.now(), true);
    const busy = await laptop.cli('sync', 'pull');
    expect(busy.code).toBe(1);
    expect(busy.err).toContain('Another sync');
    await releaseLockFile(held);
    expect((await laptop.cli('sync', 'pull')).code).toBe(0);
  });

  it('two machines pushing at once both land: a refused push is fetched and retried, never forced', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    const desk = await w.machine('desk', { seed: 3 });
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    await desk.cli('sync', 'init', '--remote', w.remote, '--machine', 'desk');
    const [a, b] = await Promise.all(
      [laptop, desk].map(async (m) => syncPush(await inspectHome({ codexHome: m.codexHome, source: 'flag' }), m.dataDir)),
    );
    expect(a?.changed && b?.changed).toBe(true);
    const files = w.remoteFiles();
    expect(files).toContain('machines/laptop/v1/manifest.json');
    expect(files).toContain('machines/desk/v1/manifest.json');
    const pulled = await desk.cli('sync', 'pull');
    expect(proposalIdOf(pulled.out)).toMatch(/^p-/);
  });

  it('a push the remote refuses because another machine pushed first is refetched and retried, keeping both', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    const other = join(w.dir, 'other');
    git(w.dir, 'clone', '-q', w.remote, other);
    let raced = false;
    const home = await inspectHome({ codexHome: laptop.codexHome, source: 'flag' });
    const result = await syncPush(home, laptop.dataDir, {
      progress: (line) => {
        if (raced || !line.startsWith('Pushing')) return;
        raced = true;
        // Another machine's push lands between our fetch and our push (synchronously, so the order is certain).
        writeFileSync(join(other, 'other.md'), 'x\n');
        git(other, 'add', '-A');
        git(other, 'commit', '-q', '-m', 'other machine');
        git(other, 'push', '-q', 'origin', 'HEAD:main');
      },
    });
    expect(raced).toBe(true);
    expect(result).toMatchObject({ changed: true, retries: 1 });
    expect(w.remoteFiles()).toEqual(expect.arrayContaining(['other.md', 'machines/laptop/v1/manifest.json']));
  });

  it('refuses a machine name the remote already holds, unless taken over; a renamed machine never pulls its old self', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    const other = await w.machine('other');
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    await laptop.cli('sync', 'push');
    const clash = await other.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    expect(clash.code).toBe(2);
    expect(clash.err).toContain("already holds another machine's memory");
    expect(existsSync(syncPaths(other.dataDir).settings)).toBe(false);
    expect((await other.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop', '--take-over')).code).toBe(0);

    // The first machine renamed: its old folder stays on the remote, and is never its own arrival.
    expect((await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop-2')).code).toBe(0);
    const pulled = JSON.parse((await laptop.cli('sync', 'pull', '--json')).out) as { arrivals: unknown[]; proposalId: string | null };
    expect(pulled).toMatchObject({ arrivals: [], proposalId: null });
  });

  it('a name this data folder used on another remote, or never pushed under, is still refused where another machine holds it', async () => {
    const w = await world();
    const other = await world();
    const a = await w.machine('a');
    const b = await w.machine('b');
    expect((await a.cli('sync', 'init', '--remote', other.remote, '--machine', 'laptop')).code).toBe(0);
    await b.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    await b.cli('sync', 'push');
    expect((await a.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop')).code).toBe(2);
    // A name inited under but never pushed is not remembered as this folder's own.
    expect((await a.cli('sync', 'init', '--remote', w.remote, '--machine', 'vm')).code).toBe(0);
    expect((await a.cli('sync', 'init', '--remote', w.remote, '--machine', 'work')).code).toBe(0);
    const c = await w.machine('c');
    await c.cli('sync', 'init', '--remote', w.remote, '--machine', 'vm');
    await c.cli('sync', 'push');
    expect((await a.cli('sync', 'init', '--remote', w.remote, '--machine', 'vm')).code).toBe(2);
    const pulled = JSON.parse((await a.cli('sync', 'pull', '--json')).out) as { arrivals: { owner: string }[] };
    expect(pulled.arrivals.map((x) => x.owner).sort()).toEqual(['machines/laptop', 'machines/vm']);
  });
});
