// Codex's token truncation, ported: hand-computed cases at the cut points, multibyte characters, trimming.
import { describe, expect, it } from 'vitest';
import { rustTrim, rustTrimRange } from '../../../electron/core/codex/rust-str';
import {
  approxTokensFromByteCount,
  splitBudget,
  truncateMiddleWithTokenBudget,
  truncateText,
} from '../../../electron/core/budget/truncate';

const M = (n: number) => `\u2026${n} tokens truncated\u2026`;
const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('approx token count', () => {
  it('is ceil(bytes / 4)', () => {
    expect([0, 1, 3, 4, 5, 8, 9].map(approxTokensFromByteCount)).toEqual([0, 1, 1, 1, 2, 2, 3]);
  });
});

// Limit 2 tokens = 8 bytes: the head keeps chars ending within bytes 0..4, the tail starts at or after len - 4.
describe('truncateText with a 2-token budget (8 bytes, halves of 4)', () => {
  it.each([
    ['7 bytes: under the budget, kept whole', 'abcdefg', 'abcdefg'],
    ['8 bytes: at the budget, kept whole', 'abcdefgh', 'abcdefgh'],
    ['9 bytes: one over, 1 byte cut, N = ceil(1/4) = 1', 'abcdefghi', `abcd${M(1)}fghi`],
    ['12 bytes: N = ceil(4/4) = 1', 'abcdefghijkl', `abcd${M(1)}ijkl`],
    ['13 bytes: N = ceil(5/4) = 2', 'abcdefghijklm', `abcd${M(2)}jklm`],
  ])('%s', (_label, input, expected) => {
    expect(truncateText(input, 2)).toBe(expected);
  });

  it('a 3-byte char straddling the head cut is dropped whole (a0 b1 c2 €3-5 …)', () => {
    // 13 bytes: head: € ends at 6 > 4, so the head is "abc" (3 bytes); tail target 9 = "g", so "ghij".
    const cut = truncateMiddleWithTokenBudget(bytes('abc€defghij'), 2);
    expect(cut).toEqual({ truncated: true, headEnd: 3, tailStart: 9, removedTokens: 2, marker: M(2) });
    expect(truncateText('abc€defghij', 2)).toBe(`abc${M(2)}ghij`);
  });

  it('a 3-byte char straddling the tail cut is dropped whole (… h7 €8-10 i11 j12)', () => {
    // 13 bytes: target 9 is inside €, the tail starts at the next boundary, 11.
    expect(truncateMiddleWithTokenBudget(bytes('abcdefgh€ij'), 2)).toMatchObject({ headEnd: 4, tailStart: 11 });
    expect(truncateText('abcdefgh€ij', 2)).toBe(`abcd${M(2)}ij`);
  });

  it('a 2-byte char ending exactly on the head budget is kept (a0 b1 é2-3)', () => {
    expect(truncateText('abéfghijkl', 2)).toBe(`abé${M(1)}ijkl`);
  });

  it('a 2-byte char at the head and a 4-byte char at the tail (a0 b1 c2 é3-4 x5 y6 z7 😀8-11 z12)', () => {
    // Head: é ends at 5 > 4 -> "abc". Tail target 9 is inside the emoji -> starts at 12 -> "z". N = ceil(5/4) = 2.
    expect(truncateMiddleWithTokenBudget(bytes('abcéxyz😀z'), 2)).toMatchObject({ headEnd: 3, tailStart: 12, removedTokens: 2 });
    expect(truncateText('abcéxyz😀z', 2)).toBe(`abc${M(2)}z`);
  });

  it('a 4-byte char starting exactly at the tail target is kept (a0 … i8 😀9-12)', () => {
    expect(truncateText('abcdefghi😀', 2)).toBe(`abcd${M(2)}😀`);
  });

  it('counts the bytes over budget, not the bytes dropped (one over, but a 3-byte char goes)', () => {
    // a0 b1 c2 €3-5 x6 y7 z8: 9 bytes; head "abc", tail target 5 is inside € -> "xyz"; 3 bytes dropped, N = 1.
    expect(truncateText('abc€xyz', 2)).toBe(`abc${M(1)}xyz`);
  });
});

describe('truncateText edge budgets', () => {
  it('keeps an empty text empty, whatever the limit', () => {
    expect(truncateText('', 2500)).toBe('');
    expect(truncateText('', 0)).toBe('');
  });

  it('with a zero limit leaves only the marker, N = ceil(len / 4)', () => {
    expect(truncateText('abcde', 0)).toBe(M(2));
  });

  it('with the real 2,500-token budget: 10,000 bytes whole, 10,001 cut in the middle', () => {
    const at = 'a'.repeat(5000) + 'b'.repeat(5000);
    expect(truncateText(at, 2500)).toBe(at);
    const over = 'a'.repeat(5000) + 'X' + 'b'.repeat(5000);
    expect(truncateText(over, 2500)).toBe(`${'a'.repeat(5000)}${M(1)}${'b'.repeat(5000)}`);
  });

  it('splits the byte budget floor half to the head, the rest to the tail (split_budget)', () => {
    // Token budgets are multiples of 4, so the halves are always equal; an odd byte budget only exists for Bytes policies.
    expect(splitBudget(12)).toEqual({ head: 6, tail: 6 });
    expect(splitBudget(9)).toEqual({ head: 4, tail: 5 });
    expect(truncateMiddleWithTokenBudget(bytes('x'.repeat(20)), 3)).toMatchObject({ headEnd: 6, tailStart: 14, removedTokens: 2 });
  });
});

describe('rustTrim (Rust str::trim: Unicode White_Space)', () => {
  it('trims ASCII and Unicode white space at both ends', () => {
    expect(rustTrim(' \t\n\r\u000b\u000cabc\u00a0\u0085\u2028\u2029\u3000\u202f\u205f\u1680\u2000\u200a')).toBe('abc');
  });

  it('keeps what JS trim removes but Rust does not: U+FEFF; and non-White_Space like U+200B', () => {
    expect(rustTrim('\uFEFFv1\n')).toBe('\uFEFFv1');
    expect(rustTrim('\u200Bx\u200B ')).toBe('\u200Bx\u200B');
    expect('\uFEFFv1\n'.trim()).toBe('v1'); // the difference that matters
  });

  it('gives the UTF-16 range of the kept text, and an empty range for blank input', () => {
    expect(rustTrimRange('  ab  ')).toEqual({ start: 2, end: 4 });
    expect(rustTrimRange(' \n ')).toEqual({ start: 3, end: 3 });
  });
});
