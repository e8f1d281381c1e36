// The o200k counter: the same counts as gpt-tokenizer's own encoder, and pathological runs counted without a blow-up.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countO200kTokens, heapMergeCount } from '../../../electron/core/budget/o200k';

const PLAIN = { disallowedSpecial: new Set<string>() };

/** A deterministic generator, so a failure names the exact string. */
function strings(count: number): string[] {
  let seed = 13;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyz',
    'ABCDEFabcdef0123456789',
    '[](){}<>!?.,;:-_=+*/',
    'aaaaaaab',
    'éüßøåñ日本語テキスト',
    ' \n\t',
    '0123456789abcdefABCDEF+/=',
  ];
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const alphabet = alphabets[k % alphabets.length] as string;
    const length = 1 + Math.floor(next() * 900);
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    out.push(s);
  }
  return out;
}

describe('countO200kTokens', () => {
  it('counts exactly what gpt-tokenizer counts, long pieces included', () => {
    for (const s of strings(700)) expect(countO200kTokens(s), JSON.stringify(s.slice(0, 80))).toBe(countTokens(s, PLAIN));
  });

  it('counts ordinary Markdown and special-token strings as plain text', () => {
    const text = '# Memory\n\n- Use `pnpm test` <|endoftext|> before pushing; see rollout_summaries/a.md\n'.repeat(50);
    expect(countO200kTokens(text)).toBe(countTokens(text, PLAIN));
    expect(countO200kTokens('')).toBe(0);
  });

  it('counts a 100,000-character unbroken line and 500 KB of nested brackets', () => {
    // These took 15 s and 100 s with the quadratic merge; the count itself is the behaviour checked here.
    expect(countO200kTokens('a'.repeat(100_000))).toBe(12_500);
    expect(countO200kTokens('['.repeat(250_000) + ']'.repeat(250_000))).toBeGreaterThan(0);
  });
});

describe('heapMergeCount', () => {
  it('merges the leftmost lowest-ranked pair first', () => {
    // Ranks for a toy vocabulary: "ab" (0), "bc" (1), "abc" (2); "abc" needs "ab" first, then "ab"+"c".
    const ranks = new Map([
      ['ab', 0],
      ['bc', 1],
      ['abc', 2],
      ['a', 10],
      ['b', 11],
      ['c', 12],
    ]);
    const rankOf = (bytes: Uint8Array) => ranks.get(Buffer.from(bytes).toString('latin1'));
    expect(heapMergeCount(Buffer.from('abc'), rankOf)).toBe(1);
    expect(heapMergeCount(Buffer.from('abab'), rankOf)).toBe(2);
    expect(heapMergeCount(Buffer.from('cba'), rankOf)).toBe(3);
  });
});
