// The codex engine against a fake `codex` executable first on PATH: argv, cwd, env, events, failures, cancel.
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultEngineSettings } from '../../../electron/core/consolidate/engine-settings';
import { codexEngine, codexExecArgs, createCodexEngine } from '../../../electron/core/consolidate/engines/codex';
import type { EngineRun } from '../../../electron/core/consolidate/types';
import { StudioFailure } from '../../../electron/core/platform/errors';
import { makeTempDir } from '../helpers';

const FAKE_CODEX = String.raw`#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
const args = process.argv.slice(2);
const mode = process.env.FAKE_CODEX_MODE || 'ok';
if (args[0] === '--version') { console.log('codex-cli 0.999.0-test'); process.exit(0); }
if (args[0] === 'exec' && args[1] === '--help') {
  console.log('Usage: codex exec [OPTIONS] [PROMPT]\n  -C, --cd <DIR>\n  --ephemeral\n  --skip-git-repo-check\n  -s, --sandbox <MODE>\n  -c, --config <key=value>\n  --json\n  -m, --model <MODEL>');
  process.exit(0);
}
const out = (event) => process.stdout.write(JSON.stringify(event) + '\n');
let stdin = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { stdin += d; });
process.stdin.on('end', () => {
  // Written then renamed: the test waits for the file to exist and must never read it half written.
  fs.writeFileSync(process.env.FAKE_CODEX_RECORD + '.tmp', JSON.stringify({ argv: args, cwd: process.cwd(), env: { CODEX_HOME: process.env.CODEX_HOME, PATH: process.env.PATH }, stdin, pid: process.pid }));
  fs.renameSync(process.env.FAKE_CODEX_RECORD + '.tmp', process.env.FAKE_CODEX_RECORD);
  out({ type: 'thread.started', thread_id: 'thread-fake-1' });
  out({ type: 'turn.started' });
  if (mode === 'sleep' || mode === 'stubborn') {
    if (mode === 'stubborn') { process.on('SIGINT', () => {}); process.on('SIGTERM', () => {}); }
    setInterval(() => {}, 1000);
    return;
  }
  if (mode === 'fail') {
    out({ type: 'turn.failed', error: { message: 'model overloaded, try later' } });
    process.stderr.write('ERROR: turn failed: model overloaded\n');
    process.exit(1);
  }
  out({ type: 'item.started', item: { id: 'i1', type: 'command_execution', command: 'cat phase2_workspace_diff.md', aggregated_output: '', exit_code: null, status: 'in_progress' } });
  out({ type: 'item.completed', item: { id: 'i1', type: 'command_execution', command: 'cat phase2_workspace_diff.md', aggregated_output: '# Memory Workspace Diff', exit_code: 0, status: 'completed' } });
  process.stdout.write('this line is not json\n');
  out({ type: 'item.completed', item: { id: 'i0', type: 'some_future_item', whatever: 1 } });
  out({ type: 'brand.new.event', extra: true });
  fs.writeFileSync(path.join(process.cwd(), 'memory_summary.md'), 'v1\n\n## User Profile\nfake\n');
  const changes = [{ path: path.join(process.cwd(), 'memory_summary.md'), kind: 'update' }];
  if (mode === 'outside') changes.push({ path: '/etc/hosts-fake-codex', kind: 'update' });
  if (mode === 'symlink') fs.symlinkSync('/etc/hostname', path.join(process.cwd(), 'link.md'));
  out({ type: 'item.completed', item: { id: 'i2', type: 'file_change', changes, status: 'completed' } });
  out({ type: 'item.completed', item: { id: 'i3', type: 'agent_message', text: 'Updated memory_summary.md with the new preference.' } });
  out({ type: 'turn.completed', usage: { input_tokens: 1200, cached_input_tokens: 200, output_tokens: 340 } });
  process.exit(0);
});
`;

interface Recorded {
  argv: string[];
  cwd: string;
  env: { CODEX_HOME?: string; PATH?: string };
  stdin: string;
  pid: number;
}

let dir: string;
let cleanup: () => Promise<void>;
let staging: string;
let bin: string;
let record: string;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  staging = join(dir, 'staging');
  bin = join(dir, 'bin');
  record = join(dir, 'record.json');
  await mkdir(staging);
  await mkdir(bin);
  await writeFile(join(staging, 'phase2_workspace_diff.md'), '# Memory Workspace Diff\n');
  await writeFile(join(bin, 'codex'), FAKE_CODEX);
  await chmod(join(bin, 'codex'), 0o755);
});

afterEach(async () => {
  await cleanup();
});

function makeRun(
  mode: string,
  patch: { signal?: AbortSignal; timeoutSeconds?: number; model?: string | null; command?: string | null; path?: string } = {},
) {
  const logs: string[] = [];
  const progress: string[] = [];
  const settings = defaultEngineSettings();
  settings.engine = 'codex';
  settings.codex.timeoutSeconds = patch.timeoutSeconds ?? 60;
  settings.codex.model = patch.model ?? null;
  settings.codex.command = patch.command ?? null;
  const run: EngineRun = {
    version: 'v1',
    stagingRoot: staging,
    settings,
    instructions: 'Consolidate the memories in this folder.\n',
    signal: patch.signal ?? new AbortController().signal,
    progress: (message) => progress.push(message),
    log: (line) => logs.push(line),
    env: {
      ...process.env,
      PATH: patch.path ?? `${bin}${delimiter}${process.env.PATH ?? ''}`,
      CODEX_HOME: join(dir, 'codex-home'),
      FAKE_CODEX_MODE: mode,
      FAKE_CODEX_RECORD: record,
    },
  };
  return { run, logs, progress };
}

async function readRecord(): Promise<Recorded> {
  return JSON.parse(await readFile(record, 'utf8')) as Recorded;
}

async function waitFor(check: () => boolean, timeoutMs = 120_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('codex engine', () => {
  it('runs codex exec sandboxed in staging with memories and network off, prompt on stdin', async () => {
    const { run, logs, progress } = makeRun('ok', { model: 'gpt-5.4' });
    const result = await codexEngine(run);
    const rec = await readRecord();
    expect(rec.argv).toEqual(['exec', ...codexExecArgs(staging, 'gpt-5.4').slice(1)]);
    const argv = rec.argv.join(' ');
    expect(rec.argv[0]).toBe('exec');
    expect(argv).toContain(`-C ${staging}`);
    expect(argv).toContain('--sandbox workspace-write');
    for (const flag of ['--ephemeral', '--skip-git-repo-check', '--json']) expect(rec.argv).toContain(flag);
    for (const c of [
      'sandbox_workspace_write.network_access=false',
      'sandbox_workspace_write.exclude_slash_tmp=true',
      'sandbox_workspace_write.exclude_tmpdir_env_var=true',
      'features.memories=false',
      'memories.generate_memories=false',
      'memories.use_memories=false',
      'features.multi_agent=false',
      'features.apps=false',
      'features.plugins=false',
      'features.skill_mcp_dependency_install=false',
      'sandbox_workspace_write.writable_roots=[]',
      'mcp_servers={}',
      'model_reasoning_effort="medium"',
    ]) {
      expect(rec.argv[rec.argv.indexOf(c) - 1]).toBe('-c');
    }
    // One argument: the model can never be read as an option of its own.
    expect(rec.argv).toContain('--model=gpt-5.4');
    expect(rec.argv).not.toContain('-m');
    expect(rec.argv.at(-1)).toBe('-');
    expect(rec.cwd).toBe(staging);
    expect(rec.env.CODEX_HOME).toBe(join(dir, 'codex-home'));
    expect(rec.stdin).toBe(run.instructions);

    expect(await readFile(join(staging, 'memory_summary.md'), 'utf8')).toMatch(/^v1\n/);
    expect((await readdir(dir)).sort()).toEqual(['bin', 'record.json', 'staging']);
    expect(result).toMatchObject({
      engine: 'codex',
      model: 'gpt-5.4',
      wrote: ['memory_summary.md'],
      usage: { inputTokens: 1200, outputTokens: 340 },
    });

    expect(logs.some((l) => l.includes('codex-cli 0.999.0-test'))).toBe(true);
    expect(logs).toContain('$ cat phase2_workspace_diff.md → exit 0');
    expect(logs.some((l) => l.startsWith('update ') && l.endsWith('memory_summary.md'))).toBe(true);
    expect(logs.some((l) => l.startsWith('Agent: Updated memory_summary.md'))).toBe(true);
    expect(logs.some((l) => l.includes('1200 input tokens (200 cached), 340 output tokens'))).toBe(true);
    expect(logs.some((l) => l.includes('not a JSON event') && l.includes('this line is not json'))).toBe(true);
    expect(logs.some((l) => l.includes('does not list'))).toBe(false);
    expect(progress.some((p) => p.startsWith('Running: cat phase2_workspace_diff.md'))).toBe(true);
  });

  it('passes no model when none is configured', async () => {
    const { run } = makeRun('ok');
    const result = await codexEngine(run);
    expect((await readRecord()).argv.filter((a) => a === '-m' || a.startsWith('--model'))).toEqual([]);
    expect(result.model).toBeNull();
  });

  it('never passes a model name that is an option, and never runs codex with one', async () => {
    for (const bad of ['--dangerously-bypass-approvals-and-sandbox', '-c', 'gpt 5', 'gpt-5;rm -rf', 'a\nb']) {
      expect(() => codexExecArgs(staging, bad)).toThrow(/cannot be used/);
      const { run } = makeRun('ok', { model: bad });
      await expect(codexEngine(run)).rejects.toMatchObject({ kind: 'Invalid' });
    }
    await expect(readRecord()).rejects.toThrow();
    expect(codexExecArgs(staging, 'openai/gpt-oss:20b')).toContain('--model=openai/gpt-oss:20b');
  });

  it('warns about a reported change outside staging', async () => {
    const { run, logs } = makeRun('outside');
    await codexEngine(run);
    expect(logs.some((l) => l.startsWith('Warning: the agent reported a change outside the staging folder: /etc/hosts-fake-codex'))).toBe(
      true,
    );
  });

  it('refuses a result with a symlink the agent created', async () => {
    const { run } = makeRun('symlink');
    await expect(codexEngine(run)).rejects.toMatchObject({ kind: 'Invalid', message: expect.stringContaining('link.md') });
  });

  it('turns a failed exec (exit 1, turn.failed) into a clear error with the stderr tail', async () => {
    const { run } = makeRun('fail');
    const error = await codexEngine(run).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StudioFailure);
    const failure = error as StudioFailure;
    expect(failure.kind).toBe('Internal');
    expect(failure.message).toContain('exit code 1');
    expect(failure.message).toContain('model overloaded, try later');
    expect(failure.message).toContain('ERROR: turn failed');
    expect(failure.hint).toBeTruthy();
  });

  it('cancels: SIGINT to the process group, the process is gone when the promise rejects', async () => {
    const controller = new AbortController();
    const { run } = makeRun('sleep', { signal: controller.signal });
    const running = codexEngine(run);
    running.catch(() => undefined);
    await waitFor(() => existsSync(record));
    const { pid } = await readRecord();
    expect(alive(pid)).toBe(true);
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    // Behaviour, not time: once the promise settles the whole process group is gone.
    expect(alive(pid)).toBe(false);
  });

  it('escalates to SIGKILL when codex ignores SIGINT and SIGTERM', async () => {
    const controller = new AbortController();
    const { run } = makeRun('stubborn', { signal: controller.signal });
    const running = createCodexEngine({ graceMs: { term: 150, kill: 300 } })(run);
    running.catch(() => undefined);
    await waitFor(() => existsSync(record));
    const { pid } = await readRecord();
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(alive(pid)).toBe(false);
  });

  it('stops a run that exceeds the timeout', async () => {
    const { run } = makeRun('sleep', { timeoutSeconds: 1 });
    await expect(codexEngine(run)).rejects.toMatchObject({
      kind: 'Internal',
      message: expect.stringContaining('did not finish within 1 s'),
    });
    const { pid } = await readRecord();
    expect(alive(pid)).toBe(false);
  });

  it('reports a missing codex as NotFound with install advice', async () => {
    const empty = join(dir, 'empty-bin');
    await mkdir(empty);
    const { run } = makeRun('ok', { path: empty });
    await expect(codexEngine(run)).rejects.toMatchObject({
      kind: 'NotFound',
      hint: expect.stringContaining('npm install -g @openai/codex'),
    });
    const configured = makeRun('ok', { command: join(dir, 'nowhere', 'codex') });
    await expect(codexEngine(configured.run)).rejects.toMatchObject({
      kind: 'NotFound',
      message: expect.stringContaining('engine settings'),
    });
  });

  it('uses the configured command path', async () => {
    const empty = join(dir, 'empty-bin');
    await mkdir(empty);
    const { run } = makeRun('ok', { command: join(bin, 'codex'), path: `${empty}${delimiter}${process.env.PATH ?? ''}` });
    const result = await codexEngine(run);
    expect(result.wrote).toEqual(['memory_summary.md']);
  });
});
