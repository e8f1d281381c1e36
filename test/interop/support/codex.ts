// Drives the real Codex CLI the suite selected (the reference, or STUDIO_CODEX_VERSION) in a temporary CODEX_HOME against the fake provider.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CODEX_VERSION, INSTALL_HINT, codexBinaryPath, installedVersion } from '../install-codex.mjs';
import type { FakeProvider, RecordedRequest } from './fake-provider';

export type Version = 'v1' | 'v2';

/** The selected Codex's native binary, or a thrown one-line instruction: the suite never skips silently. */
export function codexBinary(): string {
  const bin = codexBinaryPath(CODEX_VERSION);
  if (!bin || !existsSync(bin))
    throw new Error(`The real Codex CLI ${CODEX_VERSION} is not installed for the interop suite: ${INSTALL_HINT}.`);
  return bin;
}

let versionChecked = false;
export function assertCodexVersion(): void {
  if (versionChecked) return;
  const version = installedVersion(CODEX_VERSION);
  if (version !== `codex-cli ${CODEX_VERSION}`)
    throw new Error(`The interop suite needs codex-cli ${CODEX_VERSION}, found ${JSON.stringify(version)}: ${INSTALL_HINT}.`);
  versionChecked = true;
}

export interface HomeOptions {
  /** `memories.version`; absent means Codex's default (v2). */
  version?: Version;
  /** Extra TOML appended to config.toml. */
  extraConfig?: string;
  /** `[memories]` lines besides version. */
  memoriesConfig?: string;
  /** More `[features]` flags switched on (e.g. `external_agent_memory_import`). */
  features?: string[];
}

export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
  threadId: string | null;
}

export interface ExecOptions {
  /** Keep the root session alive until this resolves (phase 2 runs in its background). */
  holdUntil?: (request: RecordedRequest) => Promise<void>;
  extraArgs?: string[];
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export function configToml(provider: FakeProvider, options: HomeOptions): string {
  const memories = [
    options.version ? `version = "${options.version}"` : '',
    'min_rollout_idle_hours = 1',
    options.memoriesConfig ?? '',
  ].filter(Boolean);
  return [
    'model = "fake-model"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${provider.baseUrl}"`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'supports_websockets = false',
    '',
    '[features]',
    'memories = true',
    ...(options.features ?? []).map((f) => `${f} = true`),
    '',
    '[memories]',
    ...memories,
    options.extraConfig ?? '',
    '',
  ].join('\n');
}

/** Polls `check` until it returns a value other than undefined (generous bound: a busy machine is slow, never wrong). */
export async function waitFor<T>(what: string, check: () => T | undefined, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export class CodexHome {
  readonly memoryRoots: Record<Version, string>;
  private constructor(
    readonly base: string,
    readonly codexHome: string,
    /** $HOME for Codex (its Claude import looks in $HOME/.claude). */
    readonly userHome: string,
    /** The folder sessions run in (their cwd). */
    readonly work: string,
    readonly provider: FakeProvider,
  ) {
    this.memoryRoots = { v1: join(codexHome, 'memories'), v2: join(codexHome, 'memories_v2') };
  }

  static async create(provider: FakeProvider, options: HomeOptions = {}): Promise<CodexHome> {
    assertCodexVersion();
    const base = await mkdtemp(join(tmpdir(), 'memory-studio-interop-'));
    const home = new CodexHome(base, join(base, 'codex-home'), join(base, 'user-home'), join(base, 'work', 'project'), provider);
    await Promise.all([
      mkdir(home.codexHome, { recursive: true }),
      mkdir(home.userHome, { recursive: true }),
      mkdir(home.work, { recursive: true }),
    ]);
    await home.writeConfig(options);
    return home;
  }

  /** A home `generate` writes into `codexHome` (a demo home), its config.toml then pointed at the fake provider. */
  static async generated(provider: FakeProvider, generate: (codexHome: string) => Promise<void>): Promise<CodexHome> {
    assertCodexVersion();
    const base = await mkdtemp(join(tmpdir(), 'memory-studio-interop-'));
    const home = new CodexHome(base, join(base, 'codex-home'), join(base, 'user-home'), join(base, 'work', 'project'), provider);
    await Promise.all([mkdir(home.userHome, { recursive: true }), mkdir(home.work, { recursive: true })]);
    await generate(home.codexHome);
    const configPath = join(home.codexHome, 'config.toml');
    await writeFile(configPath, withFakeProvider(await readFile(configPath, 'utf8'), provider));
    return home;
  }

  async writeConfig(options: HomeOptions): Promise<void> {
    await writeFile(join(this.codexHome, 'config.toml'), configToml(this.provider, options));
  }

  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: this.userHome,
      CODEX_HOME: this.codexHome,
      FAKE_API_KEY: 'interop-test-key',
      TMPDIR: process.env.TMPDIR,
      ...extra,
    };
  }

  /** `codex exec --skip-git-repo-check PROMPT` with stdin closed, in `work`. */
  async exec(prompt: string, options: ExecOptions = {}): Promise<ExecResult> {
    const previous = this.provider.hooks.ordinaryGate;
    if (options.holdUntil) this.provider.hooks.ordinaryGate = options.holdUntil;
    try {
      return await runCodex(['exec', '--skip-git-repo-check', ...(options.extraArgs ?? []), prompt], {
        cwd: this.work,
        env: this.env(options.env),
        timeoutMs: options.timeoutMs,
      });
    } finally {
      this.provider.hooks.ordinaryGate = previous;
    }
  }

  sqlitePath(name: string): string {
    return join(this.codexHome, name);
  }

  memoryDbPath(version: Version): string {
    return this.sqlitePath(version === 'v1' ? 'memories_1.sqlite' : 'memories_v2_1.sqlite');
  }

  /** Runs `read` on a read-only connection (Codex keeps its DBs in WAL mode; a reader never blocks it). */
  read<T>(file: string, read: (db: Database.Database) => T): T {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      return read(db);
    } finally {
      db.close();
    }
  }

  globalJob(
    version: Version,
  ):
    | { status: string; finished_at: number | null; last_error: string | null; worker_id: string | null; lease_until: number | null }
    | undefined {
    if (!existsSync(this.memoryDbPath(version))) return undefined;
    return this.read(
      this.memoryDbPath(version),
      (db) =>
        db
          .prepare(
            "SELECT status, finished_at, last_error, worker_id, lease_until FROM jobs WHERE kind = 'memory_consolidate_global' AND job_key = 'global'",
          )
          .get() as
          | { status: string; finished_at: number | null; last_error: string | null; worker_id: string | null; lease_until: number | null }
          | undefined,
    );
  }

  /** A predicate for `holdUntil`: phase 2 of `version` finished (done or error) at or after `sinceSec`. */
  phase2Finished(version: Version, sinceSec: number): () => Promise<void> {
    return async () => {
      await waitFor(`phase 2 (${version}) to finish`, () => {
        const job = this.globalJob(version);
        return job && job.status !== 'running' && (job.finished_at ?? 0) >= sinceSec ? true : undefined;
      });
    };
  }

  /** Moves a thread's last update back (as if it had been idle) and optionally changes its source, in state_5.sqlite. */
  setThread(threadId: string, change: { idleSeconds: number; source?: string }): void {
    const db = new Database(this.sqlitePath('state_5.sqlite'), { fileMustExist: true });
    try {
      const at = Math.floor(Date.now() / 1000) - change.idleSeconds;
      const sql =
        change.source === undefined
          ? 'UPDATE threads SET updated_at = ?, updated_at_ms = ? WHERE id = ?'
          : 'UPDATE threads SET updated_at = ?, updated_at_ms = ?, source = ? WHERE id = ?';
      const args = change.source === undefined ? [at, at * 1000, threadId] : [at, at * 1000, change.source, threadId];
      if (db.prepare(sql).run(...args).changes !== 1) throw new Error(`thread ${threadId} is not in state_5.sqlite`);
    } finally {
      db.close();
    }
  }

  /** Marks a thread as an interactive session (`cli`) idle for two hours, so Codex's phase 1 may claim it. */
  makeEligible(threadId: string, idleSeconds = 7200): void {
    this.setThread(threadId, { idleSeconds, source: 'cli' });
  }

  async remove(): Promise<void> {
    await rm(this.base, { recursive: true, force: true });
  }
}

export function nowSec(): number {
  return Math.floor(Date.now() / 1000);
}

/** Runs the codex binary and collects its output; stdin is /dev/null so exec never waits for more input. */
export function runCodex(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(codexBinary(), args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`codex ${args[0]} did not finish within ${(options.timeoutMs ?? 180_000) / 1000} s:\n${stderr.slice(-4000)}`));
    }, options.timeoutMs ?? 180_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const threadId = /session id: ([0-9a-f-]{36})/.exec(stderr)?.[1] ?? null;
      resolve({ code, stdout, stderr, threadId });
    });
  });
}

/** Moves the last phase-2 finish back 7 hours: the 6 h success cooldown has passed, as if the user came back later. */
export function ageCooldown(home: CodexHome, version: Version): void {
  const db = new Database(home.memoryDbPath(version), { fileMustExist: true });
  try {
    db.prepare("UPDATE jobs SET finished_at = finished_at - 25200 WHERE kind = 'memory_consolidate_global' AND job_key = 'global'").run();
  } finally {
    db.close();
  }
}

/** A generated (demo) home's own config.toml pointed at the fake provider: its [memories] settings are kept. */
export function withFakeProvider(config: string, provider: FakeProvider): string {
  const dropped = /^(model|model_provider|approval_policy|sandbox_mode|model_reasoning_effort)\s*=/;
  const kept = config.split('\n').filter((line) => !dropped.test(line));
  const top = ['model = "fake-model"', 'model_provider = "fake"', 'approval_policy = "never"', 'sandbox_mode = "danger-full-access"', ''];
  const table = [
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${provider.baseUrl}"`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'supports_websockets = false',
    '',
  ];
  return [...top, ...kept, ...table].join('\n');
}
