// The secret gate on writes outside the memory roots: a promotion never copies a secret into a project's AGENTS.md, a
// revision holding one is refused when stored, and Apply's own gate refuses what only a conflict's resolution assembles.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Proposal } from '../../../shared/review';
import type { StudioService } from '../../../electron/core/service/service';
import { openDoctorService, type DoctorService } from './doctor-service';
import type { DoctorHome } from '../../fixtures/doctor-home';
import { mixedAndRandom } from '../../../electron/core/lint/secret-heuristics';
import { secretsAtRest } from '../at-rest-bytes';

let temp: DoctorService['temp'];
let home: DoctorHome;
let service: StudioService;
let opened: DoctorService;

beforeEach(async () => {
  opened = await openDoctorService();
  ({ temp, home, service } = opened);
});

afterEach(() => opened.dispose());

// Assembled at run time: the repository holds no token-shaped literal.
const token = () => `ghp_${randomBytes(27).toString('base64').replace(/[+/=]/g, 'Q').slice(0, 36)}`;
const BULLET = '- added a check that rejects U+FFFD in headers';

/** The ingestion block's knowledge with one more bullet, as a person might have noted a credential. */
async function plant(line: string): Promise<{ id: string; memory: string; line: number }> {
  const memory = home.memory.replace(BULLET, `${line}\n${BULLET}`);
  await writeFile(join(home.root, 'MEMORY.md'), memory);
  const report = await service.call('doctor.run', { version: 'v1' });
  const id = report.entries.find((e) => e.title === 'data-pipeline ingestion')?.id as string;
  return { id, memory, line: memory.split('\n').indexOf(line) + 1 };
}

const promote = (id: string) => service.call('doctor.promote', { version: 'v1', file: 'MEMORY.md', entryId: id });

async function acceptAndApply(proposal: Proposal) {
  await service.call('review.decide', {
    id: proposal.id,
    files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
  });
  return service.call('review.apply', { id: proposal.id });
}

describe('promotion and the secret gate', () => {
  it('refuses to promote an entry holding a secret into AGENTS.md, naming the file, the kind and the entry to redact', async () => {
    const secret = token();
    const planted = await plant(`- CI pushes tags with ${secret} [Task 1]`);
    const refused = promote(planted.id);
    await expect(refused).rejects.toMatchObject({
      kind: 'Invalid',
      path: join(home.pipeline, 'AGENTS.md'),
      message: expect.stringMatching(
        /AGENTS\.md would get a GitHub token \(ghp_\*\*\*\*\) on line \d+\. Memory Studio never writes a secret/,
      ) as unknown,
      hint: expect.stringContaining(`v1 MEMORY.md line`) as unknown,
    });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining(secret) as unknown });
    expect(await readFile(join(home.pipeline, 'AGENTS.md'), 'utf8')).toBe(home.agents);
    expect((await service.call('review.list', {})).proposals).toEqual([]);
  });

  it('promotes the entry once the secret is redacted, and a secret-like line AGENTS.md already had does not block it', async () => {
    const own = `- deploy token: ${randomBytes(6).toString('hex')}-rotated-weekly`;
    await writeFile(join(home.pipeline, 'AGENTS.md'), `${home.agents}${own}\n`);
    const planted = await plant('- CI pushes tags with [REDACTED_SECRET] [Task 1]');
    const proposal = await promote(planted.id);
    await acceptAndApply(proposal);
    const agents = await readFile(join(home.pipeline, 'AGENTS.md'), 'utf8');
    expect(agents).toContain('CI pushes tags with [REDACTED_SECRET]');
    expect(agents).toContain(own);
  });

  it('refuses a revision of the project file that holds a secret when it is stored, naming the line; nothing is kept', async () => {
    const planted = await plant('- CI pushes tags with the deploy key from 1Password [Task 1]');
    const proposal = await promote(planted.id);
    const project = proposal.files.find((f) => f.target === 'project');
    const texts = await service.call('review.fileTexts', { id: proposal.id, ord: project?.ord as number });
    const secret = token();
    const revised = `${texts.proposedContent ?? ''}- and the token is ${secret}\n`;
    const refused = service.call('review.revise', { id: proposal.id, ord: project?.ord as number, content: revised });
    await expect(refused).rejects.toMatchObject({
      kind: 'Invalid',
      message: `The revised AGENTS.md holds a secret at line ${revised.split('\n').length - 1} (github-token); nothing was changed.`,
    });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining(secret) as unknown });
    expect(secretsAtRest(join(temp.dir, 'data'), [{ label: 'revised', secret }])).toEqual([]);
    expect(await readFile(join(home.pipeline, 'AGENTS.md'), 'utf8')).toBe(home.agents);
  });

  it("holds in Apply: a conflict resolved with both sides puts a key under the disk's aws line; nothing is written", async () => {
    // A 40-character random value: alone it is no secret to the engine (an AWS secret needs "aws" or "secret" nearby).
    let value = randomBytes(30).toString('base64');
    while (!mixedAndRandom(value)) value = randomBytes(30).toString('base64');
    const memory = home.memory.replace('## User preferences\n\n', `## User preferences\n\n- CI cache ${value} [Task 1]\n`);
    await writeFile(join(home.root, 'MEMORY.md'), memory);
    const report = await service.call('doctor.run', { version: 'v1' });
    const entry = report.entries.find((e) => e.title === 'data-pipeline ingestion')?.id as string;
    const proposal = await promote(entry);
    // Meanwhile the project's file gains a line of its own where the promotion appends: a conflict on rebase.
    const disk = `${home.agents}- rotate the aws keys monthly\n`;
    await writeFile(join(home.pipeline, 'AGENTS.md'), disk);
    const rebased = await service.call('review.rebase', { id: proposal.id });
    const project = rebased.proposal.files.find((f) => f.target === 'project');
    const conflict = project?.hunks.find((h) => h.kind === 'conflict');
    expect(conflict, JSON.stringify(rebased.files)).toBeDefined();
    await service.call('review.decide', {
      id: proposal.id,
      files: rebased.proposal.files.map((f) => ({
        ord: f.ord,
        decisions: Object.fromEntries(f.hunks.map((h) => [h.id, h.kind === 'conflict' ? ('both' as const) : ('accept' as const)])),
      })),
    });
    // Each text alone passed every scan; together the value sits under "aws": the Apply engine's own gate refuses it.
    await expect(service.call('review.apply', { id: proposal.id })).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringContaining('would get an AWS secret access key') as unknown,
    });
    expect(await readFile(join(home.pipeline, 'AGENTS.md'), 'utf8')).toBe(disk);
    expect(await readFile(join(home.root, 'MEMORY.md'), 'utf8')).toBe(memory);
  });
});
