// The record of an Apply is never lost: files in place without a record are recorded on Apply, a history entry the
// Studio DB cannot take keeps its journal for the next recovery, and a proposal changed meanwhile is never mis-recorded.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Proposal } from '../../../shared/review';
import { applyPlan, recoverLeftovers } from '../../../electron/core/apply';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';
import { REPO, ensureCompiled, sha } from './helpers';

const BIN = join(REPO, 'electron', 'host', 'bin.cjs');
let g: GeneratedHomeService;
let dataDir: string;

beforeAll(() => ensureCompiled(), 300_000);
beforeEach(async () => {
  g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 71, git: false, now: new Date() });
  dataDir = join(g.dir, 'data');
});
afterEach(async () => g.dispose());

async function proposeAccepted(content: string): Promise<Proposal> {
  const proposal = await g.service.call('review.propose', { version: 'v1', path: 'memory_summary.md', content });
  return g.service.call('review.decide', {
    id: proposal.id,
    files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
  });
}

const summary = () => readFile(join(g.root, 'memory_summary.md'), 'utf8');
const journals = () => (existsSync(join(dataDir, 'journal')) ? readdirSync(join(dataDir, 'journal')) : []);
const entriesOf = async (id: string) => (await g.service.call('history.list', {})).filter((e) => e.proposalId === id);

describe('a proposal whose files are already in place', () => {
  it('is recorded as applied by Apply (an earlier Apply finished without its record), not refused as empty', async () => {
    const content = `${await summary()}- already in place\n`;
    const proposal = await proposeAccepted(content);
    const before = await summary();
    // What an older recovery left: the files rolled forward, the proposal pending, no history.
    const plan = {
      id: 'older',
      files: [{ version: 'v1' as const, root: g.root, relPath: 'memory_summary.md', baseSha256: sha(before), content }],
    };
    await applyPlan({ ...plan, dbPaths: { v1: join(g.manifest.codexHome, 'memories_1.sqlite') } }, { dataDir });
    const applied = await g.service.call('review.apply', { id: proposal.id });
    expect(applied.written).toEqual([]);
    expect(applied.alreadyInPlace).toEqual(['memory_summary.md']);
    expect((await g.service.call('review.get', { id: proposal.id })).status).toBe('applied');
    const [entry] = await entriesOf(proposal.id);
    expect(entry?.files.map((f) => [f.relPath, f.beforeSha256, f.afterSha256])).toEqual([['memory_summary.md', sha(before), sha(content)]]);
    // And it reverts.
    const revert = await g.service.call('history.revert', { entryId: applied.entry.id });
    await g.service.call('review.decide', {
      id: revert.id,
      files: revert.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await g.service.call('review.apply', { id: revert.id });
    expect(await summary()).toBe(before);
  });
});

describe('a history entry the Studio DB cannot take', () => {
  it('keeps the journal, says the files are in place, and the next recovery records the Apply', async () => {
    const content = `${await summary()}- recorded later\n`;
    const proposal = await proposeAccepted(content);
    // Another process holds the Studio DB's write lock past its busy timeout (a long import being stored).
    const blocker = new Database(join(dataDir, 'studio.sqlite'));
    blocker.exec('BEGIN IMMEDIATE');
    const failed = await g.service.call('review.apply', { id: proposal.id }).then(
      () => null,
      (error: unknown) => error as { kind: string; message: string },
    );
    blocker.exec('COMMIT');
    blocker.close();
    expect(failed?.message).toMatch(/^The files of "Edit memory_summary\.md" were written, but its history entry could not be recorded: /);
    expect(failed?.message).toContain('do not apply it again');
    expect(await summary()).toBe(content);
    expect(journals()).toEqual([`${proposal.id}.json`]);
    expect((await g.service.call('review.get', { id: proposal.id })).status).toBe('pending');
    const report = await recoverLeftovers(dataDir, [g.root]);
    expect(report?.recorded).toEqual([proposal.id]);
    expect(journals()).toEqual([]);
    expect((await g.service.call('review.get', { id: proposal.id })).status).toBe('applied');
    expect(await entriesOf(proposal.id)).toHaveLength(1);
  });
});

describe('a proposal changed after its Apply was killed', () => {
  it('is not recorded with what it says now: the journal goes, the report says why, the files stay finished', async () => {
    const first = `${await summary()}- first decision\n`;
    const proposal = await proposeAccepted(first);
    const killed = spawnSync(process.execPath, [BIN, 'apply', proposal.id, '--data-dir', dataDir, '--json'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, MEMORY_STUDIO_TEST_KILL_AT: 'journal', NODE_ENV: 'test', MEMORY_STUDIO_NO_KEEPER: '1' },
    });
    expect(killed.signal).toBe('SIGKILL');
    // Meanwhile the person rejected the hunk in a window that was open all along.
    await g.service.call('review.decide', {
      id: proposal.id,
      files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'reject' as const])) })),
    });
    const report = await recoverLeftovers(dataDir, [g.root]);
    expect(report?.rolledForward).toEqual([proposal.id]);
    expect(report?.recorded).toEqual([]);
    expect(report?.unrecorded).toEqual([
      { id: proposal.id, reason: expect.stringContaining('was changed after its Apply was interrupted') },
    ]);
    expect(journals()).toEqual([]);
    expect(await summary()).toBe(first);
    expect((await g.service.call('review.get', { id: proposal.id })).status).toBe('pending');
    expect(await entriesOf(proposal.id)).toEqual([]);
  });
});

describe('the test-only kill point', () => {
  it('is inert without NODE_ENV=test: the variable alone never stops an Apply', async () => {
    const proposal = await proposeAccepted(`${await summary()}- not killed\n`);
    const env: NodeJS.ProcessEnv = { ...process.env, MEMORY_STUDIO_TEST_KILL_AT: 'journal', MEMORY_STUDIO_NO_KEEPER: '1' };
    delete env.NODE_ENV;
    const run = spawnSync(process.execPath, [BIN, 'apply', proposal.id, '--data-dir', dataDir, '--json'], {
      encoding: 'utf8',
      timeout: 120_000,
      env,
    });
    expect(run.signal).toBeNull();
    expect(run.status, run.stderr).toBe(0);
    expect((await g.service.call('review.get', { id: proposal.id })).status).toBe('applied');
  });
});
