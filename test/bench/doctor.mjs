// Bench: `memory-studio doctor` on the heavy home, whole process, beside ripgrep reading the same roots (the anchor).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** ripgrep where installed, else grep -r; the label says which ran. */
function anchor(roots) {
  const rg = spawnSync('rg', ['--version']);
  // Every entry heading and bullet of every Markdown file: the reading the doctor has to do at least.
  const pattern = '^(# Task Group: |## Thread |- |  - )';
  if (rg.status === 0) return { label: 'rg -c (entries and bullets)', run: () => spawnSync('rg', ['-c', '--no-ignore', '--hidden', '-g', '!.git', '-g', '*.md', pattern, ...roots], { maxBuffer: 64 << 20 }) };
  return { label: 'grep -rEc (no rg here)', run: () => spawnSync('grep', ['-rEc', '--exclude-dir=.git', '--include=*.md', pattern, ...roots], { maxBuffer: 64 << 20 }) };
}

/** Alternating pairs, whole process against whole process; the median of each and the budget the issue names. */
export async function doctorFigures(root, home, dataDir, runs) {
  const bin = join(root, 'electron', 'host', 'bin.cjs');
  const roots = [join(home, 'memories'), join(home, 'memories_v2')];
  const other = anchor(roots);
  const ours = () => spawnSync(process.execPath, [bin, 'doctor', '--codex-home', home, '--data-dir', dataDir, '--json'], { maxBuffer: 256 << 20 });
  const a = [];
  const b = [];
  let findings = '';
  for (let i = 0; i < runs; i++) {
    for (const [samples, fn, mine] of [[a, ours, true], [b, other.run, false]]) {
      const started = process.hrtime.bigint();
      const result = fn();
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      // rg and grep exit 1 when nothing matches; the doctor exits 0 whatever it finds.
      if (result.status !== 0 && !(result.status === 1 && !mine)) throw new Error(`${mine ? 'doctor' : other.label} failed: ${String(result.stderr).slice(0, 500)}`);
      if (mine && !findings) findings = Object.entries(JSON.parse(String(result.stdout)).counts).map(([k, n]) => `${n} ${k}`).join(', ');
    }
  }
  const median = (xs) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return { rows: [['doctor on the heavy home (CLI, both roots)', median(a), other.label, median(b), 'budget: within 3 s']], note: `findings: ${findings}` };
}
