// `memory-studio import` in process (the same main() bin.cjs runs): --plan output, --apply with a secret choice, exit codes.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../electron/host/cli';
import { setGlobalRow } from '../apply/helpers';
import { makeTempDir, openGeneratedHome } from '../helpers';
import { APP_KEY, makeClaudeHome, SECRETS } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0)) await c();
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    return { code: await main(args), out: out.join('\n'), err: err.join('\n') };
  } finally {
    vi.restoreAllMocks();
  }
}

async function setUp() {
  const temp = await makeTempDir();
  const f = await makeClaudeHome(temp.dir);
  const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 8, git: false });
  cleanups.push(async () => {
    await g.dispose();
    await temp.cleanup();
  });
  const common = [
    '--from',
    'claude',
    '--source-home',
    f.claudeHome,
    '--codex-home',
    g.manifest.codexHome,
    '--data-dir',
    join(temp.dir, 'cli-data'),
  ];
  return { f, g, common };
}

describe('memory-studio import', () => {
  it('--plan --json prints projects, files, skipped entries with reasons and findings with line numbers', async () => {
    const { common } = await setUp();
    const { code, out } = await run(['import', ...common, `--project=${APP_KEY}`, '--plan', '--json']);
    expect(code).toBe(0);
    const plan = JSON.parse(out);
    expect(plan.projects.map((p: { key: string }) => p.key)).toEqual([APP_KEY]);
    const feedback = plan.projects[0].files.find((x: { relPath: string }) => x.relPath === 'feedback_testing.md');
    expect(feedback.findings[0]).toMatchObject({ rule: 'secrets/openai-project-key', line: 12 });
    expect(feedback.content).toBeUndefined();
    expect(plan.skipped.map((s: { code: string }) => s.code)).toEqual(
      expect.arrayContaining(['symlink', 'too-large', 'binary', 'invalid-utf8', 'unsafe-name']),
    );
    expect(out).not.toContain(SECRETS.openai);
  });

  it('--apply without a secret choice is a usage error (exit 2); applies with --redact-secrets, then has nothing to import', async () => {
    const { g, common } = await setUp();
    const refused = await run(['import', ...common, '--apply', '--json']);
    expect(refused.code).toBe(2);
    // With --json the usage error is JSON on stdout too.
    expect(JSON.parse(refused.out)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/--apply needs --redact-secrets or --skip-secret-files/) },
    });
    const applied = await run(['import', ...common, '--apply', '--redact-secrets', '--json']);
    expect(applied.code, applied.err).toBe(0);
    const result = JSON.parse(applied.out);
    expect(result.proposalId).toMatch(/^p-/);
    expect(result.written).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          version: 'v1',
          relPath: `extensions/external_agent_import/resources/${APP_KEY}/scope.json`,
          action: 'write',
          target: 'memory',
        }),
      ]),
    );
    // v2 is a target too (a v1 home), but it has no memory DB yet: nobody to coordinate with there.
    expect(result.lease).toEqual([
      { version: 'v1', previous: 'pending' },
      { version: 'v2', previous: 'absent' },
    ]);
    const written = await readFile(join(g.root, 'extensions', 'external_agent_import', 'resources', APP_KEY, 'orphan_idea.md'), 'utf8');
    expect(written).toContain(`AWS key for the sandbox: [REDACTED_SECRET]`);
    const again = await run(['import', ...common, '--apply', '--redact-secrets', '--json']);
    expect(JSON.parse(again.out)).toMatchObject({ ok: true, nothingToImport: true, proposalId: null });
  });

  it('removes only its own import once the source is gone, --keep-removed keeps it; another source is listed as kept', async () => {
    const { f, common } = await setUp();
    expect((await run(['import', ...common, '--apply', '--redact-secrets', '--json'])).code).toBe(0);
    await rm(join(f.claudeHome, 'projects', APP_KEY), { recursive: true });
    const plan = JSON.parse((await run(['import', ...common, '--plan', '--json'])).out);
    expect(plan.removed.map((r: { key: string; version: string }) => `${r.version} ${r.key}`)).toEqual([`v1 ${APP_KEY}`, `v2 ${APP_KEY}`]);
    // The generated home's own earlier import never came from this Claude home: kept, and said so.
    expect(plan.kept).toEqual([expect.objectContaining({ key: '-home-dana-src-webapp', why: 'from-another-source' })]);
    const kept = await run(['import', ...common, '--plan', '--keep-removed']);
    expect(kept.out).toContain(`kept: kept by you: v1 ${APP_KEY}`);
    expect(kept.out).not.toContain('removed (imported from this source');
    expect(kept.out).toContain('Nothing to import yet: 2 projects (3 files) wait for --cwd (see above)');
  });

  it('exits 3 when Codex holds the lease, and 2 on bad usage', async () => {
    const { g, common } = await setUp();
    setGlobalRow(join(g.manifest.codexHome, 'memories_1.sqlite'), {
      status: 'running',
      worker_id: 'codex',
      ownership_token: 't',
      lease_until: Math.floor(Date.now() / 1000) + 3600,
    });
    const locked = await run(['import', ...common, '--apply', '--skip-secret-files']);
    expect(locked.code).toBe(3);
    expect(locked.err).toMatch(/stays pending/);
    expect((await run(['import', '--from', 'vscode', '--plan'])).code).toBe(2);
    expect((await run(['import', ...common, '--apply', '--redact-secrets', '--skip-secret-files'])).code).toBe(2);
  });

  it('--plan holds the contract’s limits as import.plan does: 201 repositories are refused, naming the field', async () => {
    const { common } = await setUp();
    const repos = Array.from({ length: 201 }, (_, i) => `/tmp/repo-${i}`).join(',');
    for (const mode of [['--plan'], ['--apply', '--redact-secrets']]) {
      const refused = await run(['import', ...common, `--repo=${repos}`, ...mode]);
      expect(refused.code, mode.join(' ')).toBe(1);
      expect(refused.err).toMatch(/Invalid request for import\.(plan|propose): repos/);
    }
  });
});
