// Growth curves: inspect at 500 / 2,000 / 8,000 / 20,000 rollout summaries, and inspect and consolidation at a 1, 5
// and 20 MB MEMORY.md, cold (a fresh data folder) and warm; "linear or better" when the time grows no faster than the size.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { median, nodeStart, RUNS, timeOnce, times } from './harness.mjs';

const node = process.execPath;

function measure(bin, home, scratch, args, runs) {
  const cold = [];
  const warm = [];
  for (let i = 0; i < runs; i++) {
    const data = mkdtempSync(join(scratch, 'growth-'));
    cold.push(timeOnce(node, [bin, ...args, '--codex-home', home, '--data-dir', data]).ms);
    warm.push(timeOnce(node, [bin, ...args, '--codex-home', home, '--data-dir', data]).ms);
  }
  return { cold: median(cold), warm: median(warm) };
}

/** Linear or better: from each size to the next, the time grows by no more than the size does (10% slack for noise). */
function verdict(points, key) {
  for (let i = 1; i < points.length; i++) {
    const grew = points[i][key] / points[i - 1][key];
    const size = points[i].size / points[i - 1].size;
    if (grew > size * 1.1)
      return `worse than linear between ${points[i - 1].label} and ${points[i].label} (${grew.toFixed(2)}x time for ${size.toFixed(2)}x size)`;
  }
  return 'linear or better';
}

function print(title, unit, points) {
  console.log(`\n${title}`);
  for (const p of points)
    console.log(
      `  ${p.label.padEnd(24)} cold ${times(p.cold / nodeStart()).padStart(7)} node (${p.cold.toFixed(0).padStart(6)} ms, ${(p.cold / p.size).toFixed(2)} ms per ${unit})   warm ${times(p.warm / nodeStart()).padStart(7)} node (${p.warm.toFixed(0).padStart(6)} ms, ${(p.warm / p.size).toFixed(3)} ms per ${unit})`,
    );
  console.log(`  cold: ${verdict(points, 'cold')}; warm: ${verdict(points, 'warm')}`);
}

export function growthFigures({ bin, scratch, summaryHomes, memoryHomes }) {
  const runs = Math.min(RUNS, 3);
  const summaries = summaryHomes.map(({ count, home }) => ({
    label: `${count.toLocaleString()} summaries`,
    size: count / 1000,
    ...measure(bin, home, scratch, ['inspect', '--json'], runs),
  }));
  print('Growth: inspect --json by rollout summaries (v1 root)', '1,000 summaries', summaries);
  const inspect = memoryHomes.map(({ mb, home }) => ({
    label: `MEMORY.md ${mb} MB`,
    size: mb,
    ...measure(bin, home, scratch, ['inspect', '--json'], runs),
  }));
  print('Growth: inspect --json by MEMORY.md size', 'MB', inspect);
  const consolidate = memoryHomes.map(({ mb, home }) => ({
    label: `MEMORY.md ${mb} MB`,
    size: mb,
    ...measure(bin, home, scratch, ['consolidate', '--version', 'v1', '--json'], runs),
  }));
  print('Growth: consolidate (builtin, to a proposal) by MEMORY.md size', 'MB', consolidate);
  return { summaries, inspect, consolidate };
}
