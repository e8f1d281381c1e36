// An outside edit between Apply's base check and a file's rename (a second writer at that exact moment) is a
// Conflict: the edit is kept, what this Apply already renamed is put back, and nothing else is left behind. The
// writer races every commit step with every change that step's file can get; the figures go to the closing note.
import { existsSync } from 'node:fs';
import { readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan, lockPathFor } from '../../../electron/core/apply';
import { StudioFailure } from '../../../electron/core/platform/errors';
import { makeTempDir } from '../helpers';
import { type TestHome, globalRow, leftoverTemps, makeHome, planFor } from './helpers';

let home: TestHome;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  home = await makeHome(temp.dir, 41);
});
afterEach(async () => cleanup());

const read = (rel: string) => readFile(join(home.root, rel), 'utf8').catch(() => null);

async function failure(promise: Promise<unknown>): Promise<StudioFailure | null> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return error instanceof StudioFailure ? error : null;
}

/** The plan, in commit order: a modify, a create, a delete, another modify. */
const PROPOSED: Record<string, string | null> = {
  'memory_summary.md': 'v1\n## User preferences\n- proposed\n',
  'extensions/ad_hoc/notes/late-new.md': 'a new note\n',
  'raw_memories.md': null,
  'MEMORY.md': '# proposed MEMORY\n',
};

/** What a second writer can do to each file: edit or remove one that exists, create one the proposal creates. */
const RACES: { file: string; change: 'edit' | 'remove' | 'create'; how: string }[] = [
  { file: 'memory_summary.md', change: 'edit', how: 'it was edited' },
  { file: 'memory_summary.md', change: 'remove', how: 'it was removed' },
  { file: 'extensions/ad_hoc/notes/late-new.md', change: 'create', how: 'it was created' },
  { file: 'raw_memories.md', change: 'edit', how: 'it was edited' },
  { file: 'raw_memories.md', change: 'remove', how: 'it was removed' },
  { file: 'MEMORY.md', change: 'edit', how: 'it was edited' },
  { file: 'MEMORY.md', change: 'remove', how: 'it was removed' },
];

const THEIRS = '# saved by an editor while Apply ran\n';

async function snapshot(): Promise<Record<string, string | null>> {
  return Object.fromEntries(await Promise.all(Object.keys(PROPOSED).map(async (rel) => [rel, await read(rel)] as const)));
}

describe('a second writer right before a rename', () => {
  it(`at each of the ${Object.keys(PROPOSED).length} commit steps, with each change its file can get: a Conflict, the change kept, nothing else`, async () => {
    const defects: string[] = [];
    let clean = 0;
    for (const [round, race] of RACES.entries()) {
      const found: string[] = [];
      const before = await snapshot();
      const row = globalRow(home.dbPath);
      const index = Object.keys(PROPOSED).indexOf(race.file);
      const plan = await planFor(home, `late-${round}`, PROPOSED);
      const error = await failure(
        applyPlan(plan, {
          dataDir: home.dataDir,
          faults: {
            beforeRename: async (i) => {
              if (i !== index) return;
              if (race.change === 'remove') await unlink(join(home.root, race.file));
              else await writeFile(join(home.root, race.file), THEIRS);
            },
          },
        }),
      );
      const expected = `${race.file} in ${home.root} changed while the proposal was being applied (${race.how})`;
      if (error?.kind !== 'Conflict' || !error.message.includes(expected) || !error.message.includes('Nothing was changed.'))
        found.push(`answered ${error ? `${error.kind}: ${error.message}` : 'success'}`);
      else if (error.path !== race.file || !error.hint?.includes('rebase'))
        found.push('the Conflict does not name the file or say what to do');
      const after = await snapshot();
      const theirs = race.change === 'remove' ? null : THEIRS;
      if (after[race.file] !== theirs) found.push(`the writer's change to ${race.file} was lost`);
      for (const rel of Object.keys(PROPOSED)) if (rel !== race.file && after[rel] !== before[rel]) found.push(`${rel} was left changed`);
      if (leftoverTemps(home.root).length > 0) found.push('temp files are left');
      if (existsSync(lockPathFor(home.dataDir, home.root))) found.push('the lock file is left');
      if ((await readdir(join(home.dataDir, 'journal')).catch(() => [])).length > 0) found.push('a journal is left');
      if (JSON.stringify(globalRow(home.dbPath)) !== JSON.stringify(row)) found.push("Codex's lease row was not restored");
      if (found.length === 0) clean++;
      defects.push(...found.map((f) => `${race.change} ${race.file}: ${f}`));
      // The next race starts from the bases again.
      for (const [rel, content] of Object.entries(before))
        if (content === null) await unlink(join(home.root, rel)).catch(() => undefined);
        else await writeFile(join(home.root, rel), content);
    }
    console.log(
      `[probe:late-edit] ${JSON.stringify({ tries: RACES.length, clean, defects: defects.length })}${defects.map((d) => `\n  ${d}`).join('')}`,
    );
    expect(defects).toEqual([]);
  });

  it('never undoes over an edit made to a file this Apply already renamed', async () => {
    const plan = await planFor(home, 'late-both', { 'memory_summary.md': 'v1\nproposed\n', 'MEMORY.md': '# proposed MEMORY\n' });
    const error = await failure(
      applyPlan(plan, {
        dataDir: home.dataDir,
        faults: {
          beforeRename: async (index) => {
            if (index !== 1) return;
            await writeFile(join(home.root, 'memory_summary.md'), 'v1\nedited after our rename\n');
            await writeFile(join(home.root, 'MEMORY.md'), '# theirs\n');
          },
        },
      }),
    );
    expect(error?.kind).toBe('Conflict');
    expect(error?.message).toContain('could not be put back');
    expect(error?.message).toContain('memory_summary.md');
    expect(await read('memory_summary.md')).toBe('v1\nedited after our rename\n');
    expect(await read('MEMORY.md')).toBe('# theirs\n');
    // Files differ from their bases now (not by this Apply's hand alone): Codex is asked to look, as after any change.
    expect(globalRow(home.dbPath)?.status).toBe('pending');
  });
});
