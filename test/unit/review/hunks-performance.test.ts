// The hunk figure: a 5 MB file with 100 scattered edits, timed against `git diff --no-index` on the same pair.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDecisions, computeHunks } from '../../../electron/core/review/hunks';
import { withTempDir } from '../helpers';

function bigPair(): { base: string; proposed: string } {
  let seed = 42;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const lines: string[] = [];
  let size = 0;
  while (size < 5 * 1024 * 1024) {
    const line = `- ${lines.length}: remembered ${Math.floor(rand() * 1e9).toString(36)} about the build, the tests and the release flow\n`;
    lines.push(line);
    size += line.length;
  }
  const proposed = [...lines];
  for (let i = 0; i < 100; i++) proposed[Math.floor(((i + rand()) / 100) * proposed.length)] = `- edited ${i}: a corrected memory\n`;
  return { base: lines.join(''), proposed: proposed.join('') };
}

const bestOf = (runs: number, fn: () => void): number => {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
};

describe('hunk performance', () => {
  it('computes exact hunks for 5 MB with 100 scattered edits (its time beside git diff is printed as a figure)', async () => {
    const { base, proposed } = bigPair();
    const hunks = computeHunks(base, proposed);
    expect(hunks.length).toBeGreaterThan(90);
    expect(hunks.reduce((n, h) => n + h.added, 0)).toBe(100);
    const ours = bestOf(5, () => computeHunks(base, proposed));
    const decide = bestOf(3, () => applyDecisions(base, proposed, hunks, Object.fromEntries(hunks.map((h) => [h.id, 'accept']))));
    await withTempDir(async (dir) => {
      const a = join(dir, 'a.md');
      const b = join(dir, 'b.md');
      writeFileSync(a, base);
      writeFileSync(b, proposed);
      const probe = spawnSync('git', ['--version']);
      let git: number | null = null;
      if (probe.status === 0) git = bestOf(5, () => spawnSync('git', ['diff', '--no-index', '--stat', a, b], { stdio: 'ignore' }));
      console.log(
        `[figure] hunks for 5 MB / 100 edits: ${ours.toFixed(1)} ms (${hunks.length} hunks); applyDecisions: ${decide.toFixed(1)} ms; ` +
          (git === null
            ? 'git not found, comparison skipped'
            : `git diff --no-index --stat: ${git.toFixed(1)} ms (ratio ${(ours / git).toFixed(2)}x)`),
      );
    });
  });

  it('stays bounded and exact when most of a 5 MB file is rewritten (Myers budget exceeded: anchored fallback)', () => {
    const { base } = bigPair();
    const lines = base.split(/(?<=\n)/);
    const heavy = lines.map((l, i) => (i % 20 === 0 ? `rewritten ${i}\n` : l)).join('');
    const total = lines.map((_, i) => `all new ${i}\n`).join('');
    for (const [name, proposed] of [
      ['every 20th line', heavy],
      ['whole file', total],
    ] as const) {
      const start = performance.now();
      const hunks = computeHunks(base, proposed);
      const ms = performance.now() - start;
      console.log(`[figure] 5 MB, ${name} rewritten: ${ms.toFixed(0)} ms, ${hunks.length} hunks`);
      // The fallback still finds each separate edit (one hunk per rewritten line here), not one giant block.
      if (proposed === heavy) expect(hunks).toHaveLength(Math.ceil(lines.length / 20));
      expect(applyDecisions(base, proposed, hunks, Object.fromEntries(hunks.map((h) => [h.id, 'accept'])))).toBe(proposed);
      expect(applyDecisions(base, proposed, hunks, {})).toBe(base);
    }
  });
});
