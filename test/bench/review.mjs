// Review figures: hunks for a 5 MB file with 100 scattered edits (beside git diff --no-index), and a 10-file Apply.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** Median milliseconds of `runs` calls. */
function median(runs, fn) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

export async function reviewFigures(root, memoryMdPath, memoryDbPath, runs) {
  const { computeHunks } = require(join(root, 'out', 'electron', 'core', 'review', 'index.js'));
  const { applyPlan } = require(join(root, 'out', 'electron', 'core', 'apply', 'index.js'));
  const { createHash } = await import('node:crypto');
  const base = readFileSync(memoryMdPath, 'utf8');
  const lines = base.split('\n');
  for (let i = 0; i < 100; i++) {
    const at = Math.floor(((i + 0.5) * lines.length) / 100);
    lines[at] = `${lines[at]} (edited ${i})`;
  }
  const edited = lines.join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'memory-studio-bench-review-'));
  try {
    writeFileSync(join(dir, 'a.md'), base);
    writeFileSync(join(dir, 'b.md'), edited);
    const hunks = median(runs, () => computeHunks(base, edited));
    const git = median(runs, () => spawnSync('git', ['diff', '--no-index', '--no-color', join(dir, 'a.md'), join(dir, 'b.md')], { maxBuffer: 64 << 20 }));
    // A 10-file Apply into a scratch root with the 5 MB file among them, claiming and releasing Codex's lease in a copy of its DB.
    const target = join(dir, 'root');
    const db = join(dir, 'memories_1.sqlite');
    execFileSync('cp', [memoryDbPath, db]);
    execFileSync('mkdir', ['-p', join(target, 'rollout_summaries')]);
    const sha = (t) => createHash('sha256').update(t, 'utf8').digest('hex');
    const files = [{ relPath: 'MEMORY.md', text: base }];
    for (let i = 0; i < 9; i++) files.push({ relPath: `rollout_summaries/r${i}.md`, text: `thread_id: ${i}\n\n# summary ${i}\n` });
    for (const f of files) writeFileSync(join(target, f.relPath), f.text);
    let round = 0;
    const applyTimes = [];
    for (let r = 0; r < runs; r++) {
      const plan = { id: `bench-${round++}`, dbPaths: { v1: db }, files: files.map((f) => ({ version: 'v1', root: target, relPath: f.relPath, baseSha256: sha(f.text), content: `${f.text}<!-- ${round} -->\n` })) };
      const started = process.hrtime.bigint();
      await applyPlan(plan, { dataDir: join(dir, 'data') });
      applyTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
      for (const f of files) f.text = `${f.text}<!-- ${round} -->\n`;
    }
    const apply = applyTimes.sort((a, b) => a - b)[Math.floor(runs / 2)];
    return [
      ['hunks: 5 MB MEMORY.md with 100 scattered edits', hunks, 'git diff --no-index', git, 'budget 500 ms and 3x git'],
      ['apply: 10 files incl. the 5 MB MEMORY.md', apply, '', null, 'budget 200 ms'],
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
