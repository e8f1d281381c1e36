// Child processes for the codex engine: short captured commands, and the long exec run with cancel and timeout.
import { type ChildProcess, execFile, spawn } from 'node:child_process';

export interface CaptureResult {
  code: number | null;
  stdout: string;
  stderr: string;
  error: NodeJS.ErrnoException | null;
}

/** Runs a short command (`codex --version`, `codex exec --help`) and captures its output; never throws. */
export function captureCommand(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number; signal: AbortSignal },
): Promise<CaptureResult> {
  return new Promise((resolveResult) => {
    execFile(
      command,
      args,
      {
        env: options.env,
        cwd: options.cwd,
        timeout: options.timeoutMs,
        signal: options.signal,
        maxBuffer: 4 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const err = error as (NodeJS.ErrnoException & { code?: unknown }) | null;
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolveResult({ code, stdout: String(stdout), stderr: String(stderr), error: err && typeof err.code !== 'number' ? err : null });
      },
    );
  });
}

export interface ExecOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last characters of stderr. */
  stderrTail: string;
  /** Why the run was stopped by us, if it was. */
  stopped: 'cancelled' | 'timeout' | null;
  pid: number | undefined;
}

export interface ExecOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Delays after SIGINT before SIGTERM and SIGKILL. */
  graceMs: { term: number; kill: number };
  onStdoutLine: (line: string) => void;
  onStderrLine: (line: string) => void;
  onSpawn?: (pid: number | undefined) => void;
}

const STDERR_TAIL_CHARS = 6000;
const PIPE_DRAIN_MS = 5000;
const POSIX = process.platform !== 'win32';

/** Sends a signal to the child's whole process group (POSIX) or to the child (Windows); a gone process is fine. */
export function signalTree(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (POSIX) process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    // ESRCH: already gone.
  }
}

/** Exec children still running: killed (their whole group) if this process exits first, so no agent outlives us. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of live) signalTree(c, 'SIGKILL');
  });
}

/**
 * Spawns the exec run in its own process group, writes `stdin` then closes it, and splits stdout/stderr into lines.
 * Resolves on `close` normally; when cancelled or timed out it escalates SIGINT → SIGTERM → SIGKILL and resolves on
 * `exit` (grandchildren holding the pipes must not keep the run alive). Rejects only when the spawn itself fails.
 */
export function runExec(command: string, args: string[], options: ExecOptions): Promise<ExecOutcome> {
  return new Promise((resolveOutcome, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: POSIX,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    options.onSpawn?.(child.pid);
    track(child);
    let stderrTail = '';
    let stopped: ExecOutcome['stopped'] = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const cleanup = () => {
      timers.forEach(clearTimeout);
      options.signal.removeEventListener('abort', onAbort);
    };
    const finish = (code: number | null, sig: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      cleanup();
      if (stopped) signalTree(child, 'SIGKILL');
      resolveOutcome({ code, signal: sig, stderrTail, stopped, pid: child.pid });
    };
    const stop = (why: 'cancelled' | 'timeout') => {
      if (stopped || settled) return;
      stopped = why;
      timers.push(...escalate(child, options.graceMs));
    };
    const onAbort = () => stop('cancelled');
    options.signal.addEventListener('abort', onAbort, { once: true });
    timers.push(setTimeout(() => stop('timeout'), options.timeoutMs));

    child.once('error', (error) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(error);
    });
    pipeLines(child.stdout, options.onStdoutLine);
    pipeLines(child.stderr, (line) => {
      stderrTail = (stderrTail + line + '\n').slice(-STDERR_TAIL_CHARS);
      options.onStderrLine(line);
    });
    child.once('exit', (code, sig) => {
      if (stopped) return finish(code, sig);
      // A leftover grandchild holding the pipes must not keep a finished run open.
      timers.push(
        setTimeout(() => {
          signalTree(child, 'SIGKILL');
          finish(code, sig);
        }, PIPE_DRAIN_MS),
      );
    });
    child.once('close', (code, sig) => finish(code, sig));
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.stdin, 'utf8');
    if (options.signal.aborted) stop('cancelled');
  });
}

/** SIGINT now, SIGTERM and SIGKILL later (to the whole process group); returns the pending timers. */
function escalate(child: ChildProcess, graceMs: { term: number; kill: number }): NodeJS.Timeout[] {
  signalTree(child, 'SIGINT');
  return [setTimeout(() => signalTree(child, 'SIGTERM'), graceMs.term), setTimeout(() => signalTree(child, 'SIGKILL'), graceMs.kill)];
}

function pipeLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      onLine(buffer.slice(0, newline).replace(/\r$/, ''));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
  });
  stream.on('end', () => {
    if (buffer.length > 0) onLine(buffer);
    buffer = '';
  });
}
