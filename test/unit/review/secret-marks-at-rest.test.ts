// Review marks survive masking: a stored proposal's texts hold no secret, yet its hunks, block outline, revisions,
// rebases and history diffs still mark each line that held one (kind only), from what at-rest recorded when it masked.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSecrets } from '../../../electron/core/lint';
import { OFF_THREAD_CHARS } from '../../../electron/core/review/hunks-off-thread';
import type { Hunk } from '../../../shared/review';
import { secretsAtRest } from '../at-rest-bytes';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

// Assembled at run time: the repository holds no token-shaped literal.
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const awsKeyId = () => `AKIA${Array.from(randomBytes(16), (b) => B32[b % 32]).join('')}`;
const githubToken = () => `ghp_${randomBytes(27).toString('base64').replace(/[+/=]/g, 'Q').slice(0, 36)}`;

let home: GeneratedHomeService;
let original: string;
const planted: Array<{ label: string; secret: string }> = [];

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 31, git: false });
  original = await readFile(join(home.root, 'MEMORY.md'), 'utf8');
});
afterAll(async () => {
  await home.dispose();
});

/** Every marked line of the hunks as `<sign><kind>`: what the review shows beside the line. */
const marks = (hunks: readonly Hunk[]) =>
  hunks.flatMap((h) => (h.secrets ?? []).map((s) => `${(h.lines[s.index] as string)[0]}${s.label}`));

async function acceptAll(id: string) {
  const proposal = await home.service.call('review.get', { id });
  await home.service.call('review.decide', {
    id,
    files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
  });
}

/** MEMORY.md with a task group of the person's own holding an AWS key id and, on the next line, a GitHub token. */
async function plantGroup(): Promise<{ key: string; token: string; text: string }> {
  const key = awsKeyId();
  const token = githubToken();
  planted.push({ label: 'aws key id', secret: key }, { label: 'github token', secret: token });
  const group = [
    '# Task Group: infra deploys',
    '',
    'scope: deploys of the infra repo',
    'applies_to: cwd=/src/infra; reuse_rule=same repo',
    '',
    '## Reusable knowledge',
    '',
    '- deploys go through the staging bucket first',
    `- staging uses key ${key}`,
    `- CI pushes tags with ${token}`,
    '- rotate monthly',
    '',
  ].join('\n');
  const text = `${group}\n${original}`;
  await writeFile(join(home.root, 'MEMORY.md'), text);
  return { key, token, text };
}

describe('review marks from what at-rest recorded', () => {
  it('marks a redaction and a kept secret in context, in the outline, after a revision and after a rebase', async () => {
    const { key, token, text } = await plantGroup();
    const finding = scanSecrets(text).find((f) => f.rule === 'secrets/aws-access-key-id');
    const proposal = await home.service.call('review.redact', {
      version: 'v1',
      path: 'MEMORY.md',
      secrets: [{ rule: 'secrets/aws-access-key-id', line: finding?.line as number }],
    });
    const file = proposal.files[0];
    // The removed key line and the token kept beside it: both masked in the hunk, both marked with their kind.
    expect(marks(file?.hunks ?? [])).toEqual(['-an AWS access key id', ' a GitHub token']);
    const marked = file?.hunks.find((h) => (h.secrets ?? []).length > 0) as Hunk;
    expect(marked.lines).toContain(`-- staging uses key ${key.slice(0, 4)}****`);
    const blocks = await home.service.call('review.blocks', { id: proposal.id, ord: 0 });
    expect(blocks.blocks.find((b) => b.hunkIds.includes(marked.id))?.title).toBe('infra deploys');

    // Edit result over the masked text: the kept token's line is still marked, and so is the removed key.
    const texts = await home.service.call('review.fileTexts', { id: proposal.id, ord: 0 });
    const revised = await home.service.call('review.revise', {
      id: proposal.id,
      ord: 0,
      content: (texts.proposedContent as string).replace('- rotate monthly', '- rotate monthly, on the 1st'),
    });
    expect(marks(revised.files[0]?.hunks ?? [])).toEqual(['-an AWS access key id', ' a GitHub token']);

    // Codex edits the group meanwhile, adding a token of its own: the rebase keeps every mark (the removed line's now
    // from the disk's masked text), and Codex's line, in the new base, is no change of the proposal's.
    const outside = githubToken();
    planted.push({ label: 'outside token', secret: outside });
    const codex = text.replace('reuse_rule=same repo\n', `reuse_rule=same repo\n- Codex pushes with ${outside}\n`);
    await writeFile(join(home.root, 'MEMORY.md'), codex);
    const rebased = await home.service.call('review.rebase', { id: proposal.id });
    expect(rebased.files[0]?.outcome).toBe('merged');
    expect(marks(rebased.proposal.files[0]?.hunks ?? [])).toEqual(['-an AWS access key id', ' a GitHub token']);

    expect(JSON.stringify([proposal, blocks, revised, rebased])).not.toMatch(new RegExp(`${key}|${token}|${outside}`));
    // The kept token is context, so Apply writes it from the disk: the whole reviewed change lands, both tokens kept.
    await acceptAll(proposal.id);
    await home.service.call('review.apply', { id: proposal.id });
    expect(await readFile(join(home.root, 'MEMORY.md'), 'utf8')).toBe(
      codex.replace(key, '[REDACTED_SECRET]').replace('- rotate monthly', '- rotate monthly, on the 1st'),
    );
    expect(secretsAtRest(join(home.dir, 'data'), planted)).toEqual([]);
  });

  it('marks a large file too, whose hunks are made on the worker pool (the lines travel with the task)', async () => {
    const token = githubToken();
    planted.push({ label: 'large file token', secret: token });
    const filler = Array.from({ length: 4000 }, (_, i) => `- note ${i}: the build, the tests and the release flow\n`).join('');
    const text = `# Large\n${filler}- CI pushes tags with ${token}\n- rotate monthly\n${filler}`;
    expect(text.length).toBeGreaterThan(OFF_THREAD_CHARS);
    await writeFile(join(home.root, 'large.md'), text);
    const proposal = await home.service.call('review.propose', {
      version: 'v1',
      path: 'large.md',
      content: text.replace('- rotate monthly', '- rotate monthly, on the 1st'),
    });
    expect(marks(proposal.files[0]?.hunks ?? [])).toEqual([' a GitHub token']);
    await home.service.call('review.reject', { id: proposal.id });
  });

  it("marks the history entry's diff of the applied redaction, and a revision that copies a masked line adds it alone", async () => {
    const { key, text } = await plantGroup();
    const proposal = await home.service.call('review.redact', { version: 'v1', path: 'MEMORY.md', all: 'file' });
    await acceptAll(proposal.id);
    const applied = await home.service.call('review.apply', { id: proposal.id });
    const diff = await home.service.call('history.entryDiff', { entryId: applied.entry.id, path: 'MEMORY.md' });
    expect(marks(diff.hunks).filter((m) => m.startsWith('-'))).toEqual(['-an AWS access key id', '-a GitHub token']);
    expect(JSON.stringify(diff)).not.toContain(key);

    // A person's revision copying a masked line: it is a line Memory Studio could not write, cut out and marked.
    await writeFile(join(home.root, 'MEMORY.md'), text);
    const edit = await home.service.call('review.propose', {
      version: 'v1',
      path: 'MEMORY.md',
      content: text.replace('- rotate monthly', '- rotate monthly, on the 1st'),
    });
    const stored = (await home.service.call('review.fileTexts', { id: edit.id, ord: 0 })).proposedContent as string;
    const keyLine = `- staging uses key ${key.slice(0, 4)}****\n`;
    const copy = await home.service.call('review.revise', {
      id: edit.id,
      ord: 0,
      content: stored.replace('- rotate monthly, on the 1st\n', `- rotate monthly, on the 1st\n${keyLine}`),
    });
    const alone = copy.files[0]?.hunks.find((h) => h.lines.includes(`+${keyLine.trimEnd()}`)) as Hunk;
    expect(alone.lines.filter((l) => l.startsWith('+'))).toEqual([`+${keyLine.trimEnd()}`]);
    expect(marks([alone]).filter((m) => m.startsWith('+'))).toEqual(['+an AWS access key id']);
    await home.service.call('review.reject', { id: edit.id });
    expect(secretsAtRest(join(home.dir, 'data'), planted)).toEqual([]);
  });
});
