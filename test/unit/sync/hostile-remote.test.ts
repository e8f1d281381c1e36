// What a remote or the person's own git settings must never do to a sync: skip a published file through an ignore
// rule, run a filter program on remote content, keep a token of the URL, or leave a tampered publication unrepaired.
import { existsSync } from 'node:fs';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, tamper, useWorlds } from './helpers';

const savedGlobal = process.env.GIT_CONFIG_GLOBAL;
afterEach(() => {
  if (savedGlobal === undefined) delete process.env.GIT_CONFIG_GLOBAL;
  else process.env.GIT_CONFIG_GLOBAL = savedGlobal;
});
const world = useWorlds();

describe('sync against hostile settings and remotes', () => {
  it("publishes every file whatever the person's global ignore rules say", async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    await writeFile(join(w.dir, 'ignore'), '*.log\nbuild/\n');
    await writeFile(join(w.dir, 'gitconfig'), `[core]\n\texcludesFile = ${join(w.dir, 'ignore')}\n`);
    process.env.GIT_CONFIG_GLOBAL = join(w.dir, 'gitconfig');
    await mkdir(join(laptop.root, 'skills', 'deploy', 'build'), { recursive: true });
    await writeFile(join(laptop.root, 'skills', 'deploy', 'build', 'SKILL.md'), '# Build\n');
    await writeFile(join(laptop.root, 'extensions', 'ad_hoc', 'notes.log'), 'kept\n');
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    expect((await laptop.cli('sync', 'push')).code).toBe(0);
    expect(w.remoteFiles()).toEqual(
      expect.arrayContaining([
        'machines/laptop/v1/files/skills/deploy/build/SKILL.md',
        'machines/laptop/v1/files/extensions/ad_hoc/notes.log',
      ]),
    );
  });

  it("never runs a filter program a remote's .gitattributes asks for, and keeps the bytes as hashed", async () => {
    const w = await world();
    const desk = await w.machine('desk');
    const marker = join(w.dir, 'filter-ran');
    const script = join(w.dir, 'smudge.sh');
    await writeFile(script, `#!/bin/sh\ntouch "${marker}"\ncat\n`);
    await chmod(script, 0o755);
    await writeFile(join(w.dir, 'gitconfig'), `[filter "x"]\n\tsmudge = ${script}\n\tclean = cat\n`);
    await tamper(w, async (dir) => {
      await writeFile(join(dir, '.gitattributes'), '* filter=x text eol=crlf\n');
      await writeFile(join(dir, 'README.md'), 'a\nb\n');
    });
    process.env.GIT_CONFIG_GLOBAL = join(w.dir, 'gitconfig');
    await desk.cli('sync', 'init', '--remote', w.remote, '--machine', 'desk');
    expect((await desk.cli('sync', 'push')).code).toBe(0);
    expect((await desk.cli('sync', 'pull')).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a URL whose user part, query or text may be a token', async () => {
    const w = await world();
    const desk = await w.machine('desk');
    for (const url of [
      'https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/me/m.git',
      'https://host.invalid/r.git?private_token=glpat-abc',
    ]) {
      const r = await desk.cli('sync', 'init', '--remote', url);
      expect(r.code, url).toBe(1);
      expect(r.err).toContain('password or token');
      expect(r.err).not.toContain('ghp_abc');
    }
  });

  it('repairs a publication someone changed on the remote, and status says what a failed push left pending', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    await laptop.cli('sync', 'push');
    await tamper(w, async (dir) => writeFile(join(dir, 'machines/laptop/v1/files/MEMORY.md'), 'overwritten\n'));
    const again = await laptop.cli('sync', 'push');
    expect(again.out).toMatch(/^Published/);
    expect(git(w.dir, '--git-dir', w.remote, 'show', 'main:machines/laptop/v1/files/MEMORY.md')).not.toBe('overwritten\n');
    // The same size, other bytes (the manifest left alone): repaired too, from git's blob ids, not the remote's manifest.
    const ours = git(w.dir, '--git-dir', w.remote, 'show', 'main:machines/laptop/v1/files/MEMORY.md');
    await tamper(w, async (dir) => writeFile(join(dir, 'machines/laptop/v1/files/MEMORY.md'), `X${ours.slice(1)}`));
    expect((await laptop.cli('sync', 'push')).code).toBe(0);
    expect(git(w.dir, '--git-dir', w.remote, 'show', 'main:machines/laptop/v1/files/MEMORY.md')).toBe(ours);

    await writeFile(join(laptop.root, 'extensions', 'ad_hoc', 'notes', '2026-12-05T10-00-00-new.md'), '# New\n\nA new note.\n');
    await rename(w.remote, `${w.remote}.away`);
    expect((await laptop.cli('sync', 'push')).code).toBe(1);
    await rename(`${w.remote}.away`, w.remote);
    const status = JSON.parse((await laptop.cli('sync', 'status', '--json')).out) as { pending: { added: string[] } };
    expect(status.pending.added).toEqual(['extensions/ad_hoc/notes/2026-12-05T10-00-00-new.md']);
  });
});
