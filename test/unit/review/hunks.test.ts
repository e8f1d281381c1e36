// Hunks and decisions: byte-exact results on edge cases, and seeded property tests on random texts and edits.
import { describe, expect, it } from 'vitest';
import { applyDecisions, computeFileHunks, computeHunks, resolveFile } from '../../../electron/core/review/hunks';
import { splitLines } from '../../../electron/core/review/lines';
import type { DecisionMap, Hunk } from '../../../shared/review';
import { HunkSchema } from '../../../shared/review';
import { Rng } from '../../../electron/core/demo-home/prng';

const all = (hunks: Hunk[], decision: 'accept' | 'reject'): DecisionMap => Object.fromEntries(hunks.map((h) => [h.id, decision]));

function roundTrip(base: string, proposed: string): Hunk[] {
  const hunks = computeHunks(base, proposed);
  for (const h of hunks) HunkSchema.parse(h);
  expect(applyDecisions(base, proposed, hunks, all(hunks, 'accept'))).toBe(proposed);
  expect(applyDecisions(base, proposed, hunks, all(hunks, 'reject'))).toBe(base);
  expect(applyDecisions(base, proposed, hunks, {})).toBe(base);
  return hunks;
}

describe('computeHunks and applyDecisions: edge cases, byte for byte', () => {
  const cases: Array<[string, string, string]> = [
    ['CRLF file', 'a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n'],
    ['LF to CRLF on one line', 'a\nb\nc\n', 'a\nb\r\nc\n'],
    ['no trailing newline', 'a\nb\nc', 'a\nb\nC'],
    ['trailing newline added', 'a\nb', 'a\nb\n'],
    ['trailing newline removed', 'a\nb\n', 'a\nb'],
    ['empty to text', '', 'x\ny'],
    ['text to empty', 'x\ny\n', ''],
    ['only newlines', '\n\n\n', '\n\n'],
    ['BOM kept', '\uFEFFtitle\nbody\n', '\uFEFFtitle\nnew body\n'],
  ];
  for (const [name, base, proposed] of cases) it(name, () => expect(roundTrip(base, proposed).length).toBeGreaterThan(0));

  it('equal texts have no hunks', () => expect(computeHunks('a\nb\n', 'a\nb\n')).toEqual([]));

  it('numbers hunks like a unified diff and marks a missing final newline', () => {
    const [hunk] = computeHunks('a\nb', 'a\nb\n');
    expect(hunk).toMatchObject({ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, added: 1, removed: 1 });
    expect(hunk?.lines).toEqual([' a', '-b', '\\ No newline at end of file', '+b']);
    expect(computeHunks('', 'x\n')[0]).toMatchObject({ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 });
  });

  it('keeps far-apart edits as independent hunks with stable ids, and accepts one alone', () => {
    const base = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join('');
    const proposed = base.replace('line 5\n', 'five\n').replace('line 30\n', 'thirty\n');
    const hunks = roundTrip(base, proposed);
    expect(hunks).toHaveLength(2);
    expect(computeHunks(base, proposed).map((h) => h.id)).toEqual(hunks.map((h) => h.id));
    const first = applyDecisions(base, proposed, hunks, { [(hunks[0] as Hunk).id]: 'accept', [(hunks[1] as Hunk).id]: 'reject' });
    expect(first).toBe(base.replace('line 5\n', 'five\n'));
  });

  it('refuses hunks that belong to another pair of texts', () => {
    const hunks = computeHunks('a\nb\nc\n', 'a\nB\nc\n');
    expect(() => applyDecisions('a\nb\nc\nd\n', 'a\nB\nc\n', hunks, {})).toThrow(/do not belong/);
  });
});

describe('whole-file changes', () => {
  it('a created file is one decision: accept writes it, reject leaves it absent', () => {
    for (const content of ['new\n', '', 'no eol']) {
      const hunks = computeFileHunks(null, content);
      expect(hunks).toHaveLength(1);
      expect(hunks[0]?.kind).toBe('create');
      expect(resolveFile(null, content, hunks, all(hunks, 'accept'))).toEqual({ action: 'write', content });
      expect(resolveFile(null, content, hunks, {})).toEqual({ action: 'unchanged' });
    }
  });

  it('a deletion is one decision: accept deletes, reject keeps the file', () => {
    for (const base of ['old\r\nfile\r\n', '']) {
      const hunks = computeFileHunks(base, null);
      expect(hunks.map((h) => h.kind)).toEqual(['delete']);
      expect(resolveFile(base, null, hunks, all(hunks, 'accept'))).toEqual({ action: 'delete' });
      expect(resolveFile(base, null, hunks, all(hunks, 'reject'))).toEqual({ action: 'unchanged' });
    }
  });

  it('a modification whose every hunk is rejected is unchanged', () => {
    const hunks = computeFileHunks('a\n', 'b\n');
    expect(resolveFile('a\n', 'b\n', hunks, all(hunks, 'reject'))).toEqual({ action: 'unchanged' });
    expect(resolveFile('a\n', 'b\n', hunks, all(hunks, 'accept'))).toEqual({ action: 'write', content: 'b\n' });
  });
});

/** The generator's seeded PRNG (mulberry32), so a failing case can be replayed from its seed. */
function prng(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

function randomCase(seed: number): { base: string; proposed: string } {
  const rand = prng(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  let fresh = 0;
  // Mostly distinct lines (so the minimal diff is unambiguous), some endings CRLF, sometimes no final newline.
  const line = () => `${seed}-${fresh++}-${pick(1e6).toString(36)}${rand() < 0.2 ? '\r\n' : '\n'}`;
  const base = Array.from({ length: pick(60) }, line);
  const proposed = [...base];
  const edits = pick(8);
  for (let e = 0; e < edits; e++) {
    const at = pick(proposed.length + 1);
    const op = pick(3);
    if (op === 0) proposed.splice(at, 0, ...Array.from({ length: 1 + pick(3) }, line));
    else if (op === 1) proposed.splice(at, 1 + pick(3));
    else proposed.splice(at, 1, line());
  }
  const strip = (lines: string[]) => (rand() < 0.3 && lines.length > 0 ? lines.join('').replace(/\r?\n$/, '') : lines.join(''));
  return { base: strip(base), proposed: strip(proposed) };
}

/**
 * True when every result line comes from base or proposed, and the lines from each side keep that side's order.
 * (Lines in these cases are unique tokens, so "comes from" is well defined.)
 */
function isOrderedMerge(result: string[], base: string[], proposed: string[]): boolean {
  const isSubsequence = (sub: string[], of: string[]) => {
    let i = 0;
    for (const line of sub) {
      while (i < of.length && of[i] !== line) i++;
      if (i++ >= of.length) return false;
    }
    return true;
  };
  const inBase = new Set(base);
  const inProposed = new Set(proposed);
  return (
    result.every((l) => inBase.has(l) || inProposed.has(l)) &&
    isSubsequence(
      result.filter((l) => inBase.has(l)),
      base,
    ) &&
    isSubsequence(
      result.filter((l) => inProposed.has(l)),
      proposed,
    )
  );
}

describe('property: random texts, random edits, random decisions (seeded)', () => {
  it('holds for 500 seeds', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const { base, proposed } = randomCase(seed);
      const hunks = computeHunks(base, proposed);
      expect(applyDecisions(base, proposed, hunks, all(hunks, 'accept')), `seed ${seed}`).toBe(proposed);
      expect(applyDecisions(base, proposed, hunks, all(hunks, 'reject')), `seed ${seed}`).toBe(base);
      const rand = prng(seed * 7919);
      const decisions: DecisionMap = {};
      for (const h of hunks) if (rand() < 0.5) decisions[h.id] = rand() < 0.8 ? 'accept' : 'reject';
      const result = applyDecisions(base, proposed, hunks, decisions);
      expect(isOrderedMerge(splitLines(result), splitLines(base), splitLines(proposed)), `seed ${seed}`).toBe(true);
      // The key property: the hunks between base and the result are exactly the accepted ones (same ids, same lines).
      const accepted = hunks.filter((h) => decisions[h.id] === 'accept');
      const again = computeHunks(base, result);
      expect(
        again.map((h) => [h.id, h.oldStart, h.oldLines, h.lines]),
        `seed ${seed}`,
      ).toEqual(accepted.map((h) => [h.id, h.oldStart, h.oldLines, h.lines]));
    }
  });
});
