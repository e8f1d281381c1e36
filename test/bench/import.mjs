// Import figures: planning a Claude Code home of 200 projects x 50 files (into empty targets, then again into the targets
// that import filled), beside `cp -r` + `grep -rE` of the secret patterns.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const TYPES = ['user', 'feedback', 'project', 'reference'];
const WORDS = 'deploy tests pnpm release branch review flaky fonts cache docker staging migrations lint types schema tokens'.split(' ');

/** Deterministic pseudo-random numbers, so every run plans the same tree. */
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function body(rand, i) {
  const lines = [];
  const n = 6 + Math.floor(rand() * 20);
  for (let l = 0; l < n; l++) lines.push(Array.from({ length: 8 + Math.floor(rand() * 8) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ') + '.');
  lines.push('', '**Why:** it broke once.', '**How to apply:** check before every commit.');
  // A few secrets of several kinds, as real memory files sometimes hold them.
  if (i % 97 === 0) lines.push(`OPENAI_API_KEY=${['sk', 'proj', 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe'].join('-')}`);
  if (i % 131 === 0) lines.push(`aws: ${['AKIA', 'ZZQX7Y2WVU3TSR4Q'].join('')}`);
  if (i % 173 === 0) lines.push(`token ${['ghp', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('_')}`);
  return lines.join('\n');
}

/** `<dir>/projects/<key>/memory/*.md` with a session file per project; returns the Claude home. */
export function generateClaudeHome(dir, projects = 200, files = 50) {
  const rand = rng(42);
  const home = join(dir, 'claude');
  let n = 0;
  for (let p = 0; p < projects; p++) {
    const key = `-home-dev-src-project-${String(p).padStart(3, '0')}`;
    const memory = join(home, 'projects', key, 'memory');
    mkdirSync(memory, { recursive: true });
    // A session cwd counts only when it is an existing folder (as in Codex), so each project gets a real one.
    const cwd = join(dir, 'src', `project-${p}`);
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(home, 'projects', key, 'session.jsonl'), `${JSON.stringify({ type: 'summary' })}\n${JSON.stringify({ cwd })}\n`);
    const index = ['# Memory Index', ''];
    for (let f = 1; f < files; f++) {
      const type = TYPES[f % TYPES.length];
      const name = `${type}_topic_${f}.md`;
      if (f % 7 !== 0) index.push(`- [Topic ${f}](${name}) — ${WORDS[f % WORDS.length]} notes`);
      const nested = f % 3 === 0;
      const front = nested
        ? ['---', `name: Topic ${f}`, `description: "${WORDS[(f + p) % WORDS.length]} rules for project ${p}"`, 'metadata:  ', `  type: ${type}`, '  originSessionId: 0b9e', '  modified: 2026-02-01', 'node_type: memory', '---']
        : ['---', `name: Topic ${f}`, `description: ${WORDS[(f + p) % WORDS.length]} rules for project ${p}`, `type: ${type}`, '---'];
      writeFileSync(join(memory, name), `${front.join('\n')}\n\n${body(rand, n++)}\n`);
    }
    writeFileSync(join(memory, 'MEMORY.md'), `${index.join('\n')}\n`);
    utimesSync(join(home, 'projects', key, 'session.jsonl'), new Date(), new Date());
  }
  return home;
}

function fakeHome(codexHome) {
  const root = (version, dir, db) => ({ version, path: join(codexHome, dir), exists: false, isSymlink: false, hasGitBaseline: false, dbPath: join(codexHome, db), dbExists: false });
  return {
    codexHome, source: 'flag', exists: false, sqliteHome: codexHome, sqliteHomeSource: 'codex-home', stateDbExists: false, isDemo: false,
    roots: [root('v1', 'memories', 'memories_1.sqlite'), root('v2', 'memories_v2', 'memories_v2_1.sqlite')],
    config: { path: join(codexHome, 'config.toml'), exists: false, featureMemories: null, memories: { version: 'v1' }, diagnostics: [] },
  };
}

async function median(runs, fn) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/** Rows of [what, ours ms, their label, their ms, budget]. */
export async function importFigures(root, runs) {
  const { buildPlan, planImport } = require(join(root, 'out', 'electron', 'core', 'import', 'index.js'));
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'memory-studio-bench-import-')));
  try {
    const claudeHome = generateClaudeHome(dir);
    const input = { from: 'claude', sourceHome: claudeHome };
    const deps = { env: { HOME: dir }, managedSettingsDir: join(dir, 'managed') };
    let plan;
    const cpu = [];
    const ours = await median(runs, async () => {
      const before = process.cpuUsage();
      plan = await planImport(input, fakeHome(join(dir, 'codex')), deps);
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
    });
    const cpuMedian = cpu.sort((a, b) => a - b)[Math.floor(cpu.length / 2)];
    const files = plan.projects.reduce((n, p) => n + p.files.length, 0);
    const findings = plan.unresolvedFindings;
    const copy = join(dir, 'copy');
    const pattern = 'sk-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,}|[Bb]earer[ \t]+[A-Za-z0-9._~+/-]{16,}';
    const theirs = await median(runs, async () => {
      rmSync(copy, { recursive: true, force: true });
      spawnSync('sh', ['-c', 'cp -r "$1" "$2" && grep -rEn "$3" "$2" > /dev/null', 'sh', join(claudeHome, 'projects'), copy, pattern]);
    });
    // The second figure: the same plan once the first import is on disk (every target file read and compared).
    const redacted = { ...input, choices: { secretDefault: 'redact' } };
    const home = fakeHome(join(dir, 'codex'));
    for (const w of (await buildPlan(redacted, home, deps)).writes) {
      mkdirSync(dirname(w.absPath), { recursive: true });
      writeFileSync(w.absPath, w.content);
    }
    let again;
    const populated = await median(runs, async () => {
      again = await planImport(redacted, home, deps);
    });
    return [
      [`plan: ${plan.projects.length} projects, ${files} files, ${findings} secret findings (CPU ${cpuMedian.toFixed(0)} ms)`, ours, 'cp -r + grep -rEn secrets', theirs, 'budget 2000 ms'],
      [`re-plan against the populated targets: ${again.writes.length} changes`, populated, 'cp -r + grep -rEn secrets', theirs, 'budget 2000 ms'],
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
