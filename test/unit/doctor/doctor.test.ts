// The memory doctor through the core service: findings on a realistic home, and each fix reviewed, applied and reverted.
import Database from 'better-sqlite3';
import { lstat, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DoctorReport, Finding } from '../../../shared/doctor';
import type { Proposal } from '../../../shared/review';
import type { StudioService } from '../../../electron/core/service/service';
import { openDoctorService, type DoctorService } from './doctor-service';
import type { DoctorHome } from '../../fixtures/doctor-home';

// The project folders these tests name are typed, as on the command line (a page's are checked in caller-paths.test.ts).
let temp: DoctorService['temp'];
let home: DoctorHome;
let service: StudioService;
let opened: DoctorService;

beforeEach(async () => {
  opened = await openDoctorService({ callerPaths: 'person' });
  ({ temp, home, service } = opened);
});

afterEach(() => opened.dispose());

const memory = () => readFile(join(home.root, 'MEMORY.md'), 'utf8');
const entryTitle = (report: DoctorReport, id: string) => report.entries.find((e) => e.id === id)?.title;
const memoryFindings = (report: DoctorReport, kind: Finding['kind']) =>
  report.findings.filter((f) => f.kind === kind && f.version === 'v1' && f.file === 'MEMORY.md');

async function acceptAndApply(proposal: Proposal) {
  await service.call('review.decide', {
    id: proposal.id,
    files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
  });
  return service.call('review.apply', { id: proposal.id });
}

describe('doctor findings', () => {
  it('clusters the repeated and the reworded blocks, and never two distinct blocks of the same project', async () => {
    const report = await service.call('doctor.run', { version: 'v1' });
    const clusters = memoryFindings(report, 'duplicate').map((f) => f.entryIds.map((id) => entryTitle(report, id)));
    expect(clusters).toEqual([
      ['data-pipeline ingestion', 'data-pipeline ingestion, earlier work 2026-11-10 to 2026-11-12'],
      ['webapp i18n copy', 'webapp German translations'],
    ]);
    const ingestion = memoryFindings(report, 'duplicate')[0] as Finding;
    if (ingestion.evidence.kind !== 'duplicate') throw new Error('not a duplicate');
    const member = ingestion.evidence.members[0];
    expect(member?.sharedCount).toBeGreaterThanOrEqual(7);
    expect(member?.sharedLines[0]?.text).toBe('scope: CSV ingestion, encodings and schema checks in data-pipeline');
    expect(ingestion.fixes.map((f) => f.action)).toEqual(['merge', 'promote']);
  });

  it('shows a memory line beside the AGENTS.md rule it restates, and one that speaks about the same thing', async () => {
    const report = await service.call('doctor.run', { version: 'v1' });
    const matches = memoryFindings(report, 'agents-overlap').flatMap((f) =>
      f.evidence.kind === 'agents-overlap'
        ? f.evidence.matches.map((m) => ({ ...m, ruleFile: f.evidence.kind === 'agents-overlap' ? f.evidence.ruleFile : '' }))
        : [],
    );
    const restated = matches.find((m) => m.memoryText.includes('Osaka office are cp932'));
    expect(restated).toMatchObject({ relation: 'restates', ruleLine: 4, ruleFile: join(home.pipeline, 'AGENTS.md') });
    expect(restated?.ruleText).toContain('never guess');
    const npm = matches.find((m) => m.memoryText.includes('npm ci'));
    expect(npm).toMatchObject({ relation: 'same-subject', ruleLine: 8 });
    expect(npm?.terms).toContain('npm');
    // The webapp has no AGENTS.md, and pipeline rules never judge webapp memory.
    expect(matches.filter((m) => m.memoryText.includes('Sie'))).toEqual([]);
    expect(report.projects.find((p) => p.cwd === home.pipeline)?.ruleFiles).toEqual([
      { path: join(home.pipeline, 'AGENTS.md'), name: 'AGENTS.md', rules: 3 },
    ]);
  });

  it('calls a block stale when its pointers lead nowhere and its project folder is gone', async () => {
    const report = await service.call('doctor.run', { version: 'v1' });
    const legacy = memoryFindings(report, 'stale').find((f) => f.title === '"legacy reports service" is stale');
    if (legacy?.evidence.kind !== 'stale') throw new Error('no stale finding for the legacy block');
    // The generated sessions cite lines of the generated MEMORY.md, which this one replaced: "not cited" is not asserted here.
    expect(legacy.evidence.reasons.map((r) => r.reason).slice(0, 2)).toEqual(['pointers-gone', 'project-gone']);
    expect(legacy.message).toContain('/nonexistent/src/reports-svc no longer exists');
  });

  it('keeps finding ids stable when unrelated memory changes', async () => {
    const before = await service.call('doctor.run', { version: 'v1' });
    await writeFile(
      join(home.root, 'MEMORY.md'),
      `# Task Group: an unrelated block\n\nscope: x\napplies_to: cwd=/tmp; reuse_rule=x\n\n## Reusable knowledge\n\n- nothing in common with the rest of this file at all\n\n${home.memory}`,
    );
    const after = await service.call('doctor.run', { version: 'v1' });
    expect(memoryFindings(after, 'duplicate').map((f) => f.id)).toEqual(memoryFindings(before, 'duplicate').map((f) => f.id));
    expect(
      memoryFindings(after, 'agents-overlap')
        .map((f) => f.id)
        .sort(),
    ).toEqual(
      memoryFindings(before, 'agents-overlap')
        .map((f) => f.id)
        .sort(),
    );
  });
});

describe('doctor fixes', () => {
  it('merges a cluster into the kept block, carrying pointers, keywords and unique lines; the finding is gone after', async () => {
    const report = await service.call('doctor.run', { version: 'v1' });
    const finding = memoryFindings(report, 'duplicate')[0] as Finding;
    const proposal = await service.call('doctor.fix', { version: 'v1', fixId: `${finding.id}.merge` });
    expect(proposal).toMatchObject({ source: 'doctor', status: 'pending' });
    expect(await memory()).toBe(home.memory);
    await acceptAndApply(proposal);
    const merged = await memory();
    expect(merged.match(/^# Task Group: data-pipeline ingestion/gm)).toHaveLength(1);
    const removedPointer = /rollout_summaries\/\S+ \(cwd=[^)]*a follow-up remains open\)/.exec(home.memory)?.[0];
    expect(merged).toContain(removedPointer);
    expect(merged).toContain('- Shift_JIS, cp932, mojibake, encoding check, U+FFFD');
    expect(merged).toContain('- the Osaka partner sends a new file every weekday at 06:00 JST\n');
    expect(merged.match(/partner files from the Osaka office/g)).toHaveLength(1);
    expect(merged).toContain('# Task Group: data-pipeline scheduling');
    const again = await service.call('doctor.run', { version: 'v1' });
    expect(again.findings.map((f) => f.id)).not.toContain(finding.id);
    await expect(service.call('doctor.fix', { version: 'v1', fixId: `${finding.id}.merge` })).rejects.toThrow(
      /not in the doctor's report .* any more/,
    );
  });

  it('promotes a cluster into the project AGENTS.md and removes it from memory in one proposal; revert restores both', async () => {
    const report = await service.call('doctor.run', { version: 'v1' });
    const finding = memoryFindings(report, 'duplicate')[1] as Finding;
    const proposal = await service.call('doctor.fix', { version: 'v1', fixId: `${finding.id}.promote` });
    expect(proposal.files.map((f) => [f.target, f.relPath, f.change])).toEqual([
      ['memory', 'MEMORY.md', 'modify'],
      ['project', 'AGENTS.md', 'create'],
    ]);
    expect(proposal.files[1]?.root).toBe(home.webapp);
    const applied = await acceptAndApply(proposal);
    expect(applied.written.map((w) => [w.target, w.relPath])).toEqual([
      ['memory', 'MEMORY.md'],
      ['project', 'AGENTS.md'],
    ]);
    const agents = await readFile(join(home.webapp, 'AGENTS.md'), 'utf8');
    expect(agents).toMatch(/^# AGENTS\.md\n\n## webapp i18n copy\n/);
    // A rule said twice in other words is written once, in its fuller wording.
    expect(agents).toContain('- German copy must use the formal "Sie" form, never "du"\n');
    expect(agents.match(/formal "Sie" form/g)).toHaveLength(1);
    expect(agents).toContain('- the translation team reviews de.json pull requests on Thursdays\n');
    expect(agents).not.toContain('[Task 1]');
    expect(agents.match(/locales\/de\.json keys must stay sorted/g)).toHaveLength(1);
    expect(await memory()).not.toContain('webapp');
    const entry = (await service.call('history.list', {}))[0];
    expect(entry?.files.map((f) => f.target)).toEqual(['memory', 'project']);
    const diff = await service.call('history.entryDiff', { entryId: applied.entry.id, path: 'AGENTS.md' });
    expect(diff).toMatchObject({ target: 'project', root: home.webapp, before: { content: null } });
    const revert = await service.call('history.revert', { entryId: applied.entry.id });
    await acceptAndApply(revert);
    expect(await memory()).toBe(home.memory);
    await expect(lstat(join(home.webapp, 'AGENTS.md'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses to apply a promotion over an AGENTS.md changed meanwhile, and writes nothing', async () => {
    const report = await service.call('doctor.run', { version: 'v1' });
    const ingestion = report.entries.find((e) => e.title === 'data-pipeline ingestion');
    const proposal = await service.call('doctor.promote', { version: 'v1', file: 'MEMORY.md', entryId: ingestion?.id as string });
    expect(proposal.files[1]).toMatchObject({ target: 'project', relPath: 'AGENTS.md', change: 'modify' });
    expect((await service.call('review.fileTexts', { id: proposal.id, ord: 1 })).baseContent).toBe(home.agents);
    await writeFile(join(home.pipeline, 'AGENTS.md'), `${home.agents}- Someone else wrote this rule meanwhile.\n`);
    await expect(acceptAndApply(proposal)).rejects.toThrow(/AGENTS\.md in .* changed since the proposal was made/);
    expect(await memory()).toBe(home.memory);
    expect(await readFile(join(home.pipeline, 'AGENTS.md'), 'utf8')).toContain('Someone else');
    const stale = await service.call('review.stale', { id: proposal.id });
    expect(stale.stale.map((s) => [s.relPath, s.state])).toEqual([['AGENTS.md', 'changed']]);
  });

  it('never promotes through a symlink, into a .git folder, or into a folder that is gone', async () => {
    const report = await service.call('doctor.run', { version: 'v1' });
    const id = report.entries.find((e) => e.title === 'data-pipeline ingestion')?.id as string;
    const promote = (project: string) => service.call('doctor.promote', { version: 'v1', file: 'MEMORY.md', entryId: id, project });
    const elsewhere = join(temp.dir, 'elsewhere.md');
    await writeFile(elsewhere, 'not yours\n');
    const linked = join(temp.dir, 'projects', 'linked-agents');
    await mkdir(linked, { recursive: true });
    await symlink(elsewhere, join(linked, 'AGENTS.md'));
    await expect(promote(linked)).rejects.toThrow(/is a symlink; Memory Studio never writes through a symlink/);
    const viaLink = join(temp.dir, 'projects', 'via-link');
    await symlink(home.webapp, viaLink);
    await expect(promote(viaLink)).rejects.toThrow(/symlink/);
    await expect(promote(join(home.pipeline, '.git'))).rejects.toThrow(/inside a \.git folder/);
    await expect(promote(join(temp.dir, 'projects', 'gone'))).rejects.toThrow(/does not exist on this machine/);
    await expect(promote(home.root)).rejects.toThrow(/inside the Codex memory folder/);
    expect(await readFile(elsewhere, 'utf8')).toBe('not yours\n');
    expect(await memory()).toBe(home.memory);
    expect((await service.call('review.list', {})).proposals).toEqual([]);
  });

  it('retires the lines that restate a rule, and a stale block, each as its own proposal', async () => {
    const report = await service.call('doctor.run', { version: 'v1' });
    const restates = memoryFindings(report, 'agents-overlap').find(
      (f) => f.evidence.kind === 'agents-overlap' && f.evidence.matches.some((m) => m.relation === 'restates'),
    );
    const retire = await service.call('doctor.fix', { version: 'v1', fixId: `${restates?.id}.retire` });
    expect(retire.files[0]?.removed).toBe(1);
    await acceptAndApply(retire);
    const after = await memory();
    expect(after.match(/partner files from the Osaka office/g)).toHaveLength(1);
    expect(after).toContain('# Task Group: data-pipeline ingestion\n');
    const stale = memoryFindings(await service.call('doctor.run', { version: 'v1' }), 'stale').find((f) =>
      f.title.includes('legacy reports service'),
    );
    await acceptAndApply(await service.call('doctor.fix', { version: 'v1', fixId: `${stale?.id}.retire` }));
    expect(await memory()).not.toContain('legacy reports service');
  });

  it('forgets the sessions of repeated raw memories (Codex rebuilds raw_memories.md), keeping the first', async () => {
    const rawPath = join(home.root, 'raw_memories.md');
    const raw = await readFile(rawPath, 'utf8');
    const threads = raw.split(/(?=^## Thread `)/m);
    const body = (t: string) => t.slice(t.indexOf('\n---\n'));
    const [first, second] = [threads[1] as string, threads[2] as string];
    const repeated = second.slice(0, second.indexOf('\n---\n')) + body(first);
    await writeFile(rawPath, [threads[0], first, repeated, ...threads.slice(3)].join(''));
    const secondId = /`([^`]+)`/.exec(second)?.[1] as string;
    const report = await service.call('doctor.run', { version: 'v1' });
    const cluster = report.findings.find((f) => f.kind === 'duplicate' && f.file === 'raw_memories.md');
    expect(cluster?.fixes.map((f) => f.action)).toEqual(['forget']);
    const proposal = await service.call('doctor.fix', { version: 'v1', fixId: `${cluster?.id}.forget` });
    expect(proposal.files).toEqual([]);
    expect(proposal.dbChanges.map((c) => c.params)).toContainEqual({ threadId: secondId });
    await service.call('review.apply', { id: proposal.id });
    const db = new Database(join(home.codexHome, 'memories_1.sqlite'), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS n FROM stage1_outputs WHERE thread_id = ?').get(secondId)).toEqual({ n: 0 });
    db.close();
  });

  it('says what to do when a fix id is unknown or the home has no such root', async () => {
    await expect(service.call('doctor.fix', { fixId: 'dup-000000000000.merge' })).rejects.toThrow(
      /Run the doctor again|not in the doctor's report/,
    );
    await rm(join(home.codexHome, 'memories_v2'), { recursive: true });
    const report = await service.call('doctor.run', {});
    expect(report.roots.map((r) => r.version)).toEqual(['v1']);
  });
});
