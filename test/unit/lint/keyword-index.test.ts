// The secret rules' keyword automaton against a naive search: every occurrence, case-insensitive, overlapping ones too.
import { describe, expect, it } from 'vitest';
import { KeywordIndex } from '../../../electron/core/lint/keyword-index';

function naive(keywords: string[], text: string): number[][] {
  const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return keywords.map((k) => {
    const out: number[] = [];
    for (let at = lower.indexOf(k); at !== -1 && out.length < 256; at = lower.indexOf(k, at + 1)) out.push(at);
    return out;
  });
}

/** Deterministic pseudo-random strings over a small alphabet, so keywords overlap and share prefixes and suffixes. */
function random(seed: number) {
  let s = seed;
  return (length: number, alphabet: string) => {
    let out = '';
    for (let i = 0; i < length; i++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      out += alphabet[s % alphabet.length];
    }
    return out;
  };
}

describe('KeywordIndex', () => {
  it('finds what a naive search finds (up to 256 hits a keyword), for keywords that are prefixes, suffixes and infixes of each other', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const keywords = [...new Set(Array.from({ length: 12 }, (_, i) => next(1 + (i % 5), 'abc')))];
      const text = next(400, 'abcABd_é');
      const hits = new KeywordIndex(keywords).scan(text);
      const expected = naive(keywords, text);
      expect(hits.positions, `seed ${seed}`).toEqual(expected);
      expect(
        [...hits.found].sort((a, b) => a - b),
        `seed ${seed}`,
      ).toEqual(expected.flatMap((at, i) => (at.length > 0 ? [i] : [])));
    }
  });

  it('finds the secret rules’ real keywords (aws, ghp_, sk-) in mixed case, and nothing in text without them', () => {
    const index = new KeywordIndex(['akia', 'ghp_', 'sk-', 'secret', 'key']);
    expect(index.scan('AKIA… then GHP_x, a Secret, a monkey and sk-1').positions).toEqual([[0], [11], [41], [20], [33]]);
    expect(index.scan('nothing to see here').positions).toEqual([[], [], [], [], []]);
    // `found`: the keywords that occur, by first occurrence (the scanner runs only their rules).
    expect(index.scan('AKIA… then GHP_x, a Secret, a monkey and sk-1 and akia again').found).toEqual([0, 1, 3, 4, 2]);
    expect(index.scan('nothing to see here').found).toEqual([]);
  });

  it('gives each scan its own lists: a scan that finds keywords leaves the next scan, and the one before, as they were', () => {
    const index = new KeywordIndex(['akia', 'sk-', 'key']);
    const empty = index.scan('nothing here');
    const first = index.scan('a key and sk-1');
    const second = index.scan('AKIA and a monkey');
    expect(first.positions).toEqual([[], [10], [2]]);
    expect(second.positions).toEqual([[0], [], [14]]);
    expect(empty.positions).toEqual([[], [], []]);
    expect(index.scan('still nothing').positions).toEqual([[], [], []]);
    expect(first.positions[0]).not.toBe(second.positions[2]);
  });
});
