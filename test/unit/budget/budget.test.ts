// The budget report: byte and line mapping into the original file, fragments, tokens, and real generated homes.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetForRoot, computeBudget, splitFragments } from '../../../electron/core/budget';
import { maskedInjectedText } from '../../../electron/core/budget/budget';
import { SUMMARY_TOKEN_LIMIT, SUMMARY_TOKEN_LIMIT_LEGACY, V2_FRAGMENT_MAX_BYTES } from '../../../electron/core/codex/constants';
import { StudioFailure } from '../../../electron/core/platform/errors';
import { BudgetReportSchema, budgetHeadline, removedLinesBanner } from '../../../shared/budget';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

const NOW = new Date('2026-03-05T12:00:00Z');
const M = (n: number) => `\u2026${n} tokens truncated\u2026`;

describe('computeBudget', () => {
  it('keeps a small summary whole and says so', () => {
    const r = BudgetReportSchema.parse(computeBudget('v1\n## User Profile\nDana.\n', { version: 'v1' }));
    expect(r).toMatchObject({
      limitTokens: SUMMARY_TOKEN_LIMIT,
      limitSource: 'default',
      limitBytes: 10_000,
      summaryBytes: 25,
      trimmedBytes: 24,
      leadingTrimBytes: 0,
      estimatedTokens: 6,
      truncated: false,
      injectedText: 'v1\n## User Profile\nDana.',
      removed: null,
      markerText: null,
      fragments: [{ index: 0, startByte: 0, endByte: 24, bytes: 24 }],
    });
    expect(r.o200kTokens).toBeGreaterThan(0);
    expect(r.injectedO200kTokens).toBe(r.o200kTokens);
  });

  it('injects nothing for an empty or blank summary', () => {
    for (const text of ['', ' \n\t\u3000\n']) {
      const r = computeBudget(text, { version: 'v2' });
      expect(r).toMatchObject({
        truncated: false,
        injectedText: '',
        injectedBytes: 0,
        estimatedTokens: 0,
        o200kTokens: 0,
        fragments: [],
        removed: null,
      });
      expect(r.notes.join(' ')).toMatch(/injects no memory/);
    }
  });

  it('maps the cut to bytes and lines of the ORIGINAL file, after the leading trim', () => {
    // 2 leading blank lines (2 bytes), then 6 lines of 9 bytes ("line N..\n"); limit 4 tokens = 16 bytes, halves of 8.
    const body = ['line 1..', 'line 2..', 'line 3..', 'line 4..', 'line 5..', 'line 6..'].join('\n');
    const text = `\n\n${body}\n\n`;
    const r = computeBudget(text, { version: 'v1', limitTokens: 4 });
    const trimmedLen = body.length; // 53 ASCII bytes
    expect(r).toMatchObject({ leadingTrimBytes: 2, trimmedBytes: trimmedLen, truncated: true, limitSource: 'override' });
    // Head: bytes 0..8 of the trimmed text = "line 1.." (file bytes 2..10); tail starts at 53 - 8 = 45 = "line 6.." (file 47).
    expect(r.injectedText).toBe(`line 1..${M(Math.ceil((trimmedLen - 16) / 4))}line 6..`);
    expect(r.removed).toEqual({ startByte: 10, endByte: 47, startLine: 3, endLine: 7, startLinePartial: true, endLinePartial: false });
    expect(text.slice(r.removed?.startByte, r.removed?.endByte)).toBe('\nline 2..\nline 3..\nline 4..\nline 5..\n');
    expect(removedLinesBanner(r.removed!)).toBe('the next session does not see lines 3\u20137 (it still sees the start of line 3)');
  });

  it('marks both ends partial when the cuts fall inside lines, with multibyte text and CRLF', () => {
    const text = 'v1\r\nAé€😀 one two three\r\nfour five six seven\r\neight nine ten 😀€éZ\r\n';
    const r = computeBudget(text, { version: 'v1', limitTokens: 5 }); // 20 bytes: 10 + 10
    const utf8 = Buffer.from(text, 'utf8');
    expect(r.truncated).toBe(true);
    const { startByte, endByte } = r.removed!;
    // The head stops on a char boundary at or before byte 10, the tail starts on one at or after len - 10.
    expect(startByte).toBeLessThanOrEqual(10);
    expect(endByte).toBeGreaterThanOrEqual(r.trimmedBytes - 10);
    const head = utf8.subarray(0, startByte).toString('utf8');
    const tail = utf8.subarray(endByte, r.trimmedBytes).toString('utf8');
    expect(r.injectedText).toBe(`${head}${r.markerText}${tail}`);
    expect(head).toBe('v1\r\nAé€'); // v1 CR LF = bytes 0-3, A 4, é 5-6, € 7-9: ends exactly at the 10-byte half
    expect(tail).toBe('😀€éZ'); // 4 + 3 + 2 + 1 = 10 bytes
    expect(r.removed).toMatchObject({ startLine: 2, endLine: 4, startLinePartial: true, endLinePartial: true });
  });

  it('keeps a BOM, as Rust does, and counts it', () => {
    const r = computeBudget('\uFEFFv1\n', { version: 'v1' });
    expect(r).toMatchObject({ summaryBytes: 6, trimmedBytes: 5, injectedText: '\uFEFFv1' });
    expect(r.notes.join(' ')).toMatch(/byte-order mark/);
  });

  it('rejects a negative or fractional limit', () => {
    expect(() => computeBudget('x', { version: 'v1', limitTokens: -1 })).toThrow(StudioFailure);
    expect(() => computeBudget('x', { version: 'v1', limitTokens: 1.5 })).toThrow(/whole number/);
  });

  it('labels a limit from the config', () => {
    expect(computeBudget('x', { version: 'v1', limitTokens: 5000, limitSource: 'config' }).limitSource).toBe('config');
  });
});

describe('v2 fragments', () => {
  it('splits on char boundaries into pieces of at most 8,900 bytes, losing nothing', () => {
    const text = `${'a'.repeat(8_899)}€${'b'.repeat(1_000)}`; // € would straddle 8,900
    const pieces = splitFragments(Buffer.from(text, 'utf8'));
    expect(pieces).toEqual([
      { index: 0, startByte: 0, endByte: 8_899, bytes: 8_899 },
      { index: 1, startByte: 8_899, endByte: 9_902, bytes: 1_003 },
    ]);
    expect(splitFragments(Buffer.from('x'.repeat(V2_FRAGMENT_MAX_BYTES), 'utf8'))).toHaveLength(1);
  });

  it('a 9,500-byte v2 summary is kept whole by the budget and sent in two fragments, with the template caveat', () => {
    const r = computeBudget(`v1\n${'x'.repeat(9_496)}\n`, { version: 'v2' });
    expect(r.truncated).toBe(false);
    expect(r.fragments.map((f) => f.bytes)).toEqual([8_900, 599]);
    expect(r.notes.join(' ')).toMatch(/read_path_v2/);
  });
});

describe('generated homes', () => {
  let home: { dir: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    home = await makeTempDir();
    await generateHome({ dir: join(home.dir, 'heavy'), scale: 'heavy', version: 'v1', now: NOW, git: false });
    await generateHome({ dir: join(home.dir, 'small'), scale: 'small', version: 'both', now: NOW, git: false });
  }, 300_000);
  afterAll(() => home.cleanup());

  it('cuts the middle of the heavy v1 summary exactly as Codex does', async () => {
    const root = join(home.dir, 'heavy', 'memories');
    const original = await readFile(join(root, 'memory_summary.md'), 'utf8');
    const utf8 = Buffer.from(original, 'utf8');
    expect(utf8.length).toBeGreaterThan(10_000);
    const r = BudgetReportSchema.parse(await budgetForRoot(root, 'v1'));
    const trimmed = original.trim(); // no BOM here, so JS trim equals Rust trim
    const len = Buffer.byteLength(trimmed, 'utf8');
    expect(r).toMatchObject({
      truncated: true,
      trimmedBytes: len,
      estimatedTokens: Math.ceil(len / 4),
      markerText: M(Math.ceil((len - 10_000) / 4)),
    });
    const { startByte, endByte } = r.removed!;
    expect(startByte).toBeGreaterThan(5_000 - 4);
    expect(startByte).toBeLessThanOrEqual(5_000);
    expect(endByte).toBeGreaterThanOrEqual(len - 5_000);
    expect(endByte).toBeLessThan(len - 5_000 + 4);
    expect(r.injectedText).toBe(utf8.subarray(0, startByte).toString('utf8') + r.markerText + utf8.subarray(endByte, len).toString('utf8'));
    expect(r.injectedText.startsWith('v1\n')).toBe(true);
    expect(r.o200kTokens).toBeGreaterThan(r.injectedO200kTokens);
    expect(removedLinesBanner(r.removed!)).toMatch(/^the next session does not see lines \d+–\d+/);
  });

  it('keeps the heavy summary whole under the older 5,000-token budget', async () => {
    const r = await budgetForRoot(join(home.dir, 'heavy', 'memories'), 'v1', SUMMARY_TOKEN_LIMIT_LEGACY);
    expect(r).toMatchObject({ truncated: false, limitTokens: 5_000, limitSource: 'override', removed: null });
  });

  it('keeps the small v1 and v2 summaries whole', async () => {
    for (const [dir, version] of [
      ['memories', 'v1'],
      ['memories_v2', 'v2'],
    ] as const) {
      const r = await budgetForRoot(join(home.dir, 'small', dir), version);
      expect(r.truncated).toBe(false);
      expect(r.injectedText.length).toBeGreaterThan(0);
    }
  });

  it('reports "nothing injected" for a root without a summary, but fails for a missing root', async () => {
    const root = join(home.dir, 'bare');
    await mkdir(root, { recursive: true });
    const r = await budgetForRoot(root, 'v2');
    expect(r).toMatchObject({ summaryExists: false, injectedText: '', fragments: [] });
    await expect(budgetForRoot(join(home.dir, 'nope'), 'v1')).rejects.toMatchObject({ kind: 'NotFound' });
    await writeFile(join(root, 'memory_summary.md'), '\n\n');
    expect((await budgetForRoot(root, 'v2')).summaryExists).toBe(true);
    await rm(root, { recursive: true });
  });
});

describe('a zero-token limit', () => {
  it('leaves only the marker and removes the whole trimmed text, with no partial lines', () => {
    const r = computeBudget('  v1\nabc  ', { version: 'v1', limitTokens: 0 });
    expect(r).toMatchObject({ truncated: true, injectedText: M(2), markerText: M(2), fragments: [{ bytes: Buffer.byteLength(M(2)) }] });
    expect(r.removed).toEqual({ startByte: 2, endByte: 8, startLine: 1, endLine: 2, startLinePartial: false, endLinePartial: false });
  });
});

describe('budgetHeadline', () => {
  it('says "fits" by Codex’s own rule, and what Codex cuts when it does not, with o200k only as a second figure', () => {
    const small = computeBudget('v1\n## User Profile\nshort\n', { version: 'v1' });
    expect(budgetHeadline(small)).toMatchObject({
      fits: true,
      headline: expect.stringMatching(/^Fits: the next session sees all of it, \d+ of 2,500 tokens by Codex's estimate$/),
    });
    const big = computeBudget(
      `v1\n${Array.from({ length: 400 }, (_, i) => `- a long enough line number ${i} of the summary to go over budget`).join('\n')}\n`,
      { version: 'v1' },
    );
    const headline = budgetHeadline(big);
    expect(headline.fits).toBe(false);
    const lines = (big.removed?.endLine ?? 0) - (big.removed?.startLine ?? 0) + 1;
    expect(headline.headline).toBe(
      `Codex cuts ${lines} lines (${big.removed?.startLine}–${big.removed?.endLine}): ${big.estimatedTokens.toLocaleString('en-US')} tokens by Codex's estimate, over the 2,500 limit`,
    );
    expect(headline.detail).toContain(`the next session gets ${Math.ceil(big.injectedBytes / 4).toLocaleString('en-US')} tokens`);
    expect(headline.detail).toContain('Codex decides by its estimate, not by that count');
    expect(budgetHeadline(computeBudget('', { version: 'v2' })).headline).toMatch(/^Nothing to inject/);
  });
});

describe('maskedInjectedText', () => {
  // 1,600 characters of key body that no line of filler shares (a counter spelled out in base64 digits).
  const body = Array.from({ length: 25 }, (_, i) =>
    Buffer.from(`memory-studio-key-line-${String(i).padStart(3, '0')}-`.repeat(2))
      .toString('base64')
      .slice(0, 64),
  ).join('\n');
  const key = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`;
  const head = Array.from({ length: 6 }, (_, i) => `- head line ${i}: nothing secret here at all, just a note.`).join('\n');
  const tail = Array.from({ length: 4 }, (_, i) => `- tail line ${i}: nothing secret here either.`).join('\n');
  const summary = `${head}\n${key}\n${tail}\n`;
  const options = { version: 'v1' as const, limitTokens: 200 };
  const pieces = (text: string) =>
    body
      .replaceAll('\n', '')
      .match(/.{12}/g)
      ?.filter((p) => text.includes(p)) ?? [];

  it('a cut through a private key leaves neither its head nor its tail in clear', () => {
    const report = computeBudget(summary, options);
    expect(report.truncated).toBe(true);
    // The injected text keeps the start of the key and its end, which alone no pattern recognises.
    expect(report.injectedText).toContain('-----BEGIN PRIVATE KEY-----');
    expect(report.injectedText).toContain('-----END PRIVATE KEY-----');
    expect(pieces(report.injectedText).length).toBeGreaterThan(0);
    const masked = maskedInjectedText(summary, options);
    expect(pieces(masked)).toEqual([]);
    expect(masked).toContain(report.markerText as string);
    expect(masked.startsWith(head)).toBe(true);
    expect(masked.endsWith(`-----END PRIVATE KEY-----\n${tail}`)).toBe(true);
  });

  it('an uncut summary is masked as a whole and otherwise unchanged', () => {
    const whole = { version: 'v1' as const, limitTokens: 10_000 };
    const masked = maskedInjectedText(summary, whole);
    expect(pieces(masked)).toEqual([]);
    expect(masked.startsWith(head)).toBe(true);
    expect(maskedInjectedText(`${head}\n`, whole)).toBe(computeBudget(`${head}\n`, whole).injectedText);
  });
});
