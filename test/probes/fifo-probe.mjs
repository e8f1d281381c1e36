// The FIFO probe: a named pipe planted under every name a command reads, then every CLI command and serve channel run on it.
//
// Each try is a real `memory-studio` process (or a real serve host over HTTP) on a fresh copy of a generated home, with a
// hang guard: a try is clean when it answers before the guard and either refuses naming the file as a pipe, or answers
// (skipping it, with a note where the command reports on that file); a consolidation must hand Codex's lease back, and
// serve must stop on SIGINT. Run it by itself (`node test/probes/fifo-probe.mjs [--only id,...] [--json]`, after
// `npm run build`) or through test/unit/fifo-probe.test.ts. Figures: tries, clean, defects (each with what happened).
/* global fetch, AbortSignal -- Node's own: the probe talks to the serve host over real HTTP. */
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
/** The CLI under test: this checkout's, or another build's (`FIFO_PROBE_BIN`, e.g. the code before a fix). */
export const BIN = process.env.FIFO_PROBE_BIN || join(repo, 'electron', 'host', 'bin.cjs');
/** A hang guard, not a timing: a try that has not answered by then never would (a FIFO open waits for ever). */
const GUARD_MS = Number(process.env.FIFO_PROBE_GUARD_MS) || 45_000;
const PIPE_WORDS = /named pipe|FIFO|not a regular file|socket, device or pipe/;

/** Ends what is left of a try's process group (a git a killed command left waiting on the FIFO, say). */
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/** Runs one process (in its own group) to its end or the guard; `timedOut` when the guard killed it. */
function run(args, { env = {}, input } = {}) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '1', NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const guard = setTimeout(() => killGroup(child), GUARD_MS);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      killGroup(child);
      done({ code, signal, stdout, stderr, timedOut: signal === 'SIGKILL' });
    });
    child.stdin.end(input ?? '');
  });
}

const first = async (dir, filter = () => true) => (await readdir(dir)).filter(filter).sort()[0];

/** Every name a command reads, each planted alone: `path(ctx)` is where the FIFO goes, `rel` its root-relative path. */
export const TARGETS = [
  { id: 'v1 memory_summary.md', version: 'v1', memory: true, rel: () => 'memory_summary.md' },
  { id: 'v1 MEMORY.md', version: 'v1', memory: true, rel: () => 'MEMORY.md' },
  { id: 'v1 raw_memories.md', version: 'v1', memory: true, rel: () => 'raw_memories.md' },
  {
    id: 'v1 rollout summary',
    version: 'v1',
    memory: true,
    rel: async (c) => `rollout_summaries/${await first(join(c.home, 'memories', 'rollout_summaries'))}`,
  },
  {
    id: 'v1 SKILL.md',
    version: 'v1',
    memory: true,
    rel: async (c) => `skills/${await first(join(c.home, 'memories', 'skills'))}/SKILL.md`,
  },
  {
    id: 'v1 ad hoc note',
    version: 'v1',
    memory: true,
    rel: async (c) => `extensions/ad_hoc/notes/${await first(join(c.home, 'memories', 'extensions', 'ad_hoc', 'notes'))}`,
  },
  { id: 'v2 memory_summary.md', version: 'v2', memory: true, rel: () => 'memory_summary.md' },
  {
    id: 'v2 rollout summary',
    version: 'v2',
    memory: true,
    rel: async (c) => `rollout_summaries/${await first(join(c.home, 'memories_v2', 'rollout_summaries'))}`,
  },
  // git reads the baseline for the preview, the staging diff and history: its first file, a FIFO, held git for ever.
  { id: 'v1 .git/HEAD', version: 'v1', path: (c) => join(c.home, 'memories', '.git', 'HEAD') },
  { id: 'config.toml', version: 'v1', path: (c) => join(c.home, 'config.toml') },
  {
    id: 'session .jsonl',
    version: 'v1',
    path: async (c) => join(c.home, 'archived_sessions', await first(join(c.home, 'archived_sessions'))),
  },
  { id: 'state_5.sqlite', version: 'v1', path: (c) => join(c.home, 'state_5.sqlite') },
  { id: 'memories_1.sqlite', version: 'v1', path: (c) => join(c.home, 'memories_1.sqlite') },
  { id: 'Claude MEMORY.md', version: 'v1', source: 'claude', path: (c) => join(c.claude, 'projects', '-tmp-app', 'memory', 'MEMORY.md') },
  { id: 'Claude topic file', version: 'v1', source: 'claude', path: (c) => join(c.claude, 'projects', '-tmp-app', 'memory', 'testing.md') },
  { id: 'Claude session .jsonl', version: 'v1', source: 'claude', path: (c) => join(c.claude, 'projects', '-tmp-app', 'session.jsonl') },
  { id: 'Claude settings.json', version: 'v1', source: 'claude', path: (c) => join(c.claude, 'settings.json') },
  { id: 'Cursor state.vscdb', version: 'v1', source: 'cursor', path: (c) => c.cursorDb },
  { id: 'engine-settings.json', version: 'v1', data: true, path: (c) => join(c.data, 'engine-settings.json') },
  { id: 'import-draft.json', version: 'v1', data: true, path: (c) => join(c.data, 'import-draft.json') },
  { id: 'embeddings.json', version: 'v1', data: true, path: (c) => join(c.data, 'embeddings.json') },
];

/** A Claude Code home with one project (memory index, a topic, a session naming an existing cwd) and a Cursor state DB. */
async function makeSources(dir) {
  const claude = join(dir, 'claude');
  const project = join(claude, 'projects', '-tmp-app');
  await mkdir(join(project, 'memory'), { recursive: true });
  await writeFile(join(project, 'memory', 'MEMORY.md'), '# Memory Index\n\n- [Testing](testing.md) — how to test\n');
  await writeFile(
    join(project, 'memory', 'testing.md'),
    '---\nname: Testing\ndescription: Run tests first\ntype: feedback\n---\n\nRun the tests.\n',
  );
  await writeFile(join(project, 'session.jsonl'), `${JSON.stringify({ type: 'user', cwd: dir })}\n`);
  await writeFile(join(claude, 'settings.json'), '{}\n');
  const cursorDb = join(dir, 'cursor', 'state.vscdb');
  await mkdir(dirname(cursorDb), { recursive: true });
  const Database = require('better-sqlite3');
  const db = new Database(cursorDb);
  db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  db.prepare('INSERT INTO ItemTable VALUES (?, ?)').run('aicontext.personalContext', 'Prefer small commits.');
  db.close();
  return { claude, cursorHome: join(dir, 'cursor'), cursorDb };
}

/** The base home and sources, made once; each target works on its own copy. */
export async function prepareBase(dir) {
  const manifest = execFileSync(
    process.execPath,
    [BIN, 'demo-home', join(dir, 'home'), '--scale', 'small', '--version', 'both', '--json'],
    {
      encoding: 'utf8',
    },
  );
  return { dir, home: JSON.parse(manifest).codexHome, ...(await makeSources(join(dir, 'sources'))) };
}

async function copyFor(base, index) {
  const dir = join(base.dir, `t${index}`);
  await cp(base.home, join(dir, 'home'), { recursive: true });
  await cp(join(base.dir, 'sources'), join(dir, 'sources'), { recursive: true });
  await mkdir(join(dir, 'data'), { recursive: true });
  return {
    dir,
    home: join(dir, 'home'),
    data: join(dir, 'data'),
    claude: join(dir, 'sources', 'claude'),
    cursorHome: join(dir, 'sources', 'cursor'),
    cursorDb: join(dir, 'sources', 'cursor', 'state.vscdb'),
  };
}

async function plant(target, ctx) {
  const rel = target.memory ? await target.rel(ctx) : null;
  const path = rel ? join(ctx.home, target.version === 'v1' ? 'memories' : 'memories_v2', rel) : await target.path(ctx);
  await unlink(path).catch(() => undefined);
  execFileSync('mkfifo', [path]);
  return { path, rel, name: basename(path) };
}

/** The lease row of Codex's global job in the version's memory DB, or null when it cannot be read (it is the FIFO). */
function leaseHolder(ctx, version) {
  const Database = require('better-sqlite3');
  const path = join(ctx.home, version === 'v1' ? 'memories_1.sqlite' : 'memories_v2_1.sqlite');
  if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) return null; // the planted FIFO: SQLite's open would wait here too
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const row = db
        .prepare("SELECT worker_id, lease_until FROM jobs WHERE kind = 'memory_consolidate_global' AND job_key = 'global'")
        .get();
      return row?.worker_id?.startsWith('memory-studio:') && row.lease_until !== null ? row.worker_id : null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

const parseJson = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** One try judged: hang, a stack trace, a failure that does not say the file is a pipe, or silence where it must speak. */
function judge(result, planted, mustName) {
  const text = `${result.stdout}\n${result.stderr}`;
  const named = text.includes(planted.name) && PIPE_WORDS.test(text);
  if (result.timedOut) return { clean: false, outcome: 'hang' };
  if (/\n\s+at .+:\d+:\d+/.test(result.stderr)) return { clean: false, outcome: 'stack trace' };
  const json = parseJson(result.stdout);
  const failed = result.code !== 0 && (json === undefined || json?.ok === false);
  if (failed)
    return named
      ? { clean: true, outcome: 'refused' }
      : { clean: false, outcome: `failed without naming the pipe: ${text.trim().slice(0, 300)}` };
  if (mustName && !named) return { clean: false, outcome: 'answered without a word about the pipe' };
  return { clean: true, outcome: named ? 'noted' : 'answered' };
}

/** The CLI commands of one target: [label, args, must it name the pipe?]. */
function cliTries(target, ctx, planted, contentFile) {
  const home = ['--codex-home', ctx.home, '--data-dir', ctx.data];
  const v = target.version;
  const file = planted.rel ?? 'memory_summary.md';
  const inRoot = Boolean(target.memory);
  return [
    ['inspect', ['inspect', ...home, '--json'], false],
    ['lint', ['lint', ...home, '--version', v, '--json'], inRoot],
    ['secrets', ['secrets', ...home, '--version', v, '--json'], inRoot],
    ['budget', ['budget', ...home, '--version', v, '--json'], inRoot && planted.rel === 'memory_summary.md'],
    ['search', ['search', 'test', ...home, '--json'], false],
    ['doctor', ['doctor', ...home, '--version', v, '--json'], false],
    ['coverage', ['coverage', ...home, '--version', v, '--json'], false],
    ['consolidate --preview', ['consolidate', '--preview', ...home, '--version', v, '--json'], false],
    ['consolidate', ['consolidate', ...home, '--version', v, '--engine', 'builtin', '--json'], inRoot],
    ['propose', ['propose', ...home, '--version', v, '--file', file, '--content-file', contentFile, '--json'], false],
    [
      'import --from claude --plan',
      ['import', '--from', 'claude', '--source-home', ctx.claude, ...home, '--plan', '--json'],
      target.source === 'claude' && planted.name !== 'settings.json',
    ],
    [
      'import --from cursor --plan',
      ['import', '--from', 'cursor', '--source-home', ctx.cursorHome, '--cursor-db', ctx.cursorDb, ...home, '--plan', '--json'],
      target.source === 'cursor',
    ],
  ];
}

async function probeCli(target, ctx, planted, record) {
  const contentFile = join(ctx.dir, 'proposed.md');
  await writeFile(contentFile, 'v1\n\n## Probe\n\n- a change the probe proposes\n');
  for (const [label, args, mustName] of cliTries(target, ctx, planted, contentFile)) {
    const result = await run(args);
    const verdict = judge(result, planted, mustName);
    if (label === 'consolidate' && verdict.clean && leaseHolder(ctx, target.version))
      Object.assign(verdict, { clean: false, outcome: `Codex's lease still held by ${leaseHolder(ctx, target.version)}` });
    record(label, verdict);
    if (label === 'propose' && verdict.clean && result.code === 0) {
      const id = parseJson(result.stdout)?.id;
      if (id) record('apply', judge(await run(['apply', id, '--data-dir', ctx.data, '--accept', 'all', '--json']), planted, false));
    }
  }
}

/** Starts serve on the copy, or returns why not. */
function startServe(ctx) {
  return new Promise((done) => {
    // The sources are named at the start, as a person serving an import would: a page may not name a folder alone.
    const sources = dirname(ctx.claude);
    const args = [BIN, 'serve', '--codex-home', ctx.home, '--data-dir', ctx.data, '--port', '0', '--import-source', sources];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    const guard = setTimeout(() => done({ child, url: null, why: `serve did not start within the guard: ${out}` }), GUARD_MS);
    child.stdout.on('data', (d) => {
      out += d;
      const match = /Open: (http:\/\/127\.0\.0\.1:\d+)\/\S*token=([A-Za-z0-9_-]+)/.exec(out);
      if (match) {
        clearTimeout(guard);
        done({ child, url: match[1], token: match[2] });
      }
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', () => done({ child, url: null, why: `serve exited: ${out}` }));
  });
}

function serveTries(target, ctx, planted) {
  const version = target.version;
  const path = planted.rel ?? 'memory_summary.md';
  const inRoot = Boolean(target.memory);
  return [
    ['workspace.read', { version, path }, inRoot],
    ['inspect.parse', { version, path }, inRoot],
    ['inspect.budget', { version }, inRoot && path === 'memory_summary.md'],
    ['inspect.lint', { version }, false],
    ['inspect.health', {}, false],
    ['inspect.rollouts', { version }, false],
    ['inspect.projects', { version }, false],
    ['coverage.get', { version }, false],
    ['search.query', { query: 'test' }, false],
    ['history.sinceBaseline', { version }, false],
    ['history.baselineFile', { version, path }, false],
    ['consolidate.preview', { version }, false],
    ['consolidate.settings', {}, false],
    ['import.detect', { from: 'claude', sourceHome: ctx.claude }, false],
    ['import.detect', { from: 'cursor', sourceHome: ctx.cursorHome, cursorStateDb: ctx.cursorDb }, false],
    ['import.draft', {}, planted.name === 'import-draft.json'],
    ['doctor.run', { version }, false],
  ];
}

async function probeServe(target, ctx, planted, record) {
  const serve = await startServe(ctx);
  if (!serve.url) {
    record('serve start', judge({ code: 1, stdout: '', stderr: serve.why, timedOut: false }, planted, false));
    killGroup(serve.child);
    return;
  }
  for (const [channel, input, mustName] of serveTries(target, ctx, planted)) {
    const answer = await fetch(`${serve.url}/api/${channel}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(GUARD_MS),
    }).then(
      async (r) => {
        const text = await r.text();
        return { code: parseJson(text)?.ok === true ? 0 : 1, stdout: text, stderr: '', timedOut: false };
      },
      (error) => ({ code: 1, stdout: '', stderr: String(error), timedOut: error?.name === 'TimeoutError' }),
    );
    record(`serve ${channel}`, judge(answer, planted, mustName));
  }
  const exited = new Promise((done) => serve.child.once('exit', () => done(true)));
  serve.child.kill('SIGINT');
  const stopped = await Promise.race([exited, new Promise((done) => setTimeout(() => done(false), GUARD_MS))]);
  record('serve SIGINT', stopped ? { clean: true, outcome: 'stopped' } : { clean: false, outcome: 'serve did not stop after SIGINT' });
  killGroup(serve.child);
}

/** Every try of one target; `record(command, verdict)` hears each. */
export async function probeTarget(base, index, target, record) {
  const ctx = await copyFor(base, index);
  try {
    const planted = await plant(target, ctx);
    const tell = (command, verdict) => record({ target: target.id, command, ...verdict });
    await probeCli(target, ctx, planted, tell);
    await probeServe(target, ctx, planted, tell);
  } finally {
    await rm(ctx.dir, { recursive: true, force: true });
  }
}

/** The whole probe (or the targets named in `only`): tries, clean, and each defect. */
export async function runFifoProbe({ only, log = () => undefined } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'fifo-probe-'));
  const tries = [];
  try {
    const base = await prepareBase(dir);
    const targets = TARGETS.filter((t) => !only || only.includes(t.id));
    for (const [i, target] of targets.entries())
      await probeTarget(base, i, target, (t) => {
        tries.push(t);
        log(t);
      });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const defects = tries.filter((t) => !t.clean);
  return { tries: tries.length, clean: tries.length - defects.length, defects };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1].split(',');
  const json = process.argv.includes('--json');
  const figures = await runFifoProbe({
    only,
    log: (t) => !json && process.stderr.write(`${t.clean ? 'ok    ' : 'DEFECT'}  ${t.target}  ${t.command}: ${t.outcome}\n`),
  });
  if (json) console.log(JSON.stringify(figures, null, 2));
  else console.log(`${figures.tries} tries, ${figures.clean} clean, ${figures.defects.length} defects`);
  process.exitCode = figures.defects.length === 0 ? 0 : 1;
}
