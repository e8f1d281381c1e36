// Sync between two machines through a real bare git repository: first push and pull, a change arriving as only that
// change, a secret held back, no echo, a team scope, and the arrival applied as a reviewed import.
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rejectProposal } from '../../../electron/core/review';
import { openStudioDb } from '../../../electron/core/studio-db';
import { SECRETS } from '../import/fixtures';
import { appendTo, proposalIdOf, tamper, useWorlds } from './helpers';

const RESOURCES = 'extensions/external_agent_import/resources';
const world = useWorlds();

/** Every file under `dir`, relative, sorted. */
async function filesUnder(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true }).catch(() => [])) {
    const path = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, path)));
    else out.push(path);
  }
  return out.sort();
}

describe('sync through a bare git repository', () => {
  it('publishes curated memory, and another machine receives it as a reviewed import it applies', async () => {
    const w = await world();
    const laptop = await w.machine('laptop', { version: 'v1' });
    const desk = await w.machine('desk', { version: 'v2', seed: 9 });
    expect((await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop')).code).toBe(0);
    expect((await desk.cli('sync', 'init', '--remote', w.remote, '--machine', 'desk')).code).toBe(0);

    const pushed = await laptop.cli('sync', 'push');
    expect(pushed.code, pushed.err).toBe(0);
    const files = w.remoteFiles();
    expect(files).toContain('machines/laptop/v1/manifest.json');
    expect(files).toContain('machines/laptop/v1/files/MEMORY.md');
    expect(files).toContain('machines/laptop/v1/files/memory_summary.md');
    // raw memories are phase 1's scratch, not curated memory; every published rollout is one the curated files point to.
    expect(files.some((f) => f.endsWith('raw_memories.md'))).toBe(false);
    const memoryMd = await readFile(join(laptop.root, 'MEMORY.md'), 'utf8');
    const summary = await readFile(join(laptop.root, 'memory_summary.md'), 'utf8');
    for (const f of files.filter((x) => x.includes('/rollout_summaries/')))
      expect(memoryMd + summary).toContain(f.slice('machines/laptop/v1/files/'.length));

    const pulled = await desk.cli('sync', 'pull');
    expect(pulled.code, pulled.err).toBe(0);
    const id = proposalIdOf(pulled.out);
    // Nothing is written before the person applies it.
    expect(await lstat(join(desk.root, RESOURCES, 'sync-machine-laptop')).catch(() => null)).toBeNull();
    const applied = await desk.cli('apply', id, '--accept', 'all');
    expect(applied.code, applied.err).toBe(0);
    const arrived = join(desk.root, RESOURCES, 'sync-machine-laptop');
    expect(await readFile(join(arrived, 'MEMORY.md'), 'utf8')).toBe(memoryMd);
    expect(JSON.parse(await readFile(join(arrived, 'scope.json'), 'utf8'))).toHaveProperty('cwd');
    const published = files
      .filter((f) => f.startsWith('machines/laptop/v1/files/'))
      .map((f) => f.slice('machines/laptop/v1/files/'.length));
    expect((await filesUnder(arrived)).filter((f) => f !== 'scope.json')).toEqual(published.sort());
    expect(await readFile(join(desk.root, 'extensions/external_agent_import/instructions.md'), 'utf8')).toContain('Imported');

    // A second pull with nothing new proposes nothing.
    const again = await desk.cli('sync', 'pull');
    expect(again.out).toContain('Nothing new arrived.');
  });

  it('a change arrives as only that change, and a second pull reuses the pending proposal', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    const desk = await w.machine('desk', { version: 'v2', seed: 4 });
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    await desk.cli('sync', 'init', '--remote', w.remote, '--machine', 'desk');
    await laptop.cli('sync', 'push');
    await desk.cli('apply', proposalIdOf((await desk.cli('sync', 'pull')).out), '--accept', 'all');

    await appendTo(join(laptop.root, 'MEMORY.md'), '\n- pnpm, not npm, in the web app\n');
    expect((await laptop.cli('sync', 'push')).out).toMatch(/^Published/);
    const pulled = await desk.cli('sync', 'pull', '--json');
    const json = JSON.parse(pulled.out) as { proposalId: string; arrivals: { owner: string; changed: number }[] };
    expect(json.arrivals).toEqual([expect.objectContaining({ owner: 'machines/laptop', changed: 1 })]);
    const shown = await desk.cli('show', json.proposalId, '--json');
    const proposal = JSON.parse(shown.out) as { files: { relPath: string }[] };
    expect(proposal.files.map((f) => f.relPath)).toEqual([`${RESOURCES}/sync-machine-laptop/MEMORY.md`]);

    const second = await desk.cli('sync', 'pull');
    expect(second.out).toContain(`Still pending from the last pull: ${json.proposalId}`);
  });

  it('holds back a file with a secret, names it, exits 4, and the secret never reaches the remote', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    const note = 'extensions/ad_hoc/notes/2026-12-01T10-00-00-deploy-key.md';
    await mkdir(join(laptop.root, 'extensions/ad_hoc/notes'), { recursive: true });
    await writeFile(join(laptop.root, note), `# Deploy\n\nUse OPENAI_API_KEY=${SECRETS.openai} for the e2e run.\n`);
    const pushed = await laptop.cli('sync', 'push');
    expect(pushed.code).toBe(4);
    expect(pushed.out).toContain(`held back: ${note}: possible secret`);
    expect(pushed.out).not.toContain(SECRETS.openai);
    expect(w.remoteFiles()).not.toContain(`machines/laptop/v1/files/${note}`);
    expect(w.remoteFiles()).toContain('machines/laptop/v1/files/MEMORY.md');
    expect(w.remoteHistory()).not.toContain(SECRETS.openai);
    const status = await laptop.cli('sync', 'status', '--json');
    expect(JSON.parse(status.out)).toMatchObject({ heldBack: [expect.objectContaining({ path: note })] });
  });

  it('never echoes: what arrived is not published again, and a machine never imports its own folder', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    const desk = await w.machine('desk', { version: 'v2', seed: 4 });
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    await desk.cli('sync', 'init', '--remote', w.remote, '--machine', 'desk');
    await laptop.cli('sync', 'push');
    await desk.cli('apply', proposalIdOf((await desk.cli('sync', 'pull')).out), '--accept', 'all');
    expect((await desk.cli('sync', 'push')).code).toBe(0);
    expect(w.remoteFiles().filter((f) => f.startsWith('machines/desk/') && f.includes('external_agent_import'))).toEqual([]);
    const back = JSON.parse((await laptop.cli('sync', 'pull', '--json')).out) as { arrivals: { owner: string }[] };
    expect(back.arrivals.map((a) => a.owner)).toEqual(['machines/desk']);
  });

  it('a team scope publishes only the entries of that project, under people/<name>', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    const memoryMd = await readFile(join(laptop.root, 'MEMORY.md'), 'utf8');
    const cwd = /applies_to: cwd=([^;\s]+)/.exec(memoryMd)?.[1];
    expect(cwd).toBeTruthy();
    const init = await laptop.cli('sync', 'init', '--remote', w.remote, '--person', 'alice', '--scope', `project=${cwd}`);
    expect(init.code, init.err).toBe(0);
    expect((await laptop.cli('sync', 'push')).code).toBe(0);
    const files = w.remoteFiles();
    expect(files.every((f) => f.startsWith('people/alice/v1/'))).toBe(true);
    expect(files).not.toContain('people/alice/v1/files/memory_summary.md');
    const show = execFileSync('git', ['--git-dir', w.remote, 'show', 'main:people/alice/v1/files/MEMORY.md'], { encoding: 'utf8' });
    const scoped = [...show.matchAll(/applies_to: cwd=([^;\s]+)/g)].map((m) => m[1]);
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped.every((c) => c === cwd || c?.startsWith(`${cwd}/`))).toBe(true);
    expect(show.length).toBeLessThan(memoryMd.length);
  });

  it('an arrival the person rejected is not proposed again until something changes', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    const desk = await w.machine('desk', { version: 'v2', seed: 4 });
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    await desk.cli('sync', 'init', '--remote', w.remote, '--machine', 'desk');
    await laptop.cli('sync', 'push');
    const first = proposalIdOf((await desk.cli('sync', 'pull')).out);
    const db = openStudioDb(desk.dataDir);
    try {
      rejectProposal(db, first);
    } finally {
      db.close();
    }
    const again = await desk.cli('sync', 'pull', '--json');
    expect(JSON.parse(again.out)).toMatchObject({ proposalId: null, declined: first });
    expect((await desk.cli('sync', 'pull')).out).toContain(`since you rejected ${first}`);
    await appendTo(join(laptop.root, 'MEMORY.md'), '\n- a later change\n');
    await laptop.cli('sync', 'push');
    const changed = JSON.parse((await desk.cli('sync', 'pull', '--json')).out) as { proposalId: string | null; declined: string | null };
    expect(changed.declined).toBeNull();
    expect(changed.proposalId).toMatch(/^p-/);
    expect(changed.proposalId).not.toBe(first);
  });

  it('a machine gone from the remote has its arrival removed by a reviewed proposal; what this remote did not write stays', async () => {
    const w = await world();
    const laptop = await w.machine('laptop');
    const desk = await w.machine('desk', { version: 'v2', seed: 4 });
    await laptop.cli('sync', 'init', '--remote', w.remote, '--machine', 'laptop');
    await desk.cli('sync', 'init', '--remote', w.remote, '--machine', 'desk');
    await laptop.cli('sync', 'push');
    await desk.cli('apply', proposalIdOf((await desk.cli('sync', 'pull')).out), '--accept', 'all');
    // A folder of the same shape written by hand (no record of this remote writing it) is never ours to remove.
    const ghost = join(desk.root, RESOURCES, 'sync-machine-ghost');
    await mkdir(ghost, { recursive: true });
    await writeFile(join(ghost, 'scope.json'), '{"cwd":"/tmp"}');
    await writeFile(join(ghost, 'MEMORY.md'), '# kept\n');

    await tamper(w, async (dir) => rm(join(dir, 'machines', 'laptop'), { recursive: true }));
    const pulled = JSON.parse((await desk.cli('sync', 'pull', '--json')).out) as { proposalId: string; removed: string[] };
    expect(pulled.removed).toEqual(['sync-machine-laptop']);
    const shown = JSON.parse((await desk.cli('show', pulled.proposalId, '--json')).out) as { files: { relPath: string; change: string }[] };
    expect(shown.files.every((f) => f.relPath.startsWith(`${RESOURCES}/sync-machine-laptop/`) && f.change === 'delete')).toBe(true);
    expect((await desk.cli('apply', pulled.proposalId, '--accept', 'all')).code).toBe(0);
    expect(await filesUnder(join(desk.root, RESOURCES, 'sync-machine-laptop'))).toEqual([]);
    expect(await readFile(join(ghost, 'MEMORY.md'), 'utf8')).toBe('# kept\n');
  });
});
