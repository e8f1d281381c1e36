// Memory Studio's git sync beside real Codex: one machine's memory, pushed to a bare repository, arrives on another as a
// reviewed import that real Codex's phase 2 is shown (with its scope), and a later pull proposes nothing new.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ageCooldown, CodexHome, nowSec } from './support/codex';
import { FakeProvider, toolOutputs } from './support/fake-provider';
import { phase2Command } from './support/phase2-scripts';
import { studio } from './support/studio';

const provider = new FakeProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());

const ARRIVED = 'extensions/external_agent_import/resources/sync-machine-laptop/';
const INSTRUCTIONS = 'extensions/external_agent_import/instructions.md';

const LAPTOP_MEMORY_MD = [
  '# Task Group: web app builds',
  '',
  'scope: building and testing the web app on the laptop',
  'applies_to: cwd=/home/laptop-user/web-app; reuse_rule=safe for this project',
  '',
  '## Task 1: run the web app tests, success',
  '',
  '### keywords',
  '',
  '- pnpm, vitest, laptop sync marker',
  '',
].join('\n');

const LAPTOP_SUMMARY = [
  'v1',
  '',
  '## User Profile',
  '',
  'Engineer who syncs Codex memory between a laptop and a desk machine.',
  '',
  '## General Tips',
  '',
  '- use pnpm, not npm, in the web app (laptop sync marker)',
  '',
].join('\n');

interface PullJson {
  proposalId: string | null;
  arrivals: Array<{ owner: string; version: string; key: string; files: number; changed: number; problem: string | null }>;
}

it('a machine’s memory pushed to a bare repository arrives on a real Codex home, and its phase 2 is shown the arrival with its scope', async () => {
  const home = await CodexHome.create(provider);
  try {
    const consolidate = await phase2Command(home.base, { version: 'v2', project: home.work });
    provider.hooks.phase2Command = () => consolidate;
    const first = await home.exec('first session', { holdUntil: home.phase2Finished('v2', nowSec()) });
    expect(first.code, first.stderr.slice(-2000)).toBe(0);

    // The remote: a real bare repository beside the homes.
    const remote = join(home.base, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', remote]);

    // The sending machine ("laptop"): a v2 home holding curated memory.
    const laptopHome = join(home.base, 'laptop', 'codex-home');
    const laptopData = join(home.base, 'laptop', 'studio-data');
    await mkdir(join(laptopHome, 'memories_v2'), { recursive: true });
    await writeFile(join(laptopHome, 'config.toml'), '[memories]\nversion = "v2"\n');
    await writeFile(join(laptopHome, 'memories_v2', 'MEMORY.md'), LAPTOP_MEMORY_MD);
    await writeFile(join(laptopHome, 'memories_v2', 'memory_summary.md'), LAPTOP_SUMMARY);
    const laptopInit = await studio(['sync', 'init', '--remote', remote, '--machine', 'laptop', '--data-dir', laptopData]);
    expect(laptopInit.code, laptopInit.stderr).toBe(0);
    const pushed = await studio<{ version: string; published: number; heldBack: unknown[]; changed: boolean }>([
      'sync',
      'push',
      '--codex-home',
      laptopHome,
      '--data-dir',
      laptopData,
    ]);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.json).toMatchObject({ version: 'v2', published: 2, heldBack: [], changed: true });
    // Sync's branch is `main` (a bare repository's HEAD may name another, unborn one).
    const remoteFiles = execFileSync('git', ['--git-dir', remote, 'ls-tree', '-r', '--name-only', 'main'], { encoding: 'utf8' });
    expect(remoteFiles).toContain('machines/laptop/v2/files/MEMORY.md');

    // The receiving machine ("desk"): the real Codex home, its $HOME the one Codex runs with.
    const data = join(home.base, 'studio-data');
    const env = { HOME: home.userHome };
    const ours = <T>(args: string[]) => studio<T>([...args, '--codex-home', home.codexHome, '--data-dir', data], env);
    const init = await studio(['sync', 'init', '--remote', remote, '--machine', 'desk', '--data-dir', data], env);
    expect(init.code, init.stderr).toBe(0);
    const pulled = await ours<PullJson>(['sync', 'pull']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.json.arrivals).toEqual([
      expect.objectContaining({ owner: 'machines/laptop', version: 'v2', key: 'sync-machine-laptop', files: 2, problem: null }),
    ]);
    const id = pulled.json.proposalId;
    expect(id, 'the arrival is proposed for review').toEqual(expect.any(String));
    const applied = await ours(['apply', id!, '--accept', 'all']);
    expect(applied.code, applied.stderr).toBe(0);
    const root = home.memoryRoots.v2;
    expect(await readFile(join(root, ARRIVED, 'MEMORY.md'), 'utf8')).toBe(LAPTOP_MEMORY_MD);
    expect(await readFile(join(root, ARRIVED, 'memory_summary.md'), 'utf8')).toBe(LAPTOP_SUMMARY);
    expect(JSON.parse(await readFile(join(root, ARRIVED, 'scope.json'), 'utf8'))).toEqual({ cwd: home.userHome });
    expect(await readFile(join(root, INSTRUCTIONS), 'utf8')).not.toBe('');
    expect(home.globalJob('v2')?.status, 'applying the arrival enqueues consolidation as Codex’s importer does').toBe('pending');

    ageCooldown(home, 'v2');
    provider.hooks.phase2Command = () => `cat phase2_workspace_diff.md && ${consolidate}`;
    const phase2Before = provider.of('phase2').length;
    const result = await home.exec('after the sync', { holdUntil: home.phase2Finished('v2', nowSec()) });
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    expect(home.globalJob('v2')).toMatchObject({ status: 'done', last_error: null });
    const seen = provider.of('phase2').slice(phase2Before).flatMap(toolOutputs).join('\n');
    for (const file of ['MEMORY.md', 'memory_summary.md', 'scope.json']) expect(seen).toContain(`- A ${ARRIVED}${file}`);
    expect(seen).toContain(`- A ${INSTRUCTIONS}`);
    expect(seen).toContain(`+{"cwd":"${home.userHome}"}`);
    expect(seen).toContain('+- pnpm, vitest, laptop sync marker');

    // Codex's consolidation rewrote the root, never the arrival: a second pull has nothing new to propose.
    const again = await ours<PullJson>(['sync', 'pull']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.proposalId).toBeNull();
    expect(again.json.arrivals).toEqual([expect.objectContaining({ owner: 'machines/laptop', changed: 0, problem: null })]);
  } finally {
    await home.remove();
  }
});
