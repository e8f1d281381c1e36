// Memory Studio's Claude Code import beside real Codex: phase 2 sees it, and Codex's own importer and ours never undo each other.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppServer } from './support/app-server';
import { claudeProjectKey, snapshotRoot, under, writeClaudeProject, type ClaudeProject } from './support/claude-home';
import { ageCooldown, CodexHome, nowSec } from './support/codex';
import { FakeProvider, toolOutputs } from './support/fake-provider';
import { phase2Command } from './support/phase2-scripts';
import { studio } from './support/studio';

const provider = new FakeProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());

const RESOURCES = 'extensions/external_agent_import/resources/';
const INSTRUCTIONS = 'extensions/external_agent_import/instructions.md';

interface PlanJson {
  writes: unknown[];
  removed: unknown[];
  nothingToImport: boolean;
}

/** A v2 home real Codex has started in once (its root and baseline exist), with a Claude project to import. */
async function homeWithClaudeProject(): Promise<{
  home: CodexHome;
  claude: ClaudeProject;
  /** The phase-2 agent's command that writes a valid summary. */
  consolidate: string;
  ours: (mode: '--plan' | '--apply') => Promise<{ code: number | null; json: PlanJson; stderr: string }>;
}> {
  const home = await CodexHome.create(provider, { features: ['external_agent_memory_import'] });
  const consolidate = await phase2Command(home.base, { version: 'v2', project: home.work });
  provider.hooks.phase2Command = () => consolidate;
  const first = await home.exec('first session', { holdUntil: home.phase2Finished('v2', nowSec()) });
  expect(first.code, first.stderr.slice(-2000)).toBe(0);
  const claude = await writeClaudeProject(home.userHome, join(home.base, 'work', 'web app'));
  const ours = (mode: '--plan' | '--apply') =>
    studio<PlanJson>([
      'import',
      '--from',
      'claude',
      '--source-home',
      claude.claudeHome,
      mode,
      '--redact-secrets',
      '--codex-home',
      home.codexHome,
      '--data-dir',
      join(home.base, 'studio-data'),
    ]);
  return { home, claude, consolidate, ours };
}

function expectImported(snapshot: Map<string, string>, claude: ClaudeProject): void {
  const files = Object.keys(under(snapshot, `${RESOURCES}${claude.key}/`)).map((p) => p.slice(`${RESOURCES}${claude.key}/`.length));
  expect(files.sort()).toEqual([...Object.keys(claude.files), 'scope.json'].sort());
}

it('after Memory Studio’s import, real Codex’s phase 2 is shown the imported resources with their scope', async () => {
  const { home, claude, consolidate, ours } = await homeWithClaudeProject();
  try {
    expect(claude.key).toBe(claudeProjectKey(claude.cwd));
    const applied = await ours('--apply');
    expect(applied.code, applied.stderr).toBe(0);
    expect(home.globalJob('v2')?.status, 'the import enqueues consolidation as Codex’s importer does').toBe('pending');
    ageCooldown(home, 'v2');
    provider.hooks.phase2Command = () => `cat phase2_workspace_diff.md ${RESOURCES}*/scope.json && ${consolidate}`;
    const phase2Before = provider.of('phase2').length;
    const result = await home.exec('after the import', { holdUntil: home.phase2Finished('v2', nowSec()) });
    expect(result.code).toBe(0);
    expect(home.globalJob('v2')).toMatchObject({ status: 'done', last_error: null });
    const seen = provider.of('phase2').slice(phase2Before).flatMap(toolOutputs).join('\n');
    for (const file of [...Object.keys(claude.files), 'scope.json']) expect(seen).toContain(`- A ${RESOURCES}${claude.key}/${file}`);
    expect(seen).toContain(`- A ${INSTRUCTIONS}`);
    expect(seen).toContain(`+{"cwd":"${claude.cwd}"}`);
    expect(seen).toContain('+Run `npm test` before editing.');
  } finally {
    await home.remove();
  }
});

it('ours then Codex’s importer, on the same source: the imported files survive byte for byte, and re-running either changes nothing', async () => {
  const { home, claude, ours } = await homeWithClaudeProject();
  const codex = await AppServer.start(home);
  try {
    expect((await ours('--apply')).code).toBe(0);
    const afterOurs = await snapshotRoot(home.memoryRoots.v2);
    expectImported(afterOurs, claude);

    // Codex's detection sees our import as complete: it offers nothing to import.
    expect(await codex.detectClaudeMemory()).toBeNull();
    // Imported anyway (as a person picking the project in Codex's UI would).
    await codex.importClaudeMemory([claude.key]);
    const afterCodex = await snapshotRoot(home.memoryRoots.v2);
    // Codex rewrites the project folder and its own instructions.md; what was imported stays byte for byte.
    expect(under(afterCodex, RESOURCES)).toEqual(under(afterOurs, RESOURCES));
    expect(afterCodex.has(INSTRUCTIONS)).toBe(true);

    const replan = await ours('--plan');
    expect(replan.json, 'our importer has nothing to change after Codex’s').toMatchObject({
      nothingToImport: true,
      writes: [],
      removed: [],
    });
    await codex.importClaudeMemory([claude.key]);
    expect(await snapshotRoot(home.memoryRoots.v2), 'Codex’s importer run again changes nothing').toEqual(afterCodex);
  } finally {
    await codex.stop();
    await home.remove();
  }
});

it('Codex’s importer then ours: ours proposes nothing (and never removes Codex’s import), and Codex’s re-run changes nothing', async () => {
  const { home, claude, ours } = await homeWithClaudeProject();
  const codex = await AppServer.start(home);
  try {
    const offered = await codex.detectClaudeMemory();
    expect(offered?.details?.memory).toEqual([claude.key]);
    await codex.importClaudeMemory([claude.key]);
    const afterCodex = await snapshotRoot(home.memoryRoots.v2);
    expectImported(afterCodex, claude);

    const plan = await ours('--plan');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.json).toMatchObject({ nothingToImport: true, writes: [], removed: [] });
    const applied = await ours('--apply');
    expect(applied.code, applied.stderr).toBe(0);
    expect(await snapshotRoot(home.memoryRoots.v2), 'our importer changed nothing Codex wrote').toEqual(afterCodex);

    expect(await codex.detectClaudeMemory(), 'Codex still sees nothing to import after ours ran').toBeNull();
    await codex.importClaudeMemory([claude.key]);
    expect(await snapshotRoot(home.memoryRoots.v2)).toEqual(afterCodex);
  } finally {
    await codex.stop();
    await home.remove();
  }
});
