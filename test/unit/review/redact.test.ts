// review.redact through the core service: core rescans the file on disk and proposes only the secret spans, endings kept.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactFindings } from '../../../electron/core/handlers/redact-handler';
import { REDACTED_SECRET } from '../../../electron/core/codex/constants';
import { scanSecrets } from '../../../electron/core/lint';
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
