// An outside edit between Apply's base check and a file's rename (a second writer at that exact moment) is a
// Conflict: the edit is kept, what this Apply already renamed is put back, and nothing else is left behind.
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

async function failure(promise: Promise<unknown>): Promise<StudioFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StudioFailure);
  return error as StudioFailure;
}

/** The plan: a modify, then the file the second writer touches (index 1), then a create. */
const proposed = (second: string | null) => ({
  'memory_summary.md': 'v1\n## User preferences\n- proposed\n',
  [second === null ? 'raw_memories.md' : 'MEMORY.md']: second,
  'extensions/ad_hoc/notes/late-new.md': 'a new note\n',
});

async function expectNothingElse(row: unknown, summaryBefore: string | null): Promise<void> {
  expect(await read('memory_summary.md')).toBe(summaryBefore);
  expect(existsSync(join(home.root, 'extensions/ad_hoc/notes/late-new.md'))).toBe(false);
  expect(leftoverTemps(home.root)).toEqual([]);
  expect(existsSync(lockPathFor(home.dataDir, home.root))).toBe(false);
  expect(await readdir(join(home.dataDir, 'journal')).catch(() => [])).toEqual([]);
  expect(globalRow(home.dbPath)).toEqual(row);
}

describe('a second writer right before a rename', () => {
  it.each([
    { label: 'edits a file the proposal modifies', second: '# proposed MEMORY\n', how: 'it was edited' },
    { label: 'removes a file the proposal modifies', second: '# proposed MEMORY\n', how: 'it was removed' },
    { label: 'edits a file the proposal deletes', second: null, how: 'it was edited' },
  ])('$label: Conflict naming it, the edit kept, the earlier rename undone', async ({ label, second, how }) => {
    const plan = await planFor(home, 'late', proposed(second));
    const target = second === null ? 'raw_memories.md' : 'MEMORY.md';
    const summaryBefore = await read('memory_summary.md');
    const row = globalRow(home.dbPath);
    const theirs = '# saved by an editor while Apply ran\n';
    const error = await failure(
      applyPlan(plan, {
        dataDir: home.dataDir,
        faults: {
          beforeRename: async (index) => {
            if (index !== 1) return;
            if (label.startsWith('removes')) await unlink(join(home.root, target));
            else await writeFile(join(home.root, target), theirs);
          },
        },
      }),
    );
    expect(error.kind).toBe('Conflict');
    expect(error.path).toBe(target);
    expect(error.message).toContain(`${target} in ${home.root} changed while the proposal was being applied (${how})`);
    expect(error.message).toContain('Nothing was changed.');
    expect(error.hint).toMatch(/rebase/);
    expect(await read(target)).toBe(label.startsWith('removes') ? null : theirs);
    await expectNothingElse(row, summaryBefore);
  });

  it('creates the file a proposal creates: Conflict, their file kept', async () => {
    const plan = await planFor(home, 'late-create', {
      'memory_summary.md': 'v1\n## User preferences\n- proposed\n',
      'extensions/ad_hoc/notes/late-new.md': 'a new note\n',
    });
    const summaryBefore = await read('memory_summary.md');
    const row = globalRow(home.dbPath);
    const error = await failure(
      applyPlan(plan, {
        dataDir: home.dataDir,
        faults: {
          beforeRename: async (index) => {
            if (index === 1) await writeFile(join(home.root, 'extensions/ad_hoc/notes/late-new.md'), 'theirs\n');
          },
        },
      }),
    );
    expect(error.kind).toBe('Conflict');
    expect(error.message).toContain('(it was created)');
    expect(await read('extensions/ad_hoc/notes/late-new.md')).toBe('theirs\n');
    expect(await read('memory_summary.md')).toBe(summaryBefore);
    expect(globalRow(home.dbPath)).toEqual(row);
    expect(leftoverTemps(home.root)).toEqual([]);
  });

  it('never undoes over an edit made to a file this Apply already renamed', async () => {
    const plan = await planFor(home, 'late-both', proposed('# proposed MEMORY\n'));
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
    expect(error.kind).toBe('Conflict');
    expect(error.message).toContain('could not be put back');
    expect(error.message).toContain('memory_summary.md');
    expect(await read('memory_summary.md')).toBe('v1\nedited after our rename\n');
    expect(await read('MEMORY.md')).toBe('# theirs\n');
    // Files differ from their bases now (not by this Apply's hand alone): Codex is asked to look, as after any change.
    expect(globalRow(home.dbPath)?.status).toBe('pending');
  });
});
