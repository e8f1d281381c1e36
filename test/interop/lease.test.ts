// Codex's consolidation lease against Memory Studio's Apply, with real Codex: refused while Codex holds it, folded in after.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ageCooldown, nowSec, waitFor } from './support/codex';
import { FakeProvider, toolOutputs } from './support/fake-provider';
import { consolidatedHome } from './support/scenario';
import { studio } from './support/studio';

const provider = new FakeProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());

interface ProposalJson {
  id: string;
}

it('Apply is refused (exit 3, nothing written) while real Codex’s phase 2 holds its lease; after it, Codex’s next phase 2 sees the change and its baseline keeps it', async () => {
  const { home, extracted } = await consolidatedHome(provider, 'default');
  const root = home.memoryRoots.v2;
  const dataDir = join(home.base, 'studio-data');
  const cli = (args: string[]) => studio<ProposalJson>([...args, '--codex-home', home.codexHome, '--data-dir', dataDir]);
  try {
    const summaryBefore = await readFile(join(root, 'memory_summary.md'), 'utf8');
    const edited = summaryBefore.replace(
      '## General Tips\n',
      '## General Tips\n\n- interop edit: the lease test wrote this line through a reviewed proposal\n',
    );
    await writeFile(join(home.base, 'edited-summary.md'), edited);
    const proposed = await cli(['propose', '--file', 'memory_summary.md', '--content-file', join(home.base, 'edited-summary.md')]);
    expect(proposed.code, proposed.stderr).toBe(0);

    // A new interactive session for phase 1, and a phase 2 that waits until the test lets it go.
    home.makeEligible(extracted, 5400);
    ageCooldown(home, 'v2');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    provider.hooks.phase2Gate = () => gate;
    // This run changes the summary (it adds a line), so the proposal's base is then out of date.
    const consolidate = provider.hooks.phase2Command;
    provider.hooks.phase2Command = (request) =>
      `${consolidate?.(request) ?? 'true'} && printf -- '- consolidated again by Codex\\n' >> memory_summary.md`;
    const since = nowSec();
    const running = home.exec('a session while Codex consolidates', { holdUntil: home.phase2Finished('v2', since) });
    try {
      await waitFor('Codex to hold its lease', () => {
        const job = home.globalJob('v2');
        return job?.status === 'running' && (job.lease_until ?? 0) > nowSec() ? job : undefined;
      });
      const refused = await cli(['apply', proposed.json.id, '--accept', 'all']);
      expect(refused.code, refused.stdout + refused.stderr).toBe(3);
      expect(await readFile(join(root, 'memory_summary.md'), 'utf8'), 'nothing written while Codex holds the lease').toBe(summaryBefore);
      expect(home.globalJob('v2')?.status, 'Codex still holds its lease').toBe('running');
    } finally {
      release();
      provider.hooks.phase2Gate = undefined;
    }
    expect((await running).code).toBe(0);
    expect(home.globalJob('v2')).toMatchObject({ status: 'done', last_error: null });

    // Codex's phase 2 rewrote the summary: the stored base changed, so the proposal is now a conflict, not an overwrite.
    const afterCodex = await readFile(join(root, 'memory_summary.md'), 'utf8');
    const stale = await cli(['apply', proposed.json.id, '--accept', 'all']);
    expect(stale.code, stale.stdout + stale.stderr).toBe(2);
    expect(await readFile(join(root, 'memory_summary.md'), 'utf8')).toBe(afterCodex);

    // A fresh proposal on what Codex wrote, and an ad-hoc note, applied with the lease free.
    const ours = afterCodex.replace(
      '## General Tips\n',
      '## General Tips\n\n- interop edit: the lease test wrote this line through a reviewed proposal\n',
    );
    await writeFile(join(home.base, 'edited-summary.md'), ours);
    await writeFile(join(home.base, 'note.md'), 'Remember: the interop suite runs against the real Codex.\n');
    for (const args of [
      ['propose', '--file', 'memory_summary.md', '--content-file', join(home.base, 'edited-summary.md')],
      ['note', '--slug', 'interop-pin', '--text-file', join(home.base, 'note.md')],
    ]) {
      const proposal = await cli(args);
      expect(proposal.code, proposal.stderr).toBe(0);
      const applied = await cli(['apply', proposal.json.id, '--accept', 'all']);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    }
    expect(await readFile(join(root, 'memory_summary.md'), 'utf8')).toBe(ours);
    expect(home.globalJob('v2')?.status, 'our Apply leaves the job pending, as Codex’s enqueue does').toBe('pending');

    // Codex's next phase 2 (after its cooldown): the agent reads the workspace diff and keeps the files as they are.
    ageCooldown(home, 'v2');
    home.makeEligible(extracted, 3600);
    provider.hooks.phase2Command = () => 'cat phase2_workspace_diff.md';
    const phase2Before = provider.of('phase2').length;
    const next = nowSec();
    expect((await home.exec('next session', { holdUntil: home.phase2Finished('v2', next) })).code).toBe(0);
    expect(home.globalJob('v2')).toMatchObject({ status: 'done', last_error: null });
    // The agent ran `cat phase2_workspace_diff.md`; its output went back to the model in the next phase-2 request.
    const toolOutput = provider.of('phase2').slice(phase2Before).flatMap(toolOutputs).join('\n');
    expect(toolOutput).toMatch(/- M memory_summary\.md/);
    expect(toolOutput).toMatch(/- A extensions\/ad_hoc\/notes\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-interop-pin\.md/);
    expect(toolOutput).toContain('+- interop edit: the lease test wrote this line through a reviewed proposal');
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', join(root, '.git'), ...args], { encoding: 'utf8' });
    expect(git('show', 'HEAD:memory_summary.md')).toBe(ours);
    expect(git('ls-tree', '-r', '--name-only', 'HEAD')).toMatch(/extensions\/ad_hoc\/notes\/.*-interop-pin\.md/);
  } finally {
    await home.remove();
  }
});
