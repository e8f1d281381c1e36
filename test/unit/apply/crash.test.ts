// Crash safety: a child applying a multi-file plan (one 5 MB file) is SIGKILLed at seeded random points, 200+ times.
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, recoverInterruptedApplies } from '../../../electron/core/apply';
import { acquireLockFile, releaseLockFile } from '../../../electron/core/apply/lock-file';
import { StudioFailure } from '../../../electron/core/platform/errors';
import { makeTempDir } from '../helpers';
import { seededRandom, startChild } from './child-runner';
import { type TestHome, bigMarkdown, ensureCompiled, leftoverTemps, makeHome, planFor, sha } from './helpers';

const KILLS = 200;
const SEED = 424242;
let home: TestHome;
let cleanup: () => Promise<void>;

const base: Record<string, string | null> = {
  'MEMORY.md': bigMarkdown(5, 'base'),
  'memory_summary.md': 'v1\n## User preferences\n- base\n',
  'rollout_summaries/crash-a.md': '# a base\n',
  'rollout_summaries/crash-b.md': '# b base\n',
  'extensions/ad_hoc/notes/crash-new.md': null,
  'skills/crash-old/SKILL.md': '# old skill\n',
};
const proposed: Record<string, string | null> = {
  'MEMORY.md': bigMarkdown(5, 'proposed'),
  'memory_summary.md': 'v1\n## User preferences\n- proposed\n',
  'rollout_summaries/crash-a.md': '# a proposed\n',
  'rollout_summaries/crash-b.md': '# b proposed\n',
  'extensions/ad_hoc/notes/crash-new.md': 'a new note\n',
  'skills/crash-old/SKILL.md': null,
};

async function restoreBase(): Promise<void> {
  for (const [rel, content] of Object.entries(base)) {
    if (content === null) await unlink(join(home.root, rel)).catch(() => undefined);
    else await writeFile(join(home.root, rel), content);
  }
}

/** Each target is its base or its proposal, byte for byte; returns which files sit at the proposal. */
async function classify(): Promise<string[]> {
  const atProposed: string[] = [];
  for (const rel of Object.keys(base)) {
    const now = await readFile(join(home.root, rel)).then(sha, () => null);
    const b = base[rel] == null ? null : sha(base[rel] as string);
    const p = proposed[rel] == null ? null : sha(proposed[rel] as string);
    expect([b, p], rel).toContain(now);
    if (now === p && now !== b) atProposed.push(rel);
  }
  return atProposed;
}

beforeAll(async () => {
  ensureCompiled();
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  home = await makeHome(temp.dir, 23);
  await import('node:fs/promises').then((fs) => fs.mkdir(join(home.root, 'skills/crash-old'), { recursive: true }));
}, 300_000);
afterAll(async () => cleanup());

describe('crash safety', () => {
  it(`leaves every file at base or proposal after ${KILLS} SIGKILLs`, async () => {
    const random = seededRandom(SEED);
    const planFile = join(home.dataDir, 'plan.json');
    const seen = {
      killedBeforeAny: 0,
      killedMidway: 0,
      killedAfterAll: 0,
      finished: 0,
      freshApplied: 0,
      freshConflictAtProposed: 0,
      completed: 0,
      rolledForward: 0,
      rolledBack: 0,
      releasedLeases: 0,
      tempsSwept: 0,
    };
    const started = Date.now();
    let kills = 0;
    // Delays span the child's whole apply (about 60-80 ms here), so kills land before, during and after the renames.
    for (let i = 0; kills < KILLS && i < KILLS * 2; i++) {
      await restoreBase();
      await writeFile(planFile, JSON.stringify(await planFor(home, `crash-${i}`, proposed)));
      const { child, ready, done } = startChild(planFile, home.dataDir);
      await ready;
      await new Promise((r) => setTimeout(r, Math.floor(random() * 70)));
      child.kill('SIGKILL');
      const result = await done;
      if (!result.killed) seen.finished++;
      const report = await recoverInterruptedApplies(home.dataDir, [home.root]);
      for (const key of ['completed', 'rolledForward', 'rolledBack', 'releasedLeases'] as const) seen[key] += report[key].length;
      seen.tempsSwept += report.removedTempFiles.length;
      const atProposed = await classify();
      if (result.killed) {
        kills++;
        if (atProposed.length === 0) seen.killedBeforeAny++;
        else if (atProposed.length === Object.keys(base).length) seen.killedAfterAll++;
        else seen.killedMidway++;
      }
      expect(leftoverTemps(home.root)).toEqual([]);
      await releaseLockFile(await acquireLockFile(home.dataDir, home.root, Date.now()));
      // A fresh apply of the same reviewed plan, from the bases the person saw.
      await restoreBaseHashesPlan(i, atProposed, seen);
    }
    console.log(`[crash] ${KILLS} runs in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(seen)}`);
    expect(kills).toBe(KILLS);
  }, 900_000);
});

async function restoreBaseHashesPlan(i: number, atProposed: string[], seen: Record<string, number>): Promise<void> {
  const plan = await planFor(home, `fresh-${i}`, proposed);
  for (const file of plan.files) file.baseSha256 = base[file.relPath] == null ? null : sha(base[file.relPath] as string);
  try {
    await applyPlan(plan, { dataDir: home.dataDir });
    expect(atProposed).toEqual([]);
    seen.freshApplied = (seen.freshApplied ?? 0) + 1;
  } catch (error) {
    expect(error).toBeInstanceOf(StudioFailure);
    expect((error as StudioFailure).kind).toBe('Conflict');
    // The Conflict must name a file that is already at its proposed content.
    expect(atProposed.some((rel) => (error as StudioFailure).message.startsWith(`${rel} `))).toBe(true);
    seen.freshConflictAtProposed = (seen.freshConflictAtProposed ?? 0) + 1;
  }
}
