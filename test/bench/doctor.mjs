// Bench: `memory-studio doctor` on the heavy home, whole process, beside ripgrep reading the same roots (the anchor).
import { join } from 'node:path';
import { pairs, row, RUNS, timeOnce } from './harness.mjs';

// Every entry heading and bullet of every Markdown file: the reading the doctor has to do at least.
const PATTERN = '^(# Task Group: |## Thread |- |  - )';

/** One row in the CLI table: doctor --json against rg -c over both roots (rg exits 1 when nothing matches). */
export function doctorFigures({ bin, heavy, scratch, have, table }) {
  if (!have.rg) return;
  const data = join(scratch, 'data-doctor');
  const roots = [join(heavy, 'memories'), join(heavy, 'memories_v2')];
  const ours = () => [process.execPath, [bin, 'doctor', '--codex-home', heavy, '--data-dir', data, '--json'], {}];
  const rg = () => ['rg', ['-c', '--no-ignore', '--hidden', '-g', '!.git', '-g', '*.md', PATTERN, ...roots], { okCodes: [0, 1] }];
  const timed = pairs(ours, rg, Math.min(RUNS, 5));
  const counts = JSON.parse(timeOnce(...ours()).stdout).counts;
  const found = Object.entries(counts)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  row(table, `doctor on the heavy home, both roots (${found})`, {
    ours: timed.a,
    anchorLabel: 'rg -c entries and bullets',
    anchor: timed.b,
    ratio: timed.ratio,
    budget: '3000 ms',
    within: timed.a <= 3000,
  });
}
