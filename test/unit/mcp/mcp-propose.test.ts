// memory_propose over stdio: the agent's memory lands in the review inbox with the agent as its source, nothing is
// written before Apply, a flooding client is refused, a secret is refused, and --read-only has no such tool.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';
import { built, startServer, textOf, treeDigest, type RunningServer } from './mcp-client';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let manifest: HomeManifest;
let dataDir: string;
let service: StudioService;
const servers: RunningServer[] = [];

async function server(args: string[] = [], client = { name: 'vitest-agent', version: '1.2.3' }): Promise<RunningServer> {
  const running = await startServer(['--codex-home', manifest.codexHome, '--data-dir', dataDir, ...args], client);
  servers.push(running);
  return running;
}

beforeAll(async () => {
  if (!built) throw new Error('out/ is missing: run "npm run build" before the unit suite, as npm test does.');
  temp = await makeTempDir();
  manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'v2', seed: 3, git: false });
  dataDir = join(temp.dir, 'data');
  // The app's service on the same data folder: the inbox the person reviews.
  service = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
  });
}, 300_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  service?.dispose();
  await temp?.cleanup();
});

describe('memory_propose', () => {
  it('files a pending proposal with the agent as its source, and writes nothing before Apply', async () => {
    const agent = await server();
    const root = join(manifest.codexHome, 'memories_v2');
    const before = treeDigest(manifest.codexHome);
    const result = await agent.call('memory_propose', {
      title: 'Staging deploys need the VPN',
      text: 'Deploys to staging only work with the office VPN up; without it the deploy hangs at "waiting for lock".',
      project: '/home/dana/src/infra',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const out = result.structuredContent as { proposalId: string; status: string; files: Array<{ path: string; change: string }> };
    expect(out.status).toBe('pending');
    expect(treeDigest(manifest.codexHome)).toEqual(before);

    const proposal = await service.call('review.get', { id: out.proposalId });
    expect(proposal).toMatchObject({ source: 'agent', status: 'pending', agent: { name: 'vitest-agent', version: '1.2.3', seen: false } });
    expect(proposal.note).toBe('Proposed by vitest-agent 1.2.3 through memory-studio mcp, for /home/dana/src/infra.');
    const [file] = proposal.files;
    expect(file?.relPath).toMatch(/^extensions\/ad_hoc\/notes\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-staging-deploys-need-the-vpn\.md$/);
    expect(file?.change).toBe('create');
    const list = await service.call('review.list', {});
    expect(list.agentNewCount).toBe(1);
    expect(list.proposals.find((p) => p.id === out.proposalId)?.agent?.name).toBe('vitest-agent');

    // The person opens it (no longer new), accepts and applies it: only then is the note written.
    await service.call('review.seen', { id: out.proposalId });
    expect((await service.call('review.list', {})).agentNewCount).toBe(0);
    await service.call('review.decide', { id: out.proposalId, files: [{ ord: 0, decisions: { [file?.hunks[0]?.id ?? '']: 'accept' } }] });
    await service.call('review.apply', { id: out.proposalId });
    expect(await readFile(join(root, ...(file?.relPath ?? '').split('/')), 'utf8')).toBe(
      '# Staging deploys need the VPN\n\nApplies to: /home/dana/src/infra\n\nDeploys to staging only work with the office VPN up; without it the deploy hangs at "waiting for lock".\n',
    );
  });

  it('proposes an edit of a curated file, and refuses one of a file Codex regenerates', async () => {
    const agent = await server();
    const summary = await readFile(join(manifest.codexHome, 'memories_v2', 'memory_summary.md'), 'utf8');
    const edited = await agent.call('memory_propose', { file: 'memory_summary.md', text: `${summary}- staging needs the VPN\n` });
    expect(edited.isError, textOf(edited)).toBeFalsy();
    const id = (edited.structuredContent as { proposalId: string }).proposalId;
    expect((await service.call('review.get', { id })).files[0]).toMatchObject({ relPath: 'memory_summary.md', change: 'modify', added: 1 });
    const list = await service.call('workspace.list', { version: 'v2' });
    const rollout = list.files.find((f) => f.kind === 'rollout-summary')?.path ?? '';
    const refused = await agent.call('memory_propose', { file: rollout, text: 'rewritten' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/rewritten by Codex at every consolidation/);
  });

  it('refuses a text that holds a secret, saying where with the secret masked, and stores nothing', async () => {
    const agent = await server();
    const before = (await service.call('review.list', {})).proposals.length;
    const token = `ghp_${'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6'.slice(0, 36)}`;
    const result = await agent.call('memory_propose', { text: `Use this token for the registry:\n${token}\n` });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/looks like a secret .* on line 2: ghp_\*{4}/);
    expect(textOf(result)).not.toContain(token.slice(8));
    expect((await service.call('review.list', {})).proposals.length).toBe(before);
  });

  it('refuses an agent past N proposals an hour with a clear error, and counts each client apart', async () => {
    const flood = await server(['--max-proposals-per-hour', '3'], { name: 'flooding-agent', version: '9' });
    for (let i = 0; i < 3; i++) {
      const ok = await flood.call('memory_propose', { title: `fact ${i}`, text: `fact number ${i}` });
      expect(ok.isError, textOf(ok)).toBeFalsy();
    }
    const refused = await flood.call('memory_propose', { title: 'fact 3', text: 'one too many' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /flooding-agent made 3 proposals in the last hour, the most Memory Studio takes from one agent \(3 an hour\)/,
    );
    expect(textOf(refused)).toMatch(/The next one is taken after \d{4}-/);
    const other = await server(['--max-proposals-per-hour', '3'], { name: 'another-agent', version: '1' });
    expect((await other.call('memory_propose', { text: 'a fact of its own' })).isError).toBeFalsy();
    const mine = (await service.call('review.list', {})).proposals.filter((p) => p.agent?.name === 'flooding-agent');
    expect(mine.length).toBe(3);
  });

  it('has no memory_propose under --read-only', async () => {
    const reader = await server(['--read-only']);
    const { tools } = await reader.client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('memory_propose');
    const result = await reader.call('memory_propose', { text: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Tool memory_propose not found/);
  });
});
