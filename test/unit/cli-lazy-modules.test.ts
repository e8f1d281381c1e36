// What a command loads is part of how fast it starts: export, budget and an Apply without a repair never load zod
// (~45 ms before they do anything) nor, for export, the arrival planning and the proposal code; the MCP server answers
// initialize before it loads core.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBuilt as built, runIsolatedCli } from './cli-spawn';
import { makeTempDir } from './helpers';

let tmp: { dir: string; cleanup: () => Promise<void> };
let codexHome: string;
beforeAll(async () => {
  tmp = await makeTempDir();
  codexHome = join(tmp.dir, 'home');
  await mkdir(join(codexHome, 'memories', 'rollout_summaries'), { recursive: true });
  await writeFile(join(codexHome, 'config.toml'), '[features]\nmemories = true\n\n[memories]\nversion = "v1"\n');
  await writeFile(join(codexHome, 'memories', 'memory_summary.md'), '## User preferences\n- uses pnpm\n');
  await writeFile(join(codexHome, 'memories', 'MEMORY.md'), '# Task group: build\n- the build runs with pnpm\n');
  await writeFile(join(codexHome, 'memories', 'rollout_summaries', 'a.md'), 'thread_id: 1\n\n# a\n');
});
afterAll(() => tmp.cleanup());

/** The modules the command's main thread loaded, as paths relative to the checkout. */
async function loadedBy(
  name: string,
  args: string[],
  input?: string,
  atOutput = false,
): Promise<{ modules: string[]; stdout: string; output: string; status: number | null }> {
  const out = join(tmp.dir, `${name}.modules.json`);
  const env = {
    NODE_OPTIONS: `--require ${join(__dirname, 'module-probe.cjs')}`,
    MEMORY_STUDIO_MODULES_OUT: out,
    ...(atOutput ? { MEMORY_STUDIO_MODULES_AT_OUTPUT: '1' } : {}),
  };
  const run = runIsolatedCli(tmp.dir, [...args, '--codex-home', codexHome], env, 60_000, input);
  const modules = (JSON.parse(await readFile(out, 'utf8')) as string[]).map((m) => m.replaceAll('\\', '/'));
  return { modules, stdout: run.stdout, output: run.output, status: run.status };
}

const zod = (modules: string[]) => modules.filter((m) => m.includes('/node_modules/zod/'));

describe.skipIf(!built)('what a command loads', () => {
  it('export writes its bundle without zod, arrival planning or proposals', async () => {
    const run = await loadedBy('export', ['export', '--out', join(tmp.dir, 'bundle.tar.gz'), '--json']);
    expect(run.status, run.output).toBe(0);
    expect((JSON.parse(run.stdout) as { files: number }).files).toBe(3);
    expect(zod(run.modules)).toEqual([]);
    expect(run.modules.filter((m) => /\/sync\/(arrive|bundle)\.js$|\/review\/proposals\.js$/.test(m))).toEqual([]);
    // The probe sees what is loaded: the archive writer is.
    expect(run.modules.some((m) => m.endsWith('/sync/bundle-write.js'))).toBe(true);
  });

  it('the MCP server answers initialize without loading core, the overview or the embedding settings', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    };
    // What was loaded when the answer was written: the server warms core up on its own after a while (1.5 s), which a
    // busy machine can reach before the process exits.
    const run = await loadedBy('mcp', ['mcp'], `${JSON.stringify(initialize)}\n`, true);
    expect(run.status, run.output).toBe(0);
    expect(run.stdout).toContain('"serverInfo"');
    const ours = run.modules.filter((m) => m.includes('/out/'));
    expect(ours.filter((m) => /\/(cli-overview|use-cases\/overview|use-cases\/settings|service\/service)\.js$/.test(m))).toEqual([]);
    // The probe sees what is loaded: the tools are.
    expect(ours.some((m) => m.endsWith('/host/mcp-tools.js'))).toBe(true);
  });

  it('budget answers without zod', async () => {
    const run = await loadedBy('budget', ['budget', '--json']);
    expect(run.status, run.output).toBe(0);
    expect(zod(run.modules)).toEqual([]);
  });

  it('an Apply without a repair loads no zod, and releases its lock', async () => {
    const edited = join(tmp.dir, 'summary.md');
    await writeFile(edited, '## User preferences\n- uses pnpm\n- prefers small commits\n');
    const proposed = runIsolatedCli(tmp.dir, [
      'propose',
      '--version',
      'v1',
      '--file',
      'memory_summary.md',
      '--content-file',
      edited,
      '--json',
      '--codex-home',
      codexHome,
    ]);
    expect(proposed.status, proposed.output).toBe(0);
    const id = (JSON.parse(proposed.stdout) as { id: string }).id;
    const run = await loadedBy('apply', ['apply', id, '--accept', 'all', '--json']);
    expect(run.status, run.output).toBe(0);
    expect(await readFile(join(codexHome, 'memories', 'memory_summary.md'), 'utf8')).toContain('prefers small commits');
    expect(zod(run.modules)).toEqual([]);
    // Nor a consolidation's validators (an edit is not one) or the whole lint (the project secret gate needs the scanner).
    expect(run.modules.filter((m) => /\/(consolidation-gate|consolidate\/validate|lint\/lint-root)\.js$/.test(m))).toEqual([]);
    expect(run.modules.some((m) => m.endsWith('/apply/apply-plan.js'))).toBe(true);
    // Its lock is gone: released, not left for the next writer to judge stale.
    // The locks folder exists (Apply took a lock in it) and holds no lock now.
    const locks = await readdir(join(tmp.dir, 'data', 'locks'));
    expect(locks.filter((name) => name.endsWith('.lock'))).toEqual([]);
  });
});
