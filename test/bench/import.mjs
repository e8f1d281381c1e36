// Import figures, whole process: planning a Claude Code home of 200 projects x 50 files (into empty targets, then again
// into the targets the import filled), beside `cp -r` + `grep -rE` of the secret patterns.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pairs, row, timeOnce } from './harness.mjs';
const TYPES = ['user', 'feedback', 'project', 'reference'];
const WORDS = 'deploy tests pnpm release branch review flaky fonts cache docker staging migrations lint types schema tokens'.split(' ');

/** Deterministic pseudo-random numbers, so every run plans the same tree. */
function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function body(rand, i) {
  const lines = [];
  const n = 6 + Math.floor(rand() * 20);
  for (let l = 0; l < n; l++)
    lines.push(Array.from({ length: 8 + Math.floor(rand() * 8) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ') + '.');
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
        ? [
            '---',
            `name: Topic ${f}`,
            `description: "${WORDS[(f + p) % WORDS.length]} rules for project ${p}"`,
            'metadata:  ',
            `  type: ${type}`,
            '  originSessionId: 0b9e',
            '  modified: 2026-02-01',
            'node_type: memory',
            '---',
          ]
        : ['---', `name: Topic ${f}`, `description: ${WORDS[(f + p) % WORDS.length]} rules for project ${p}`, `type: ${type}`, '---'];
      writeFileSync(join(memory, name), `${front.join('\n')}\n\n${body(rand, n++)}\n`);
    }
    writeFileSync(join(memory, 'MEMORY.md'), `${index.join('\n')}\n`);
    utimesSync(join(home, 'projects', key, 'session.jsonl'), new Date(), new Date());
  }
  return home;
}

/** Rows for the table: planning 200 projects x 50 files, whole process, against cp -r + grep -rEn of the secret patterns. */
export function importFigures({ bin, scratch, have, table }) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'memory-studio-bench-import-')));
  try {
    const claudeHome = generateClaudeHome(dir);
    const codexHome = join(dir, 'codex');
    mkdirSync(codexHome, { recursive: true });
    const data = join(scratch, 'data-import');
    const env = { HOME: dir };
    const plan = () => [
      process.execPath,
      [bin, 'import', '--from', 'claude', '--source-home', claudeHome, '--codex-home', codexHome, '--data-dir', data, '--plan', '--json'],
      { env },
    ];
    const copy = join(dir, 'copy');
    const pattern = 'sk-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,}|[Bb]earer[ \t]+[A-Za-z0-9._~+/-]{16,}';
    const anchor = () => [
      'sh',
      ['-c', 'rm -rf "$2" && cp -r "$1" "$2" && grep -rEn "$3" "$2" > /dev/null', 'sh', join(claudeHome, 'projects'), copy, pattern],
      {},
    ];
    if (!have.grep) return;
    const fresh = pairs(plan, anchor);
    row(table, 'import --plan: 200 Claude projects x 50 files', {
      ours: fresh.a,
      anchorLabel: 'cp -r + grep -rEn secrets',
      anchor: fresh.b,
      ratio: fresh.ratio,
      budget: '2000 ms',
      within: fresh.a <= 2000,
    });
    // The same plan once the import is on disk: every target file is read and compared.
    timeOnce(
      process.execPath,
      [
        bin,
        'import',
        '--from',
        'claude',
        '--source-home',
        claudeHome,
        '--codex-home',
        codexHome,
        '--data-dir',
        data,
        '--apply',
        '--redact-secrets',
        '--json',
      ],
      { env },
    );
    const again = pairs(plan, anchor);
    row(table, 'import --plan again, against the imported targets', {
      ours: again.a,
      anchorLabel: 'cp -r + grep -rEn secrets',
      anchor: again.b,
      ratio: again.ratio,
      budget: '2000 ms',
      within: again.a <= 2000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
