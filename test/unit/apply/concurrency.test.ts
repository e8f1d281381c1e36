// Concurrency: two processes apply conflicting plans at once; exactly one wins and the file holds its content.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers';
import { startChild } from './child-runner';
import { type TestHome, ensureCompiled, leftoverTemps, makeHome, planFor } from './helpers';

let home: TestHome;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ensureCompiled();
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  home = await makeHome(temp.dir, 31);
}, 300_000);
afterAll(async () => cleanup());

describe('concurrency', () => {
  it('two processes, same file, different content: one succeeds, the other gets Conflict or Locked', async () => {
    const kinds: Record<string, number> = {};
    for (let round = 0; round < 15; round++) {
      const contents = [`# from A, round ${round}\n`.repeat(20_000), `# from B, round ${round}\n`.repeat(20_000)];
      const planFiles = await Promise.all(
        contents.map(async (content, i) => {
          const file = join(home.dataDir, `plan-${i}.json`);
          await writeFile(
            file,
            JSON.stringify(
              await planFor(home, `race-${round}-${i}`, { 'MEMORY.md': content, [`rollout_summaries/race-${i}.md`]: content }),
            ),
          );
          return file;
        }),
      );
      const runs = planFiles.map((file) => startChild(file, home.dataDir));
      const results = await Promise.all(runs.map((r) => r.done));
      const winners = results.filter((r) => r.ok);
      expect(winners, JSON.stringify(results)).toHaveLength(1);
      const loser = results.find((r) => !r.ok);
      expect(['Conflict', 'Locked']).toContain(loser?.kind);
      kinds[loser?.kind as string] = (kinds[loser?.kind as string] ?? 0) + 1;
      const winner = results.indexOf(winners[0] as (typeof results)[number]);
      expect(await readFile(join(home.root, 'MEMORY.md'), 'utf8')).toBe(contents[winner]);
      expect(leftoverTemps(home.root)).toEqual([]);
    }
    console.log(`[concurrency] 15 races, loser outcomes: ${JSON.stringify(kinds)}`);
  }, 300_000);
});
