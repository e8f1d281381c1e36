// Stale findings grouped by reason and project, and a group's bulk fix as one reviewed proposal, on a real temporary
// Codex home: through the core service and through `memory-studio doctor` as a user runs it.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../shared/doctor';
import type { Proposal } from '../../../shared/review';
import type { StudioService } from '../../../electron/core/service/service';
import { openDoctorService, type DoctorService } from './doctor-service';
import type { DoctorHome } from '../../fixtures/doctor-home';

const root = resolve(__dirname, '..', '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
let temp: DoctorService['temp'];
let home: DoctorHome;
let service: StudioService;
let opened: DoctorService;

beforeEach(async () => {
  opened = await openDoctorService();
  ({ temp, home, service } = opened);
});

afterEach(() => opened.dispose());

const memory = () => readFile(join(home.root, 'MEMORY.md'), 'utf8');

/** One day: nearly every curated entry counts as never cited, as on a heavy home left alone for a while. */
const run = () => service.call('doctor.run', { version: 'v1', staleDays: 1 });

describe('stale groups', () => {
  it('puts every stale finding in exactly one group of one reason and one project, largest first', async () => {
    const report = await run();
    const groups = report.staleGroups ?? [];
    const stale = report.findings.filter((f) => f.kind === 'stale').map((f) => f.id);
    expect(stale.length).toBeGreaterThan(3);
    expect(groups.length).toBeLessThan(stale.length);
    expect(groups.flatMap((g) => g.findingIds).sort()).toEqual([...stale].sort());
    for (const g of groups) {
      expect(g.id).toMatch(/^sgrp-[0-9a-f]{12}$/);
      expect(g.title).toMatch(new RegExp(`^${g.findingIds.length} entr(y|ies) `));
    }
    const sizes = groups.map((g) => g.findingIds.length);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(new Set(groups.map((g) => `${g.reason} ${g.project}`)).size).toBe(groups.length);
    // The legacy block's project folder is gone: that reason outweighs its dead pointers.
    const legacy = report.findings.find((f) => f.kind === 'stale' && f.title.includes('legacy reports service'));
    const group = groups.find((g) => g.findingIds.includes(legacy?.id ?? ''));
    expect(group?.reason).toBe('project-gone');
    // The same home gives the same group ids.
    expect((await run()).staleGroups?.map((g) => g.id)).toEqual(groups.map((g) => g.id));
  });

  it("a group's bulk fix is one pending proposal that retires every entry of the group once applied", async () => {
    const report = await run();
    const group = (report.staleGroups ?? []).find((g) => g.findingIds.length > 1);
    if (!group) throw new Error('no group of several findings');
    const titles = group.findingIds.map((id) => report.findings.find((f) => f.id === id)?.title.replace(/^"|" is stale$/g, ''));
    const proposal = await service.call('doctor.fixGroup', { version: 'v1', staleDays: 1, groupId: group.id });
    expect(proposal.status).toBe('pending');
    expect(proposal.source).toBe('doctor');
    expect(proposal.title).toBe(`Doctor: retire ${group.title}`);
    // Nothing is written before the review.
    expect(await memory()).toBe(home.memory);
    await service.call('review.decide', {
      id: proposal.id,
      files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await service.call('review.apply', { id: proposal.id });
    const after = await service.call('doctor.run', { version: 'v1', staleDays: 1 });
    const left = new Set(after.findings.map((f) => f.id));
    expect(group.findingIds.filter((id) => left.has(id))).toEqual([]);
    expect(after.staleGroups?.some((g) => g.id === group.id)).toBe(false);
    const text = await readFile(join(home.root, proposal.files[0]?.relPath ?? 'MEMORY.md'), 'utf8');
    for (const title of titles.filter((t) => t && proposal.files[0]?.relPath === 'MEMORY.md'))
      expect(text).not.toContain(`# Task Group: ${title}\n`);
    await expect(service.call('doctor.fixGroup', { version: 'v1', staleDays: 1, groupId: group.id })).rejects.toThrow(
      /not in the doctor's report/,
    );
  });

  it('`doctor` prints the groups with their fix; `doctor --fix <group id>` makes the proposal', () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [bin, ...args, '--codex-home', home.codexHome, '--data-dir', join(temp.dir, 'cli-data')], {
        cwd: root, // the printed commands start bin/memory-studio, as typed in the checkout
        encoding: 'utf8',
        timeout: 120_000,
      });
    const text = cli('doctor', '--version', 'v1', '--stale-days', '1', '--kind', 'stale');
    expect(text.status).toBe(0);
    const report = JSON.parse(cli('doctor', '--version', 'v1', '--stale-days', '1', '--json').stdout) as DoctorReport;
    const [first] = report.staleGroups ?? [];
    if (!first) throw new Error('no stale group');
    expect(text.stdout).toContain(`stale group  ${first.id}  ${first.findingIds.length} findings\n  ${first.title}`);
    expect(text.stdout).toContain(`fix: bin/memory-studio doctor --fix ${first.id}`);
    // Grouped findings are not listed one by one as well.
    expect(text.stdout).not.toMatch(/^stale {2}stale-/m);
    const fixed = cli('doctor', '--version', 'v1', '--stale-days', '1', '--fix', first.id, '--json');
    expect(fixed.status).toBe(0);
    expect((JSON.parse(fixed.stdout) as Proposal).title).toBe(`Doctor: retire ${first.title}`);
  });
});
