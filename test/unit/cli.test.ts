// The `memory-studio` command as a user runs it (through bin.cjs and the built output): demo-home, serve, start's fallback.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withTempDir } from './helpers';

const root = resolve(__dirname, '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js')) && existsSync(join(root, 'out', 'renderer', 'index.html'));

function runCli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, timeout: 120_000 });
}

/** Runs a long-lived command until `pattern` appears in its output, then stops it. */
function runUntil(args: string[], pattern: RegExp, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no match for ${pattern} within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        child.kill('SIGTERM');
        resolvePromise(output);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}

describe('memory-studio CLI', () => {
  beforeAll(() => {
    // These tests run the built command as a user would; npm test builds first.
    if (!built) throw new Error('out/ is missing: run "npm run build" before the unit suite, as npm test does.');
  });

  it('prints usage and rejects unknown commands with exit code 2', () => {
    expect(runCli(['--help']).stdout).toContain('memory-studio serve');
    const bad = runCli(['frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('Unknown command "frobnicate"');
    expect(runCli(['serve', '--port', 'abc']).status).toBe(2);
  });

  it('demo-home writes a generated home and its manifest', async () => {
    await withTempDir(async (dir) => {
      const target = join(dir, 'home');
      const result = runCli(['demo-home', target, '--version', 'v1', '--seed', '3', '--json']);
      expect(result.status, result.stderr).toBe(0);
      const manifest = JSON.parse(result.stdout);
      expect(manifest.codexHome).toBe(target);
      expect(manifest.roots.v1.counts.summary).toBe(1);
      expect(manifest.roots.v2).toBeUndefined();
      expect(JSON.parse(await readFile(join(target, 'memory-studio-manifest.json'), 'utf8')).seed).toBe(3);
      expect(runCli(['demo-home', target, '--scale', 'huge']).status).toBe(2);
    });
  });

  it('serve prints a 127.0.0.1 URL with a token', async () => {
    await withTempDir(async (dir) => {
      const output = await runUntil(
        ['serve', '--codex-home', dir, '--data-dir', join(dir, 'data'), '--port', '0'],
        /Open: http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}/,
        process.env,
      );
      expect(output).toContain(`serving ${dir}`);
    });
  });

  it.runIf(process.platform === 'linux')('start says in one line why Electron cannot start, then falls back to serve', async () => {
    await withTempDir(async (dir) => {
      const env = { ...process.env };
      delete env.DISPLAY;
      delete env.WAYLAND_DISPLAY;
      const output = await runUntil(
        ['start', '--codex-home', dir, '--data-dir', join(dir, 'data'), '--port', '0'],
        /Open: http:\/\/127\.0\.0\.1/,
        env,
      );
      const reason = output.split('\n').filter((line) => line.startsWith('Electron cannot start here:'));
      expect(reason).toHaveLength(1);
      expect(reason[0]).toContain('no display');
    });
  });
});

describe('memory-studio inspect commands', () => {
  beforeAll(() => {
    if (!built) throw new Error('out/ is missing: run "npm run build" before the unit suite, as npm test does.');
  });

  it('parse --json prints the kind, diagnostics and the per-kind fields', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      expect(runCli(['demo-home', home, '--seed', '4', '--json']).status).toBe(0);
      const summary = JSON.parse(runCli(['parse', join(home, 'memories_v2', 'memory_summary.md'), '--json']).stdout);
      expect(summary.kind).toBe('memory_summary');
      expect(Array.isArray(summary.diagnostics)).toBe(true);
      expect(summary.pointers[0]).toMatchObject({
        file: expect.stringMatching(/^rollout_summaries\//),
        threadId: expect.any(String),
        line: expect.any(Number),
      });
      const memory = JSON.parse(runCli(['parse', join(home, 'memories', 'MEMORY.md'), '--json']).stdout);
      expect(memory.kind).toBe('memory_md');
      expect(memory.blocks[0]).toMatchObject({
        title: expect.any(String),
        line: expect.any(Number),
        tasks: expect.any(Array),
        keywords: expect.any(Array),
      });
      const sessions = await readdir(join(home, 'sessions'), { recursive: true });
      const rollouts = sessions.filter((f) => f.endsWith('.jsonl')).map((f) => join(home, 'sessions', f));
      const parsedSessions = rollouts.map((f) => JSON.parse(runCli(['parse', f, '--json']).stdout));
      expect(parsedSessions.every((p) => p.kind === 'session_rollout' && typeof p.threadId === 'string')).toBe(true);
      const cited = parsedSessions.find((p) => p.citations.length > 0);
      expect(cited.citations[0]).toMatchObject({ entries: expect.any(Array), threadIds: expect.any(Array) });
      expect(cited.citations[0].entries[0]).toMatchObject({
        path: expect.any(String),
        lineStart: expect.any(Number),
        lineEnd: expect.any(Number),
        note: expect.any(String),
      });
      const broken = join(dir, 'memory_summary.md');
      await writeFile(broken, '## User Profile\n* a star bullet\n');
      const result = runCli(['parse', broken, '--kind', 'memory_summary']);
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('codex/summary-first-line');
    });
  });

  it('lint exits 1 on an error, budget --json reports the cut, inspect --json summarises the home', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      expect(runCli(['demo-home', home, '--version', 'v1', '--seed', '5', '--json']).status).toBe(0);
      expect(runCli(['lint', '--codex-home', home]).status).toBe(0);
      const summaryPath = join(home, 'memories', 'memory_summary.md');
      const summary = await readFile(summaryPath, 'utf8');
      await writeFile(summaryPath, summary.replace(/^v1\n/, '') + '- filler line that pushes the summary over its budget\n'.repeat(300));
      const lint = runCli(['lint', '--codex-home', home, '--json']);
      expect(lint.status).toBe(1);
      expect(JSON.parse(lint.stdout)[0].counts.error).toBeGreaterThan(0);
      const budget = JSON.parse(runCli(['budget', '--codex-home', home, '--json']).stdout)[0];
      expect(budget).toMatchObject({ version: 'v1', limitTokens: 2500, truncated: true });
      expect(budget.removed.startByte).toBeLessThan(budget.removed.endByte);
      expect(budget.injectedText).toContain('tokens truncated');
      expect(JSON.parse(runCli(['budget', '--codex-home', home, '--limit', '100000', '--json']).stdout)[0].truncated).toBe(false);
      const overview = JSON.parse(runCli(['inspect', '--codex-home', home, '--json']).stdout);
      expect(overview.roots[0]).toMatchObject({ version: 'v1', budget: { truncated: true } });
      expect(overview.health.versions[0].stage1.failing.length).toBeGreaterThan(0);
    });
  });
});

describe('memory-studio review commands', () => {
  beforeAll(() => {
    if (!built) throw new Error('out/ is missing: run "npm run build" before the unit suite, as npm test does.');
  });

  it('propose, show, apply with chosen hunks, history and revert; apply exits 2 on a conflict', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const data = ['--data-dir', join(dir, 'data')];
      expect(runCli(['demo-home', home, '--version', 'v1', '--seed', '8', '--json']).status).toBe(0);
      const target = join(home, 'memories', 'memory_summary.md');
      const original = await readFile(target, 'utf8');
      const edited = original.replace('## User Profile', '## User Profile\n\nEdited from the CLI.');
      await writeFile(join(dir, 'new.md'), edited);
      const proposed = runCli([
        'propose',
        '--codex-home',
        home,
        ...data,
        '--file',
        'memory_summary.md',
        '--content-file',
        join(dir, 'new.md'),
      ]);
      expect(proposed.status, proposed.stderr).toBe(0);
      const id = proposed.stdout.trim();
      expect(id).toMatch(/^p-[0-9a-f]+$/);
      const shown = JSON.parse(runCli(['show', id, '--codex-home', home, ...data, '--json']).stdout);
      const hunkIds = shown.files[0].hunks.map((h: { id: string }) => h.id);
      expect(hunkIds.length).toBe(1);
      expect(runCli(['apply', id, '--codex-home', home, ...data, '--accept', 'h-nope']).status).toBe(2);
      const applied = runCli(['apply', id, '--codex-home', home, ...data, '--accept', hunkIds.join(','), '--json']);
      expect(applied.status, applied.stdout + applied.stderr).toBe(0);
      expect(await readFile(target, 'utf8')).toBe(edited);
      const history = JSON.parse(runCli(['history', '--codex-home', home, ...data, '--file', 'memory_summary.md', '--json']).stdout);
      expect(history[0].proposalId).toBe(id);
      const revert = runCli(['revert', history[0].id, '--codex-home', home, ...data]);
      expect(revert.status).toBe(0);
      const revertId = revert.stdout.trim().split(' ')[0] as string;
      await writeFile(target, `${edited}- changed underneath\n`);
      expect(runCli(['apply', revertId, '--codex-home', home, ...data, '--accept', 'all']).status).toBe(2);
      expect(await readFile(target, 'utf8')).toBe(`${edited}- changed underneath\n`);
    });
  });

  it('rebase merges three-way (exit 0 clean, 2 with conflicts listed); apply refuses an unresolved conflict and takes --resolve', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const data = ['--data-dir', join(dir, 'data')];
      const cli = (...args: string[]) => runCli([...args, '--codex-home', home, ...data]);
      expect(runCli(['demo-home', home, '--version', 'v1', '--seed', '9', '--json']).status).toBe(0);
      const target = join(home, 'memories', 'memory_summary.md');
      const original = await readFile(target, 'utf8');
      const lines = original.split('\n');
      const ours = [...lines];
      ours[2] = `${ours[2]} (ours)`;
      ours[lines.length - 4] = `${ours[lines.length - 4]} (ours, far away)`;
      await writeFile(join(dir, 'ours.md'), ours.join('\n'));
      const id = cli('propose', '--file', 'memory_summary.md', '--content-file', join(dir, 'ours.md')).stdout.trim();

      const theirs = [...lines];
      theirs[lines.length - 12] = `${theirs[lines.length - 12]} (Codex, elsewhere)`;
      await writeFile(target, theirs.join('\n'));
      expect(cli('apply', id, '--accept', 'all').status).toBe(2);
      const clean = cli('rebase', id, '--json');
      expect(clean.status, clean.stderr).toBe(0);
      expect(JSON.parse(clean.stdout)).toMatchObject({ clean: true, conflicts: [], files: [{ outcome: 'merged' }] });

      theirs[2] = `${theirs[2]} (Codex, same line)`;
      await writeFile(target, theirs.join('\n'));
      const rebased = cli('rebase', id);
      expect(rebased.status).toBe(2);
      const conflictId = /(h[0-9a-f]{12}) {2}CONFLICT/.exec(rebased.stdout)?.[1] as string;
      expect(conflictId).toBeDefined();
      const shown = JSON.parse(cli('show', id, '--json').stdout);
      const conflict = shown.files[0].hunks.find((h: { id: string }) => h.id === conflictId);
      expect(conflict).toMatchObject({
        kind: 'conflict',
        conflict: {
          theirs: { text: [expect.stringContaining('(Codex, same line)')] },
          ours: { text: [expect.stringContaining('(ours)')] },
        },
      });
      expect(cli('show', id).stdout).toContain(`${conflictId}`);
      expect(cli('show', id).stdout).toContain('CONFLICT with the disk, UNRESOLVED');

      const refused = cli('apply', id, '--accept', 'all', '--json');
      expect(refused.status).toBe(2);
      expect(JSON.parse(refused.stdout).error.message).toMatch(/not resolved yet.*Nothing was written/);
      expect(await readFile(target, 'utf8')).toBe(theirs.join('\n'));
      expect(cli('apply', id, '--accept', conflictId).status).toBe(2);
      expect(cli('apply', id, '--resolve', `${conflictId}=maybe`).status).toBe(2);
      const applied = cli('apply', id, '--resolve', `${conflictId}=both`);
      expect(applied.status, applied.stderr).toBe(0);
      const result = (await readFile(target, 'utf8')).split('\n');
      expect(result[2]).toContain('(Codex, same line)');
      expect(result[3]).toContain('(ours)');
      expect(result.some((l) => l.includes('(ours, far away)'))).toBe(true);
      expect(result.some((l) => l.includes('(Codex, elsewhere)'))).toBe(true);
    });
  });
});
