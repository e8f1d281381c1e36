// The `codex` consolidation engine end to end with the real `codex exec` (its npm launcher, as a user has it on PATH).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { codexCliDir, codexLauncherPath } from './install-codex.mjs';
import { FakeProvider, requestText } from './support/fake-provider';
import { consolidatedHome } from './support/scenario';
import { studio } from './support/studio';

const provider = new FakeProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());

interface RunJson {
  state: string;
  proposalId: string | null;
  message: string;
  validation: { ok: boolean };
  error: { message: string } | null;
}

interface ProposalJson {
  id: string;
  source: string;
  files: Array<{ relPath: string; change: string }>;
}

const MARKER = '- consolidated by the codex engine through real codex exec';

it('runs the real codex exec in a staging copy, turns its edit into a reviewed proposal, and applies it', async () => {
  const { home } = await consolidatedHome(provider, 'default');
  const root = home.memoryRoots.v2;
  const dataDir = join(home.base, 'studio-data');
  // Memory Studio finds `codex` on its PATH; the launcher is what `npm i -g @openai/codex` puts there.
  expect(existsSync(codexLauncherPath)).toBe(true);
  const env = {
    PATH: `${join(codexCliDir, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
    CODEX_HOME: home.codexHome,
    HOME: home.userHome,
    FAKE_API_KEY: 'interop-test-key',
  };
  const cli = <T>(args: string[]) => studio<T>([...args, '--codex-home', home.codexHome, '--data-dir', dataDir], env);
  try {
    const before = await readFile(join(root, 'memory_summary.md'), 'utf8');
    // The engine's `codex exec` is an ordinary session: the fake model answers with one exec_command edit.
    provider.hooks.ordinaryCommand = (request) =>
      requestText(request).includes('memory_summary.md') ? `printf -- '${MARKER}\\n' >> memory_summary.md && ls rollout_summaries` : null;
    const run = await cli<RunJson>(['consolidate', '--engine', 'codex']);
    provider.hooks.ordinaryCommand = undefined;
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.json).toMatchObject({ state: 'proposed', validation: { ok: true }, error: null });
    expect(await readFile(join(root, 'memory_summary.md'), 'utf8'), 'nothing reaches the live root before Apply').toBe(before);

    // The request Memory Studio's engine sent through codex exec carried its consolidation instructions.
    const engineTurn = provider
      .of('ordinary')
      .find((r) => requestText(r).includes('memory_summary.md') && r.headers['x-openai-subagent'] === undefined);
    expect(engineTurn).toBeDefined();

    const proposal = await cli<ProposalJson>(['show', run.json.proposalId as string]);
    expect(proposal.json.source).toBe('consolidation');
    expect(proposal.json.files.map((f) => f.relPath)).toContain('memory_summary.md');
    const applied = await cli<unknown>(['apply', run.json.proposalId as string, '--accept', 'all']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await readFile(join(root, 'memory_summary.md'), 'utf8')).toBe(`${before}${MARKER}\n`);
  } finally {
    await home.remove();
  }
});
