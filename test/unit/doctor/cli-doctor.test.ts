// `memory-studio doctor` and `promote` as a user runs them (bin.cjs and the built output): report, --fix, promotion, errors.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../shared/doctor';
import type { Proposal } from '../../../shared/review';
import { createDoctorHome, type DoctorHome } from '../../fixtures/doctor-home';
import { makeTempDir } from '../helpers';

const root = resolve(__dirname, '..', '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
let temp: { dir: string; cleanup: () => Promise<void> };
let home: DoctorHome;

const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args, '--codex-home', home.codexHome, '--data-dir', join(temp.dir, 'data')], {
    cwd: root, // the printed commands start bin/memory-studio, as typed in the checkout
    encoding: 'utf8',
    timeout: 120_000,
  });

beforeAll(async () => {
  temp = await makeTempDir();
  home = await createDoctorHome(temp.dir);
});

afterAll(() => temp.cleanup());

describe('memory-studio doctor', () => {
  it('--help lists doctor and promote, and both are commands (not "Unknown command")', () => {
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(help.stdout).toContain('memory-studio doctor [--codex-home DIR]');
    expect(help.stdout).toContain('memory-studio promote (ENTRY_ID');
    const bare = spawnSync(process.execPath, [bin, 'promote'], { encoding: 'utf8', timeout: 60_000 });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain('promote needs one entry');
  });

  it('a project folder named with --project that does not exist is said so, not counted as checked', () => {
    const missing = join(temp.dir, 'no-such-project');
    const out = cli('doctor', '--version', 'v1', '--kind', 'oversize', '--project', missing);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain(
      `Note: The project folder ${missing} does not exist, so no AGENTS.md or CLAUDE.md was read there; check the path.`,
    );
  });

  it('prints every finding with its id, the triggering text and the fix commands; --json gives the report', () => {
    const text = cli('doctor', '--version', 'v1', '--kind', 'duplicate,agents-overlap');
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^Memory doctor: .* 2 duplicate, \d+ agents-overlap, \d+ stale, 0 oversize/m);
    expect(text.stdout).toMatch(/duplicate {2}dup-[0-9a-f]{12} {2}v1 MEMORY\.md:1\n {2}2 task groups repeat "data-pipeline ingestion"/);
    expect(text.stdout).toContain(`${join(home.pipeline, 'AGENTS.md')}:4  Partner CSV files from the Osaka office are cp932`);
    expect(text.stdout).toMatch(/fix: bin\/memory-studio doctor --fix dup-[0-9a-f]{12}\.merge/);
    expect(text.stdout).not.toMatch(/^stale {2}/m);
    const json = cli('doctor', '--json');
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(report.roots.map((r) => r.version)).toEqual(['v1', 'v2']);
    expect(report.counts.duplicate).toBeGreaterThanOrEqual(2);
  });

  it('--fix prints the proposal id; promote moves an entry into AGENTS.md as a proposal; nothing is written yet', async () => {
    const report = JSON.parse(cli('doctor', '--version', 'v1', '--json').stdout) as DoctorReport;
    const dup = report.findings.find((f) => f.kind === 'duplicate' && f.title.includes('data-pipeline ingestion'));
    const fixed = cli('doctor', '--version', 'v1', '--fix', `${dup?.id}.merge`);
    expect(fixed.status).toBe(0);
    expect(fixed.stdout.split('\n')[0]).toMatch(/^p-[0-9a-f]+$/);
    expect(fixed.stdout).toContain('v1/MEMORY.md (modify');
    const line = home.memory.split('\n').indexOf('# Task Group: data-pipeline scheduling') + 1;
    const promoted = cli('promote', '--file', 'MEMORY.md', '--line', String(line + 3), '--version', 'v1', '--json');
    expect(promoted.status).toBe(0);
    const proposal = JSON.parse(promoted.stdout) as Proposal;
    expect(proposal.files.map((f) => [f.target, f.root, f.relPath])).toEqual([
      ['memory', home.root, 'MEMORY.md'],
      ['project', home.pipeline, 'AGENTS.md'],
    ]);
    // A proposal carries hunks, not texts: the rule is among the lines the AGENTS.md hunk adds.
    const added = proposal.files[1]?.hunks.flatMap((h) => h.lines).filter((l) => l.startsWith('+')) ?? [];
    expect(
      added.some((l) => l.includes('set `retries=4, retry_exponential_backoff=True` in default_args')),
      added.join('\n'),
    ).toBe(true);
    expect(await readFile(join(home.root, 'MEMORY.md'), 'utf8')).toBe(home.memory);
    expect(await readFile(join(home.pipeline, 'AGENTS.md'), 'utf8')).toBe(home.agents);
  });

  it("--fix with a finding id names that finding's fixes to paste, in two lines", () => {
    const report = JSON.parse(cli('doctor', '--version', 'v1', '--json').stdout) as DoctorReport;
    const dup = report.findings.find((f) => f.kind === 'duplicate') as DoctorReport['findings'][number];
    const refused = cli('doctor', '--version', 'v1', '--fix', dup.id);
    expect(refused.status).toBe(2);
    const said = refused.stderr.trim().split('\n');
    expect(said[0]).toBe(
      `${dup.id} is a finding, not a fix: give one of its fixes, ${dup.fixes.map((f) => `--fix ${f.id}`).join(' or ')}.`,
    );
    expect(said[0]).toContain(`--fix ${dup.id}.merge`);
    expect(said.slice(1)).toEqual(['Help: bin/memory-studio doctor --help']);
    expect(cli('doctor', '--version', 'v1', '--fix', 'dup-000000000000').stderr).toContain("is not in the doctor's report any more");
  });

  it('says what went wrong and what to do, with exit codes 1 and 2', () => {
    const gone = cli('doctor', '--fix', 'dup-000000000000.merge');
    expect(gone.status).toBe(1);
    expect(gone.stderr).toMatch(/not in the doctor's report .* any more[\s\S]*Run the doctor again/);
    const global = cli('promote', '--file', 'memory_summary.md', '--line', '1', '--version', 'v1', '--json');
    expect(global.status).toBe(1);
    expect(JSON.parse(global.stdout)).toMatchObject({ ok: false, error: { kind: 'NotFound' } });
    const usage = cli('doctor', '--kind', 'dupes');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--kind takes duplicate, agents-overlap, stale, oversize');
  });
});
