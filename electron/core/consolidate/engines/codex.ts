// The `codex` engine: runs the user's own `codex exec` non-interactively, sandboxed, in the staging folder.
import { isGitName } from '../../platform/safe-path';
import { access, constants, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { StudioFailure } from '../../platform/errors';
import { modelNameProblem } from '../model-name';
import type { Engine, EngineResult, EngineRun } from '../types';
import { abortError } from './abort';
import { type CodexStreamState, createCodexStreamState, handleCodexLine, shorten } from './codex-events';
import { captureCommand, type ExecOutcome, runExec } from './codex-process';
import { classifyReportedPaths, diffSnapshots, snapshotStaging, type StagingSnapshot } from './staging-snapshot';

export interface CodexEngineOptions {
  /** Delays after SIGINT before SIGTERM and SIGKILL (default 3 s and 6 s). */
  graceMs?: { term: number; kill: number };
  /** Timeout of `codex --version` and `codex exec --help` (default 15 s). */
  probeTimeoutMs?: number;
}

const INSTALL_HINT =
  'Install Codex CLI (npm install -g @openai/codex, or brew install codex), log in with `codex login`, or set the path of the codex executable in the engine settings.';

/** Flags we pass that `codex exec --help` should list; a missing one is reported in the log. */
const ADVERTISED_FLAGS = ['--cd', '--ephemeral', '--skip-git-repo-check', '--sandbox', '--config', '--json', '--model'] as const;

/** The exact `codex exec` arguments (after the command): sandboxed like Codex's own Phase 2 agent, prompt on stdin. */
export function codexExecArgs(stagingRoot: string, model: string | null): string[] {
  const config = [
    'sandbox_workspace_write.network_access=false',
    'sandbox_workspace_write.exclude_slash_tmp=true',
    'sandbox_workspace_write.exclude_tmpdir_env_var=true',
    // A `-c` value replaces the whole path (docs/codex-facts.md, `codex exec` as a worker): the user's extra writable roots and MCP servers
    // (which run outside Codex's sandbox) are dropped, as Codex's own Phase 2 locks them for its agent.
    'sandbox_workspace_write.writable_roots=[]',
    'mcp_servers={}',
    'features.memories=false',
    'memories.generate_memories=false',
    'memories.use_memories=false',
    'features.multi_agent=false',
    'features.apps=false',
    'features.plugins=false',
    'features.skill_mcp_dependency_install=false',
    'model_reasoning_effort="medium"',
  ];
  const args = ['exec', '-C', stagingRoot, '--ephemeral', '--skip-git-repo-check', '--sandbox', 'workspace-write'];
  for (const entry of config) args.push('-c', entry);
  // One argument, `--model=VALUE`, and only a checked name: a value can never become an option of its own.
  if (model) {
    const problem = modelNameProblem(model);
    if (problem)
      throw new StudioFailure('Invalid', `The codex model cannot be used: ${problem}.`, { hint: 'Choose a model name such as gpt-5.4.' });
    args.push(`--model=${model}`);
  }
  args.push('--json', '-');
  return args;
}

/** The codex executable to run: the configured one, else the first `codex` on the run's PATH; missing → NotFound. */
export async function findCodexCommand(configured: string | null, env: NodeJS.ProcessEnv): Promise<string> {
  const setting = configured?.trim() ?? '';
  if (setting.length > 0 && (isAbsolute(setting) || /[\\/]/.test(setting))) {
    if (await isExecutable(setting)) return setting;
    throw new StudioFailure('NotFound', `The codex command set in the engine settings (${setting}) does not exist or is not executable.`, {
      path: setting,
      hint: INSTALL_HINT,
    });
  }
  const name = setting.length > 0 ? setting : 'codex';
  const found = await searchPath(name, env);
  if (found) return found;
  throw new StudioFailure('NotFound', `Codex CLI was not found: there is no "${name}" on the PATH Memory Studio runs with.`, {
    hint: INSTALL_HINT,
  });
}

async function searchPath(name: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const pathVar = env.PATH ?? env.Path ?? '';
  const exts = process.platform === 'win32' ? ['.exe', '.com', ''] : [''];
  for (const dir of pathVar.split(delimiter)) {
    if (dir.length === 0) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (await isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function createCodexEngine(options: CodexEngineOptions = {}): Engine {
  const graceMs = options.graceMs ?? { term: 3000, kill: 6000 };
  const probeTimeoutMs = options.probeTimeoutMs ?? 15_000;
  return async (run) => {
    if (run.signal.aborted) throw abortError(run.signal);
    const command = await findCodexCommand(run.settings.codex.command, run.env);
    const version = await probeCodex(command, run, probeTimeoutMs);
    if (run.signal.aborted) throw abortError(run.signal);
    const model = run.settings.codex.model?.trim() || null;
    const args = codexExecArgs(run.stagingRoot, model);
    run.log(`Running: ${command} ${args.map(quoteArg).join(' ')} (prompt on stdin, ${run.instructions.length} characters)`);
    run.progress('Starting the Codex agent in the staging folder.');
    const before = await snapshotStaging(run.stagingRoot);
    const state = createCodexStreamState();
    const outcome = await runCodexExec(command, args, run, state, graceMs);
    if (outcome.stopped === 'cancelled') throw abortError(run.signal);
    if (outcome.stopped === 'timeout') throw timeoutFailure(run, outcome);
    if (outcome.code !== 0 || state.failure !== null) throw execFailure(outcome, state);
    return finishRun(run, { version, model, state, before });
  };
}

export const codexEngine: Engine = createCodexEngine();

async function probeCodex(command: string, run: EngineRun, timeoutMs: number): Promise<string> {
  const common = { env: run.env, cwd: run.stagingRoot, timeoutMs, signal: run.signal };
  const versionRun = await captureCommand(command, ['--version'], common);
  if (versionRun.error?.code === 'ENOENT')
    throw new StudioFailure('NotFound', `Codex CLI could not be started (${command}).`, { path: command, hint: INSTALL_HINT });
  const version = shorten(versionRun.stdout || versionRun.stderr, 120) || 'unknown version';
  run.log(
    `Codex: ${version} (${command})${versionRun.code === 0 ? '' : ` — \`codex --version\` exited with ${versionRun.code ?? 'an error'}`}`,
  );
  if (run.signal.aborted) return version;
  const help = await captureCommand(command, ['exec', '--help'], common);
  if (help.code !== 0) {
    run.log('Could not read `codex exec --help`; the flags Memory Studio passes were not checked against this version.');
    return version;
  }
  const text = help.stdout + help.stderr;
  const missing = ADVERTISED_FLAGS.filter((flag) => !new RegExp(`${flag}(?![\\w-])`).test(text));
  if (missing.length > 0) {
    run.log(
      `Warning: \`codex exec --help\` of this version does not list ${missing.join(', ')}; if the run fails with an unknown argument, update Codex.`,
    );
  }
  return version;
}

function runCodexExec(
  command: string,
  args: string[],
  run: EngineRun,
  state: CodexStreamState,
  graceMs: { term: number; kill: number },
): Promise<ExecOutcome> {
  let stderrLogged = 0;
  return runExec(command, args, {
    cwd: run.stagingRoot,
    env: run.env,
    stdin: run.instructions,
    signal: run.signal,
    timeoutMs: run.settings.codex.timeoutSeconds * 1000,
    graceMs,
    onStdoutLine: (line) => handleCodexLine(state, line, run.log, run.progress),
    onStderrLine: (line) => {
      if (line.trim().length === 0 || stderrLogged >= 40) return;
      stderrLogged++;
      run.log(`codex stderr: ${shorten(line, 200)}`);
    },
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT')
      throw new StudioFailure('NotFound', `Codex CLI could not be started (${command}).`, {
        path: command,
        hint: INSTALL_HINT,
        cause: error,
      });
    throw new StudioFailure('Unsupported', `Codex CLI could not be started (${command}): ${error.message}.`, {
      path: command,
      hint: INSTALL_HINT,
      cause: error,
    });
  });
}

function timeoutFailure(run: EngineRun, outcome: ExecOutcome): StudioFailure {
  return new StudioFailure(
    'Internal',
    `Codex did not finish within ${run.settings.codex.timeoutSeconds} s and was stopped.${stderrSuffix(outcome.stderrTail)}`,
    {
      hint: 'Raise the Codex timeout in the engine settings, or select fewer inputs, then run again. Nothing was applied to your memory.',
    },
  );
}

const UNSUPPORTED =
  /unexpected argument|unrecognized (option|argument)|unknown (field|variant|feature|key)|invalid value|error loading config|failed to parse/i;
const AUTH = /not logged in|please log ?in|codex login|unauthori[sz]ed|\b401\b|invalid api key/i;

function execFailure(outcome: ExecOutcome, state: CodexStreamState): StudioFailure {
  const how = outcome.code !== null ? `exit code ${outcome.code}` : `killed by ${outcome.signal ?? 'a signal'}`;
  const reason = state.failure ?? lastLines(outcome.stderrTail, 3) ?? 'no error message';
  const text = `${state.failure ?? ''}\n${outcome.stderrTail}`;
  const message = `codex exec failed (${how}): ${shorten(reason, 400)}${stderrSuffix(outcome.stderrTail)}`;
  if (AUTH.test(text))
    return new StudioFailure('Invalid', message, {
      hint: 'Log in with `codex login` in a terminal (Codex keeps its login in CODEX_HOME), then run again.',
    });
  if (UNSUPPORTED.test(text)) {
    return new StudioFailure('Unsupported', message, {
      hint: 'This Codex version refused a flag or setting Memory Studio passes (see the log). Update Codex (npm install -g @openai/codex@latest) and run again.',
    });
  }
  return new StudioFailure('Internal', message, {
    hint: 'See the run log for what the agent did, fix the cause and run again. Nothing was applied to your memory.',
  });
}

function stderrSuffix(tail: string): string {
  const lines = lastLines(tail, 8);
  return lines ? ` Last stderr lines: ${shorten(lines, 800)}` : '';
}

function lastLines(text: string, count: number): string | null {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines.length > 0 ? lines.slice(-count).join(' | ') : null;
}

async function finishRun(
  run: EngineRun,
  done: { version: string; model: string | null; state: CodexStreamState; before: StagingSnapshot },
): Promise<EngineResult> {
  const { state } = done;
  const after = await snapshotStaging(run.stagingRoot);
  const diff = diffSnapshots(done.before, after);
  const reported = await classifyReportedPaths(run.stagingRoot, state.fileChanges);
  for (const path of reported.outside)
    run.log(`Warning: the agent reported a change outside the staging folder: ${path}. Check that file yourself.`);
  for (const path of reported.inside.filter((p) => isGitName(p.split('/', 1)[0] ?? '')))
    run.log(`Warning: the agent reported a change inside .git: ${path}.`);
  for (const path of diff.removed) run.log(`Removed in staging: ${path}`);
  const strange = [...diff.newSymlinks, ...diff.newOther];
  if (strange.length > 0) {
    throw new StudioFailure(
      'Invalid',
      `The Codex agent created ${strange.length === 1 ? 'a symlink or special file' : 'symlinks or special files'} in the staging folder (${strange.slice(0, 5).join(', ')}); Codex deletes symlinks in memory folders, so this result is refused.`,
      {
        path: strange[0],
        hint: 'Run the consolidation again; if it keeps happening, use another engine.',
      },
    );
  }
  const wrote = [...new Set([...diff.written, ...reported.inside.filter((p) => after.get(p)?.kind === 'file')])].sort();
  const usage = state.usage ? { inputTokens: state.usage.inputTokens, outputTokens: state.usage.outputTokens } : undefined;
  if (state.turnsCompleted === 0) run.log('Warning: Codex exited without reporting a completed turn.');
  const usageText = usage ? `, ${usage.inputTokens} input / ${usage.outputTokens} output tokens` : '';
  const message = `Codex (${done.version}) finished: ${state.commands} command(s), ${wrote.length} file(s) written${usageText}.`;
  run.log(message);
  run.progress(message, 1);
  return { engine: 'codex', model: done.model, wrote, usage, message };
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
