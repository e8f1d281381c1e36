// `memory-studio doctor` from the home's index (cold, then warm from what it keeps) against the same command with the
// index off, which reads every file through `doctor.run`: the same findings, evidence and fixes, byte for byte.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../shared/doctor';
import { findingKinds } from '../../../shared/doctor';
import { createDoctorHome, type DoctorHome } from '../../fixtures/doctor-home';
import { makeTempDir } from '../helpers';

const root = resolve(__dirname, '..', '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
let temp: { dir: string; cleanup: () => Promise<void> };
let home: DoctorHome;

function doctor(data: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [bin, 'doctor', ...args, '--codex-home', home.codexHome, '--project', home.pipeline], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '1', MEMORY_STUDIO_DATA: data, ...env },
    timeout: 120_000,
  });
}

/** The index off: a tiny page limit gives SQLite's real "database or disk is full" while the first build writes. */
const off = (args: string[]) => {
  const result = doctor(join(temp.dir, `data-off-${Math.random().toString(36).slice(2)}`), args, { MEMORY_STUDIO_INDEX_MAX_PAGES: '20' });
  expect(result.stderr).toMatch(/index is off: the disk holding .* is full/);
  return result;
};
const on = (args: string[]) => {
  const result = doctor(join(temp.dir, 'data-on'), args);
  expect(result.stderr).not.toMatch(/index is off/);
  return result;
};

const report = (stdout: string) =>
  JSON.parse(stdout, (key, value) => (key === 'elapsedMs' || key === 'generatedAt' ? 0 : value)) as DoctorReport;
/** The text report without its header's seconds. */
const text = (stdout: string) => stdout.replace(/ \(\d+\.\d s\)\n/, '\n');

/** What the index keeps of the memory files for the doctor (undefined before a run made it). */
async function kept(): Promise<string | undefined> {
  const dir = join(temp.dir, 'data-on', 'index');
  const file = (await readdir(dir)).find((f) => f.endsWith('.sqlite')) as string;
  const db = new Database(join(dir, file), { readonly: true });
  try {
    return (db.prepare("SELECT value FROM codex_cache WHERE key = 'doctor-files'").get() as { value: string } | undefined)?.value;
  } finally {
    db.close();
  }
}

function expectSame(args: string[]) {
  const indexed = on(args);
  const direct = off(args);
  expect(indexed.status, indexed.stderr).toBe(0);
  expect(direct.status, direct.stderr).toBe(0);
  if (args.includes('--json')) expect(report(indexed.stdout)).toEqual(report(direct.stdout));
  else expect(text(indexed.stdout)).toBe(text(direct.stdout));
  return indexed;
}

beforeAll(async () => {
  temp = await makeTempDir();
  home = await createDoctorHome(temp.dir, { now: new Date() });
  // Every kind of finding: a summary over Codex's budget (its entries repeated), so the cut has entries in it.
  const summary = join(home.root, 'memory_summary.md');
  const body = await readFile(summary, 'utf8');
  await appendFile(summary, `\n${body.slice(body.indexOf('\n') + 1).repeat(8)}`);
}, 120_000);

afterAll(() => temp.cleanup());

describe('doctor from the index', () => {
  it('reports every finding as reading the files does, cold and warm, in text and JSON', async () => {
    const cold = expectSame(['--json']);
    const counts = report(cold.stdout).counts;
    for (const kind of findingKinds) expect(counts[kind], kind).toBeGreaterThan(0);
    // The first run kept the files' part; the warm runs answer from it.
    expect(await kept()).toBeDefined();
    expectSame(['--json']);
    expectSame([]);
    expectSame(['--version', 'v1', '--kind', 'duplicate,oversize', '--stale-days', '3']);
  });

  it('follows a memory file that changed, and keeps nothing of a file with a secret', async () => {
    const before = report(on(['--json']).stdout);
    // One more copy of the first task group: the duplicate cluster grows, every id after it moves.
    const memory = await readFile(join(home.root, 'MEMORY.md'), 'utf8');
    const second = memory.indexOf('\n# Task Group', 1);
    await writeFile(join(home.root, 'MEMORY.md'), `${memory}\n${memory.slice(0, second)}\n`);
    const after = report(expectSame(['--json']).stdout);
    expect(after.findings).not.toEqual(before.findings);
    const keptBefore = await kept();
    const secret = 'sk-proj-Zq8vN2mK4xR7tB1wY5cH9jL3pD6fG0aS';
    await appendFile(join(home.root, 'MEMORY.md'), `\n# Task Group: staging keys\n\n- staging uses OPENAI_API_KEY=${secret}\n`);
    expectSame(['--json']);
    expectSame([]);
    const keptAfter = await kept();
    // Not replaced by the entries of the file with the secret (compared as booleans: the kept JSON is long).
    expect(keptAfter?.includes(secret), 'the secret is kept in the index').toBe(false);
    expect(keptAfter === keptBefore, 'the kept part was replaced').toBe(true);
  });
});
