// A real `memory-studio apply` SIGKILLed at every step of every kind of Apply (the test-only kill point), then a new
// process recovers: the files, the history entry, its provenance, the proposal's status and a revert must be as if
// the Apply had completed. Each kind prints its figures (tries, clean, defects) for the issue's closing note.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import type { HistoryEntry, Proposal } from '../../../shared/review';
import type { KillStep } from '../../../electron/core/apply/kill-point';
import { leaseRecordDir } from '../../../electron/core/lease/lease-row';
import { appliedImportTitle } from '../../../electron/core/import/title';
import { loadProvenance } from '../../../electron/core/studio-db/provenance';
import { resultOf } from '../../../electron/core/review/proposals';
import { openStudioDb } from '../../../electron/core/studio-db';
import { makeTempDir } from '../helpers';
import { REPO, ensureCompiled, globalRow, leftoverTemps, sha } from './helpers';
import { KINDS, type Kind, type KindHome, acceptAll, makeKindHome } from './kill-kinds';

const BIN = join(REPO, 'electron', 'host', 'bin.cjs');
/** Steps before the journal: nothing is finished by recovery, and the proposal is applied again. */
const BEFORE_JOURNAL: readonly KillStep[] = ['locked', 'leased', 'temps'];

beforeAll(() => ensureCompiled(), 300_000);

/** Every step this proposal's Apply goes through, in order. */
function stepsOf(proposal: Proposal): KillStep[] {
  const files = proposal.files.filter((f) => f.change !== 'unchanged').length;
  return [
    ...BEFORE_JOURNAL,
    'journal',
    ...Array.from({ length: files }, (_, i) => `renamed-${i}` as const),
    ...(proposal.dbChanges.length > 0 ? (['db'] as const) : []),
    'recorded',
    'journal-deleted',
    'released',
  ];
}

interface Expected {
  kind: HistoryEntry['kind'];
  summary: string;
  files: { version: string; target: string; root: string; relPath: string; beforeSha256: string | null; afterSha256: string | null }[];
  provenance: unknown;
}

/** What a completed Apply of `proposal` records, computed before it is applied. */
function expectedOf(h: KindHome, proposal: Proposal): Expected {
  const studio = openStudioDb(h.dataDir);
  try {
    const result = resultOf(studio, proposal.id);
    return {
      kind: proposal.source === 'revert' ? 'revert' : 'apply',
      summary: proposal.source === 'import' ? appliedImportTitle(studio, proposal, result) : proposal.title,
      files: result.files
        .filter((f) => f.action !== 'unchanged')
        .map((f) => ({
          version: f.version,
          target: f.target,
          root: f.root,
          relPath: f.relPath,
          beforeSha256: f.baseSha256,
          afterSha256: f.action === 'delete' ? null : f.sha256,
        })),
      provenance: loadProvenance(studio, [proposal.id]).get(proposal.id),
    };
  } finally {
    studio.close();
  }
}

function cli(h: KindHome, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [BIN, ...args, '--codex-home', h.codexHome, '--data-dir', h.dataDir, '--json'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '1', ...env },
  });
}

const shaOf = (path: string) => readFile(path).then(sha, () => null);
const listed = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/** Everything a completed Apply leaves, compared with what it must; a list of what differs. */
async function differences(
  h: KindHome,
  kind: Kind,
  proposal: Proposal,
  expected: Expected,
): Promise<{ found: string[]; entry?: HistoryEntry }> {
  const found: string[] = [];
  const status = (await h.service.call('review.get', { id: proposal.id })).status;
  if (status !== 'applied') found.push(`the proposal is ${status}`);
  const entries = (await h.service.call('history.list', {})).filter((e) => e.proposalId === proposal.id);
  if (entries.length !== 1) found.push(`${entries.length} history entries`);
  const entry = entries[0];
  if (entry) {
    if (entry.kind !== expected.kind) found.push(`a history entry of kind ${entry.kind}`);
    if (entry.summary !== expected.summary) found.push(`the history says "${entry.summary}", not "${expected.summary}"`);
    const files = entry.files.map(({ version, target, root, relPath, beforeSha256, afterSha256 }) => ({
      version,
      target,
      root,
      relPath,
      beforeSha256,
      afterSha256,
    }));
    if (JSON.stringify(files) !== JSON.stringify(expected.files)) found.push('the history entry lists other files or hashes');
    if (JSON.stringify(entry.provenance) !== JSON.stringify(expected.provenance)) found.push('the history entry has other provenance');
    const removed = entry.files.reduce((n, f) => n + (f.secretsRemoved ?? 0), 0);
    if (removed !== (kind.secretsRemoved ?? 0)) found.push(`the history entry says ${removed} secret(s) removed`);
  }
  for (const f of expected.files)
    if ((await shaOf(join(f.root, f.relPath))) !== f.afterSha256) found.push(`${f.relPath} is not at its proposed content`);
  if (listed(join(h.dataDir, 'journal')).length > 0) found.push(`a journal is left: ${listed(join(h.dataDir, 'journal')).join(', ')}`);
  if (listed(leaseRecordDir(h.dataDir)).length > 0) found.push('a lease record is left');
  if (listed(join(h.dataDir, 'locks')).length > 0) found.push('a lock file is left');
  for (const folder of h.folders)
    if (existsSync(folder) && leftoverTemps(folder).length > 0) found.push(`temp files are left in ${folder}`);
  for (const db of h.dbPaths) {
    const row = existsSync(db) ? globalRow(db) : undefined;
    if (row?.status === 'running') found.push(`Codex's lease in ${db} is still held by ${String(row.worker_id)}`);
  }
  found.push(...(kind.checkApplied?.(h, proposal) ?? []));
  return { found, entry };
}

/** The recorded entry can be reverted, and the revert puts every file back to its content before. */
async function revertDifferences(h: KindHome, entry: HistoryEntry | undefined, expected: Expected): Promise<string[]> {
  // A forget changes only Codex's DB, which Codex's own forget cannot undo either: its entry lists no file.
  if (!entry || entry.files.length === 0) return [];
  const revert = await acceptAll(h, await h.service.call('history.revert', { entryId: entry.id }));
  await h.service.call('review.apply', { id: revert.id });
  const found: string[] = [];
  for (const f of expected.files) {
    // A secret the change removed is not in the history any more: the revert brings its line back masked, as said.
    const removed = entry.files.find((e) => e.root === f.root && e.relPath === f.relPath)?.secretsRemoved ?? 0;
    const before =
      removed > 0
        ? sha((await h.service.call('history.entryDiff', { entryId: entry.id, path: f.relPath, root: f.root })).before.content ?? '')
        : f.beforeSha256;
    if ((await shaOf(join(f.root, f.relPath))) !== before) found.push(`the revert left ${f.relPath} other than before`);
  }
  return found;
}

/** One kill: the Apply stopped at `step`, a new process recovers, then everything is checked and reverted. */
async function killAt(h: KindHome, kind: Kind, proposal: Proposal, step: KillStep, round: number): Promise<string[]> {
  const expected = expectedOf(h, proposal);
  const found: string[] = [];
  const killed = cli(h, ['apply', proposal.id], { MEMORY_STUDIO_TEST_KILL_AT: step, NODE_ENV: 'test' });
  if (killed.signal !== 'SIGKILL') found.push(`the Apply was not killed (exit ${killed.status}: ${killed.stdout}${killed.stderr})`);
  // The next process, of either kind: a lean command (its own start-up recovery) or one through the service.
  const next = cli(h, round % 2 === 0 ? ['secrets'] : ['history']);
  if (next.status !== 0 && next.status !== 1) found.push(`the next process failed: ${next.stderr}`);
  const status = (await h.service.call('review.get', { id: proposal.id })).status;
  if (BEFORE_JOURNAL.includes(step)) {
    // Nothing was written: the proposal waits, and applying it again works.
    if (status !== 'pending') found.push(`killed before its journal, the proposal is ${status}`);
    const again = cli(h, ['apply', proposal.id]);
    if (again.status !== 0) found.push(`applying it again failed: ${again.stdout}${again.stderr}`);
  } else if (status !== 'applied') {
    found.push(`recovery left the proposal ${status}`);
  }
  const { found: applied, entry } = await differences(h, kind, proposal, expected);
  return [...found, ...applied, ...(await revertDifferences(h, entry, expected))];
}

describe.each(KINDS.map((k) => [k.name, k] as const))('a killed Apply of a proposal of kind %s', (_name, kind) => {
  it('is finished at each step by the next process and recorded as if it had completed, then reverts', async () => {
    const temp = await makeTempDir();
    const h = await makeKindHome(temp.dir, kind);
    const defects: string[] = [];
    const figures = { tries: 0, clean: 0, steps: [] as string[] };
    try {
      for (let index = 0, round = 0; ; round++) {
        const proposal = await kind.make(h, round);
        const steps = stepsOf(proposal);
        const step = steps[index];
        if (step === undefined) break;
        const found = await killAt(h, kind, proposal, step, round);
        figures.tries++;
        figures.steps.push(step);
        if (found.length === 0) figures.clean++;
        defects.push(...found.map((f) => `${step}: ${f}`));
        index++;
      }
    } finally {
      h.dispose();
      await temp.cleanup();
    }
    console.log(
      `[probe:kill] ${kind.name}: ${JSON.stringify({ tries: figures.tries, clean: figures.clean, defects: defects.length })} at ${figures.steps.join(', ')}${defects.map((d) => `\n  ${d}`).join('')}`,
    );
    expect(defects).toEqual([]);
  }, 900_000);
});
