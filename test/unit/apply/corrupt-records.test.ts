// Records read back from the data folder that drive crash recovery, damaged on disk (cut short, valid JSON of another
// shape, one field of the wrong type): an interrupted Apply's journal is refused, never guessed at, and nothing is
// touched. Real files, real SQLite.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, lockPathFor, recoverInterruptedApplies, recoverLeftovers } from '../../../electron/core/apply';
import { journalDir, journalPath } from '../../../electron/core/apply/journal';
import { trashDir } from '../../../electron/core/apply/trash';
import { namespaceId } from '../../../electron/core/platform/host-identity';
import { careForDataFolder } from '../../../electron/core/service/data-folder-care';
import { makeTempDir } from '../helpers';
import { type TestHome, makeHome, planFor, sha } from './helpers';

let home: TestHome;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  home = await makeHome(temp.dir, 43);
}, 300_000);
afterAll(async () => cleanup());

/** A pid that existed and is gone (a child that already exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('no child pid');
  return child.pid;
}

/** The three ways a record is damaged: cut short, valid JSON of another shape, one field of the wrong type. */
interface Damage<T> {
  name: string;
  damage: (record: T) => string;
}

function damages<T>(wrongField: (record: T) => unknown): Damage<T>[] {
  return [
    { name: 'cut short', damage: (r) => JSON.stringify(r).slice(0, Math.floor(JSON.stringify(r).length / 2)) },
    { name: 'valid JSON of another shape', damage: (r) => JSON.stringify([r]) },
    { name: 'a field of the wrong type', damage: (r) => JSON.stringify(wrongField(r)) },
  ];
}

describe('the journal of an interrupted Apply that does not parse', () => {
  const rel = 'memory_summary.md';
  const proposed = 'v1\n## User preferences\n- written by the interrupted Apply\n';

  /** What a process killed between its temp file and its rename leaves: the journal, the temp file, the base in place. */
  async function interrupted() {
    const base = await readFile(join(home.root, rel));
    const temp = join(home.root, `.${rel}.memory-studio-${deadPid()}-n${namespaceId()}-0123456789ab.tmp`);
    await writeFile(temp, proposed);
    const entry = {
      version: 'v1',
      root: home.root,
      relPath: rel,
      target: join(home.root, rel),
      temp,
      trash: null,
      baseSha256: sha(base),
      targetSha256: sha(proposed),
    };
    return { journal: { id: 'interrupted', pid: deadPid(), createdAt: Date.now(), entries: [entry] }, temp, base };
  }

  type Journal = Awaited<ReturnType<typeof interrupted>>['journal'];
  const wrongTemp = (j: Journal) => ({ ...j, entries: j.entries.map((e) => ({ ...e, temp: 42 })) });

  it.each(damages(wrongTemp))(
    '$name: recovery and Apply refuse, naming it; journal, memory files and temp file untouched',
    async ({ damage }) => {
      const { journal, temp, base } = await interrupted();
      const path = journalPath(home.dataDir, 'interrupted');
      await mkdir(journalDir(home.dataDir), { recursive: true });
      const text = damage(journal);
      await writeFile(path, text);
      const other = await readFile(join(home.root, 'MEMORY.md'));
      const refusal = { kind: 'Invalid', path, message: expect.stringContaining(path) };
      try {
        await expect(recoverLeftovers(home.dataDir, [home.root])).rejects.toMatchObject(refusal);
        await expect(recoverInterruptedApplies(home.dataDir, [home.root])).rejects.toMatchObject(refusal);
        const plan = await planFor(home, 'after-the-crash', { 'MEMORY.md': 'changed while a journal cannot be read\n' });
        await expect(applyPlan(plan, { dataDir: home.dataDir })).rejects.toMatchObject(refusal);
        expect(await readFile(path, 'utf8')).toBe(text);
        expect(await readFile(join(home.root, rel))).toEqual(base);
        expect(await readFile(join(home.root, 'MEMORY.md'))).toEqual(other);
        expect(await readFile(temp, 'utf8')).toBe(proposed);
        expect(existsSync(lockPathFor(home.dataDir, home.root))).toBe(false);
      } finally {
        await rm(path);
        await rm(temp);
      }
    },
  );

  it('keeps the trash whole at start-up: which folder the journal needs is unknown', async () => {
    const path = journalPath(home.dataDir, 'interrupted');
    await mkdir(journalDir(home.dataDir), { recursive: true });
    await writeFile(path, '{"id":"interrupted","pid":');
    const kept = join(trashDir(home.dataDir), 'interrupted', 'v1', 'old.md');
    const text = `token ${['ghp', '1234567890abcdefghijABCDEFGHIJ123456'].join('_')}\n`;
    await mkdir(join(kept, '..'), { recursive: true });
    await writeFile(kept, text);
    try {
      expect(await careForDataFolder(home.dataDir)).toMatchObject({ trashMasked: 0 });
      expect(await readFile(kept, 'utf8')).toBe(text);
    } finally {
      await rm(path);
      await rm(trashDir(home.dataDir), { recursive: true });
    }
  });

  it('the same journal whole is finished as before (the shape this build writes parses)', async () => {
    const { journal, temp } = await interrupted();
    await mkdir(journalDir(home.dataDir), { recursive: true });
    await writeFile(journalPath(home.dataDir, 'interrupted'), JSON.stringify(journal));
    const report = await recoverInterruptedApplies(home.dataDir, [home.root]);
    expect(report.rolledForward).toEqual(['interrupted']);
    expect(await readFile(join(home.root, rel), 'utf8')).toBe(proposed);
    expect(existsSync(temp)).toBe(false);
  });
});
