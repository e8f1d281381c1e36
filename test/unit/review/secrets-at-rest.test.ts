// No secret at rest in proposals and history: stored texts are masked, Apply writes the live lines, revert says what it cannot restore.
import { createHash, randomInt } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_SECRET } from '../../../electron/core/codex/constants';
import { scanSecrets } from '../../../electron/core/lint';
import { openStudioDb } from '../../../electron/core/studio-db';
import { createProposal } from '../../../electron/core/review';
import { everyFile, secretsAtRest } from '../at-rest-bytes';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const token = () => `ghp_${Array.from({ length: 36 }, () => ALNUM[randomInt(ALNUM.length)]).join('')}`;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

let home: GeneratedHomeService;
let dataDir: string;
const planted: Array<{ label: string; secret: string }> = [];

function plant(label: string): string {
  const secret = token();
  planted.push({ label, secret });
  return secret;
}

async function failure(channel: string, input: unknown) {
  const result = await home.service.dispatch(channel, input);
  if (result.ok) throw new Error(`${channel} succeeded`);
  return result.error;
}

async function acceptAll(id: string) {
  const proposal = await home.service.call('review.get', { id });
  await home.service.call('review.decide', {
    id,
    files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
  });
}

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 30, git: false });
  dataDir = join(home.dir, 'data');
});

afterAll(async () => {
  await home.dispose();
});

describe('secrets never rest in the data folder through proposals and history', () => {
  it('keeps a secret on an unchanged line out of every stored text, and Apply and revert keep it on disk as it is', async () => {
    const secret = plant('unchanged line');
    const text = `# Notes\n- one\ntoken: ${secret}\n- two\n- three\n`;
    await writeFile(join(home.root, 'keep.md'), text);
    const edited = text.replace('- two', '- two (edited)');
    const proposal = await home.service.call('review.propose', { version: 'v1', path: 'keep.md', content: edited });
    const texts = await home.service.call('review.fileTexts', { id: proposal.id, ord: 0 });
    expect(texts.baseContent).toContain('token: ghp_****');
    expect(JSON.stringify([texts, proposal])).not.toContain(secret);
    expect(proposal.files[0]?.baseSha256).toBe(sha256(text));
    expect(secretsAtRest(dataDir, planted)).toEqual([]);

    await acceptAll(proposal.id);
    const applied = await home.service.call('review.apply', { id: proposal.id });
    expect(await readFile(join(home.root, 'keep.md'), 'utf8')).toBe(edited);
    const diff = await home.service.call('history.entryDiff', { entryId: applied.entry.id, path: 'keep.md' });
    expect(JSON.stringify(diff)).not.toContain(secret);
    expect([diff.before.sha256, diff.after.sha256]).toEqual([sha256(text), sha256(edited)]);
    expect(applied.entry.files[0]?.secretsRemoved).toBeUndefined();

    const revert = await home.service.call('history.revert', { entryId: applied.entry.id });
    expect(revert.note).not.toContain('cannot restore');
    await acceptAll(revert.id);
    await home.service.call('review.apply', { id: revert.id });
    expect(await readFile(join(home.root, 'keep.md'), 'utf8')).toBe(text);
    expect(secretsAtRest(dataDir, planted)).toEqual([]);
  });

  it('keeps the secrets of a big file out of its stored proposal and history, scanned and stored on the pool', async () => {
    // Past the pool's lines (256 KB to scan a text there, 1 MiB to store the proposal there): 1.4 MB, a secret inside.
    const secret = plant('big file');
    const filler = Array.from({ length: 16_000 }, (_, i) => `- memory line ${i}: keep the deploy checklist short and current`);
    filler.splice(8_000, 0, `token: ${secret}`);
    const text = `${filler.join('\n')}\n`;
    await writeFile(join(home.root, 'big.md'), text);
    const edited = text.replace('- memory line 12000:', '- memory line 12000 (edited):');
    const proposal = await home.service.call('review.propose', { version: 'v1', path: 'big.md', content: edited });
    expect(proposal.files[0]?.hunks).toHaveLength(1);
    await acceptAll(proposal.id);
    const applied = await home.service.call('review.apply', { id: proposal.id });
    expect(await readFile(join(home.root, 'big.md'), 'utf8')).toBe(edited);
    const diff = await home.service.call('history.entryDiff', { entryId: applied.entry.id, path: 'big.md' });
    expect(JSON.stringify(diff)).not.toContain(secret);
    expect([diff.before.sha256, diff.after.sha256]).toEqual([sha256(text), sha256(edited)]);
    expect(secretsAtRest(dataDir, planted)).toEqual([]);
  });

  it('refuses a proposal, note, revision or resolution that would carry a secret, naming the line; nothing is stored', async () => {
    const secret = plant('refused');
    const text = `# Refused\n- one\ntoken: ${secret}\n- two\n`;
    await writeFile(join(home.root, 'refuse.md'), text);
    const before = (await home.service.call('review.list', {})).proposals.length;
    const fresh = plant('added');
    const cases: Array<[string, string, string]> = [
      ['adds a secret', text.replace('- two', `- two\nkey: ${fresh}`), 'line 5'],
      ['rotates the token', text.replace(secret, fresh), 'line 3'],
      ['edits the secret line', text.replace(`token: ${secret}`, `token: ${secret} # the CI one`), 'line 3'],
      ['moves the secret line', `# Refused\n- one\n- two\ntoken: ${secret}\n`, 'line 4'],
    ];
    for (const [what, content, line] of cases) {
      const error = await failure('review.propose', { version: 'v1', path: 'refuse.md', content });
      expect(error.kind, what).toBe('Invalid');
      expect(error.message, what).toContain(`refuse.md: ${line} of the proposed text holds a secret`);
    }
    const note = await failure('review.note', { version: 'v1', slug: 'with-key', text: `deploy key ${fresh}\n` });
    expect(note.message).toContain('holds a secret');
    expect((await home.service.call('review.list', {})).proposals.length).toBe(before);

    const ok = await home.service.call('review.propose', { version: 'v1', path: 'refuse.md', content: text.replace('- one', '- uno') });
    const revised = await failure('review.revise', { id: ok.id, ord: 0, content: `x ${fresh}\n` });
    expect(revised.message).toContain('The revised refuse.md holds a secret at line 1');
    await home.service.call('review.reject', { id: ok.id });
    expect(secretsAtRest(dataDir, planted)).toEqual([]);
  });

  it('after a redaction is applied the token is nowhere in the data folder, and its revert says it cannot restore it', async () => {
    const secret = plant('redacted');
    const text = `# Keys\n- deploy with the CI token\ntoken: ${secret}\n- then tag\n`;
    await writeFile(join(home.root, 'redact-me.md'), text);
    const secrets = scanSecrets(text).map((f) => ({ rule: f.rule, line: f.line }));
    const proposal = await home.service.call('review.redact', { version: 'v1', path: 'redact-me.md', secrets });
    await acceptAll(proposal.id);
    const applied = await home.service.call('review.apply', { id: proposal.id });
    expect(await readFile(join(home.root, 'redact-me.md'), 'utf8')).toBe(text.replace(secret, REDACTED_SECRET));
    expect(applied.entry.files[0]?.secretsRemoved).toBe(1);
    const texts = await home.service.call('review.fileTexts', { id: proposal.id, ord: 0 });
    const diff = await home.service.call('history.entryDiff', { entryId: applied.entry.id, path: 'redact-me.md' });
    expect(JSON.stringify([texts, diff])).not.toContain(secret);
    expect(diff.before.content).toContain('token: ghp_****');
    expect(secretsAtRest(dataDir, planted)).toEqual([]);

    const revert = await home.service.call('history.revert', { entryId: applied.entry.id });
    expect(revert.note).toContain('It cannot restore the secret that change removed (redact-me.md)');
    const back = await home.service.call('review.fileTexts', { id: revert.id, ord: 0 });
    expect(back.proposedContent).toBe(text.replace(secret, 'ghp_****'));
    await home.service.call('review.reject', { id: revert.id });
  });

  it('a rebase over an outside edit keeps the untouched secrets, and a hand-written resolution may not hold one', async () => {
    const secret = plant('rebased');
    const text = `# Rebase\n- one\n- two\ntoken: ${secret}\n- three\n- four\n- five\n- six\n- seven\n`;
    await writeFile(join(home.root, 'rebase.md'), text);
    const proposal = await home.service.call('review.propose', {
      version: 'v1',
      path: 'rebase.md',
      content: text.replace('- one', '- uno'),
    });
    // Codex adds a key of its own meanwhile: the rebase keeps it masked in the DB, and Apply writes it from the disk.
    const outside = text.replace('- seven', `- seven (Codex)\nnew: ${plant('added outside')}`);
    await writeFile(join(home.root, 'rebase.md'), outside);
    await acceptAll(proposal.id);
    expect((await failure('review.apply', { id: proposal.id })).kind).toBe('Conflict');
    const rebased = await home.service.call('review.rebase', { id: proposal.id });
    expect(rebased.files[0]?.outcome).toBe('merged');
    expect(secretsAtRest(dataDir, planted)).toEqual([]);
    await acceptAll(proposal.id);
    await home.service.call('review.apply', { id: proposal.id });
    expect(await readFile(join(home.root, 'rebase.md'), 'utf8')).toBe(outside.replace('- one', '- uno'));

    const current = outside.replace('- one', '- uno');
    const conflicted = await home.service.call('review.propose', {
      version: 'v1',
      path: 'rebase.md',
      content: current.replace('- uno', '- one again'),
    });
    await writeFile(join(home.root, 'rebase.md'), current.replace('- uno', '- eins'));
    const merged = await home.service.call('review.rebase', { id: conflicted.id });
    const hunk = merged.proposal.files[0]?.hunks.find((h) => h.kind === 'conflict');
    expect(merged.files[0]?.outcome, JSON.stringify(merged.files)).toBe('conflicts');
    const edit = await failure('review.decide', {
      id: conflicted.id,
      files: [{ ord: 0, decisions: { [hunk?.id ?? '']: 'edit' }, edits: { [hunk?.id ?? '']: `- key ${plant('edit')}\n` } }],
    });
    expect(edit.message).toContain('holds a secret at line 1');
    await home.service.call('review.reject', { id: conflicted.id });
    expect(secretsAtRest(dataDir, planted)).toEqual([]);
  });

  it('keeps a deleted file in the trash masked and private, and the entry says the secret cannot come back', async () => {
    const secret = plant('deleted');
    await writeFile(join(home.root, 'gone.md'), `# Gone\ntoken: ${secret}\n`);
    const studio = openStudioDb(dataDir);
    const proposal = await createProposal(studio, {
      title: 'Delete gone.md',
      source: 'edit',
      files: [{ version: 'v1', root: home.root, relPath: 'gone.md', proposedContent: null }],
    });
    studio.close();
    await acceptAll(proposal.id);
    const applied = await home.service.call('review.apply', { id: proposal.id });
    expect(applied.entry.files[0]?.secretsRemoved).toBe(1);
    const found = secretsAtRest(dataDir, planted);
    expect(found).toEqual([]);
    const trash = everyFile(join(dataDir, 'trash')).filter((f) => f.endsWith('gone.md'));
    expect(trash).toHaveLength(1);
    expect(await readFile(trash[0] as string, 'utf8')).toBe('# Gone\ntoken: ghp_****\n');
  });
});
