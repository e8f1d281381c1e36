// The fault probe, repeatable: real `memory-studio` processes on broken Codex DBs, a full data disk and hostile input.
// Every try must answer in words with the file it concerns, as JSON on --json, with the right exit code, and lose
// nothing; the figures (tries, clean, defects) are printed at the end for the closing note.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers';
import { breakDb, built, cli, DB_CASES, errorOf, generalProblems, jsonOf, Tally, treeDigest, type DbCase } from './probe-kit';
import { makeProbeHome, type ProbeHome } from './probe-homes';
import { diskFullTries } from './probe-disk';
import { boundaryTries } from './probe-boundaries';

const tally = new Tally();
let temp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  temp = await makeTempDir();
});
afterAll(async () => {
  console.log(tally.figures());
  await temp?.cleanup();
});

/** The six commands that read or write a root's memory DB, as a person or a script runs them. */
function dbCommands(h: ProbeHome): Array<[string, string[]]> {
  const common = ['--codex-home', h.codexHome, '--data-dir', h.dataDir, '--json'];
  return [
    ['consolidate --json', ['consolidate', '--version', 'v1', ...common]],
    ['consolidate --preview --json', ['consolidate', '--preview', '--version', 'v1', ...common]],
    ['apply --json', ['apply', h.proposalId, '--accept', 'all', ...common]],
    ['inspect --json', ['inspect', ...common]],
    ['forget --json', ['forget', h.threadId, ...common]],
    ['import --apply --json', ['import', '--from', 'claude', '--source-home', h.claudeHome, '--apply', '--skip-secret-files', ...common]],
  ];
}

/**
 * A failure must carry a codex-db fault (or a full disk) and name the DB; a locked DB exits 3, anything else 1; and the
 * memory folder is exactly as it was. A success is fine (a preview or the health page reports the DB as data).
 */
function judgeDbTry(h: ProbeHome, kind: DbCase, run: ReturnType<typeof cli>, before: string): string[] {
  const problems = generalProblems(run);
  const error = errorOf(jsonOf(run));
  if (run.status !== 0 || error) {
    if (!error) problems.push(`exit ${run.status} without an error object`);
    else {
      if (!error.fault?.startsWith('codex-db-')) problems.push(`no codex-db fault: ${JSON.stringify(error)}`);
      if (error.path !== h.memoryDb) problems.push(`path is ${error.path ?? 'absent'}, not the memory DB`);
      if (!error.message.includes('memories_1.sqlite')) problems.push('the message does not name memories_1.sqlite');
      const want = error.fault === 'codex-db-locked' ? 3 : 1;
      if (run.status !== want) problems.push(`exit ${run.status}, not ${want}`);
    }
    if (treeDigest(h.root) !== before) problems.push('the memory folder changed');
  }
  if (kind === 'locked' && run.status === 1) problems.push('a locked DB exits 1');
  return problems;
}

describe.skipIf(!built)('fault probe: a broken Codex memory DB under every command', () => {
  for (const kind of ['missing', ...DB_CASES] as DbCase[]) {
    it(`${kind} memories_1.sqlite`, async () => {
      const h = await makeProbeHome(`${temp.dir}/db-${kind}`);
      const release = breakDb(h.memoryDb, kind);
      try {
        for (const [name, args] of dbCommands(h)) {
          const before = treeDigest(h.root);
          tally.add('codex-db', `${kind}: ${name}`, judgeDbTry(h, kind, cli(args), before));
        }
      } finally {
        release();
      }
      expect(tally.defects('codex-db').filter((t) => t.name.startsWith(`${kind}:`))).toEqual([]);
    });
  }
});

describe.skipIf(!built)('fault probe: a full data disk', () => {
  it('every command says the disk is full, names the file, and exits 1', async () => {
    for (const t of await diskFullTries(`${temp.dir}/disk`)) tally.add('data-disk', t.name, t.problems);
    expect(tally.defects('data-disk')).toEqual([]);
  });
});

describe.skipIf(!built)('fault probe: boundaries and hostile input', () => {
  it('refuses what crosses a boundary, with a clear error', async () => {
    for (const t of await boundaryTries(`${temp.dir}/bounds`)) tally.add('boundaries', t.name, t.problems);
    expect(tally.defects('boundaries')).toEqual([]);
  });
});
