// review.redact through the core service: core rescans the file on disk and proposes only the secret spans, endings kept.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactFindings } from '../../../electron/core/handlers/redact-handler';
import { REDACTED_SECRET } from '../../../electron/core/codex/constants';
import { scanSecrets } from '../../../electron/core/lint';
import { scanRootSecrets } from '../../../electron/core/lint/scan-root';
import { secretsAtRest } from '../at-rest-bytes';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

const token = `ghp_${'aB3dE6gH9j'.repeat(4)}`;
const second = `ghp_${'Zy8Xw7Vu6T'.repeat(4)}`;
let home: GeneratedHomeService;

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 5, git: false });
});

afterAll(async () => {
  await home.dispose();
});

/** Writes a note with the given text into the v1 root and returns the secret findings the scanner reports for it. */
async function note(name: string, text: string) {
  await writeFile(join(home.root, name), text);
  return scanSecrets(text).map((f) => ({ rule: f.rule, line: f.line, startColumn: f.startColumn }));
}

describe('review.redact', () => {
  it('replaces only the secret span of a file with mixed line endings (a one-line hunk, every ending kept)', async () => {
    const text = `# Notes\r\n${Array.from({ length: 30 }, (_, i) => `- note ${i + 1}\n`).join('')}token: ${token}\r\nlast line`;
    const secrets = await note('mixed.md', text);
    expect(secrets).toHaveLength(1);
    const proposal = await home.service.call('review.redact', { version: 'v1', path: 'mixed.md', secrets });
    expect(proposal.title).toBe('Redact secret in mixed.md');
    const file = proposal.files[0];
    expect(file?.hunks.map((h) => [h.added, h.removed])).toEqual([[1, 1]]);
    const { proposedContent } = await home.service.call('review.fileTexts', { id: proposal.id, ord: 0 });
    expect(proposedContent).toBe(text.replace(token, REDACTED_SECRET));
    // Nothing is written before the proposal is applied.
    expect(await readFile(join(home.root, 'mixed.md'), 'utf8')).toBe(text);
  });

  it('redacts several secrets at once and keeps a byte-order mark and CR-only endings', () => {
    const text = `\uFEFFa: ${token}\rb\rc: ${second}\r`;
    const secrets = scanSecrets(text).map((f) => ({ rule: f.rule, line: f.line }));
    expect(secrets).toHaveLength(2);
    expect(redactFindings('x.md', text, secrets)).toEqual({ content: `\uFEFFa: ${REDACTED_SECRET}\rb\rc: ${REDACTED_SECRET}\r`, count: 2 });
  });

  it('refuses, naming the file and line, when a secret is no longer where the request says', async () => {
    const secrets = await note('moved.md', `one\ntoken: ${token}\n`);
    await writeFile(join(home.root, 'moved.md'), `one\ntwo\ntoken: ${token}\n`);
    const result = await home.service.dispatch('review.redact', { version: 'v1', path: 'moved.md', secrets });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('Conflict');
    expect(result.error.message).toContain('moved.md no longer has the secret at line 2');
  });

  it('never edits text that is not a secret the scanner finds (a request cannot pick arbitrary spans)', async () => {
    await note('plain.md', 'just words\n');
    const result = await home.service.dispatch('review.redact', {
      version: 'v1',
      path: 'plain.md',
      secrets: [{ rule: 'secrets/github-pat', line: 1 }],
    });
    expect(result.ok).toBe(false);
    const invalid = await home.service.dispatch('review.redact', {
      version: 'v1',
      path: 'plain.md',
      secrets: [{ rule: 'codex/summary', line: 1 }],
    });
    expect(invalid.ok && 'accepted').toBe(false);
  });
});

describe('review.redact with all: every secret of a file or of the whole root as one proposal', () => {
  let other: GeneratedHomeService;
  const third = `ghp_${'Pq7Rs8Tu9V'.repeat(4)}`;
  const planted = [token, second, third].map((secret, i) => ({ label: `secret ${i + 1}`, secret }));

  beforeAll(async () => {
    other = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 6, git: false });
  });

  afterAll(async () => {
    await other.dispose();
  });

  it("proposes one file's secrets, or every file's of the root, in one proposal that leaves no secret anywhere once applied", async () => {
    expect((await scanRootSecrets(other.root, 'v1')).findings).toEqual([]);
    await writeFile(join(other.root, 'a.md'), `# A\nfirst: ${token}\n- between\nsecond: ${second}\n`);
    await writeFile(join(other.root, 'b.md'), `# B\r\nthird: ${third}\r\n`);
    await writeFile(join(other.root, 'plain.md'), '# Plain\n');

    const one = await other.service.call('review.redact', { version: 'v1', path: 'a.md', all: 'file' });
    expect(one.title).toBe('Redact 2 secrets in a.md');
    await other.service.call('review.reject', { id: one.id });
    const none = await other.service.dispatch('review.redact', { version: 'v1', path: 'plain.md', all: 'file' });
    expect(none.ok || none.error.message).toBe('plain.md holds no secret the scanner finds; nothing was proposed.');

    const all = await other.service.call('review.redact', { version: 'v1', all: 'root' });
    expect(all.title).toBe('Redact 3 secrets in 2 files of v1');
    expect(all.files.map((f) => f.relPath).sort()).toEqual(['a.md', 'b.md']);
    await other.service.call('review.decide', {
      id: all.id,
      files: all.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await other.service.call('review.apply', { id: all.id });
    expect(await readFile(join(other.root, 'b.md'), 'utf8')).toBe(`# B\r\nthird: ${REDACTED_SECRET}\r\n`);
    expect((await scanRootSecrets(other.root, 'v1')).findings).toEqual([]);
    expect(secretsAtRest(join(other.dir, 'data'), planted)).toEqual([]);
    const again = await other.service.dispatch('review.redact', { version: 'v1', all: 'root' });
    expect(again.ok || again.error.message).toBe('No Markdown file of the v1 memory folder holds a secret; nothing was proposed.');
  });
});
