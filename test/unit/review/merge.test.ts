// The three-way merge behind a rebase: one-sided and overlapping changes, deletions, adjacent lines, CRLF, final newlines, 5 MB.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../electron/core/demo-home/prng';
import { applyDecisions, unresolvedConflicts } from '../../../electron/core/review/hunks';
import { mergeTexts } from '../../../electron/core/review/merge';
import { hunksOfMerge } from '../../../electron/core/review/merge-hunks';
import { HunkSchema, type DecisionMap, type Hunk, type HunkDecision } from '../../../shared/review';
import { withTempDir } from '../helpers';

/** Merges and checks the invariants every merge keeps: rejecting everything gives the disk's text back, byte for byte. */
function merge(base: string, theirs: string, ours: string) {
  const result = mergeTexts(base, theirs, ours);
  const hunks = hunksOfMerge(result);
  for (const h of hunks) HunkSchema.parse(h);
  const t = result.theirs.join('');
  const m = result.merged.join('');
  expect(t).toBe(theirs);
  expect(applyDecisions(t, m, hunks, {})).toBe(theirs);
  const decide = (change: HunkDecision, conflict: HunkDecision): DecisionMap =>
    Object.fromEntries(hunks.map((h) => [h.id, h.kind === 'conflict' ? conflict : change]));
  expect(applyDecisions(t, m, hunks, decide('accept', 'ours'))).toBe(m);
  const conflicts = hunks.filter((h) => h.kind === 'conflict');
  return {
    result,
    hunks,
    conflicts,
    merged: m,
    resolve: (change: HunkDecision, conflict: HunkDecision, edits = {}) => applyDecisions(t, m, hunks, decide(change, conflict), edits),
  };
}

const lines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i}\n`);

describe('three-way merge', () => {
  it('keeps changes made on one side only, from either side, without a conflict', () => {
    const base = lines(30);
    const theirs = [...base];
    theirs[3] = 'theirs changed 3\n';
    const ours = [...base];
    ours[20] = 'ours changed 20\n';
    const m = merge(base.join(''), theirs.join(''), ours.join(''));
    expect(m.conflicts).toEqual([]);
    expect(m.hunks).toHaveLength(1);
    expect(m.hunks[0]?.lines.filter((l) => l.startsWith('-') || l.startsWith('+'))).toEqual(['-line 20', '+ours changed 20']);
    expect(m.resolve('accept', 'ours')).toBe([...theirs.slice(0, 20), 'ours changed 20\n', ...theirs.slice(21)].join(''));
  });

  it('keeps a line the proposal left alone between two of its changes as context, not removed and added again', () => {
    const base = lines(30);
    const theirs = [...base];
    theirs[3] = 'theirs changed 3\n';
    const ours = [...base];
    ours[20] = 'ours changed 20\n';
    ours[22] = 'ours changed 22\n';
    const m = merge(base.join(''), theirs.join(''), ours.join(''));
    expect(m.conflicts).toEqual([]);
    // Line 21 is on disk as it was: a masked secret there is written from the live file, never from the proposal.
    expect(m.hunks.flatMap((h) => h.lines.filter((l) => l.startsWith('-') || l.startsWith('+')))).toEqual([
      '-line 20',
      '+ours changed 20',
      '-line 22',
      '+ours changed 22',
    ]);
  });

  it('a proposal unchanged against the disk has no hunks; a disk unchanged keeps the proposal as is', () => {
    const base = lines(10).join('');
    const other = base.replace('line 4\n', 'four\n');
    expect(merge(base, other, base).hunks).toEqual([]);
    const same = merge(base, base, other);
    expect(same.conflicts).toEqual([]);
    expect(same.merged).toBe(other);
    expect(merge(base, other, other).hunks).toEqual([]);
  });

  it('overlapping changes become one conflict hunk with base, theirs and ours; each resolution gives its text', () => {
    const base = lines(12);
    const theirs = [...base];
    theirs[5] = 'disk five\n';
    const ours = [...base];
    ours[5] = 'proposal five\n';
    const m = merge(base.join(''), theirs.join(''), ours.join(''));
    expect(m.hunks).toHaveLength(1);
    const [conflict] = m.conflicts as [Hunk];
    expect(conflict.conflict).toEqual({
      base: { start: 6, lines: 1, text: ['line 5'] },
      theirs: { start: 6, lines: 1, text: ['disk five'] },
      ours: { start: 6, lines: 1, text: ['proposal five'] },
      own: { start: 6, lines: 1 },
      absent: null,
    });
    expect(unresolvedConflicts(m.hunks, {})).toEqual([conflict.id]);
    expect(m.resolve('accept', 'theirs')).toBe(theirs.join(''));
    expect(m.resolve('accept', 'ours')).toBe(ours.join(''));
    expect(m.resolve('accept', 'both')).toBe([...base.slice(0, 5), 'disk five\n', 'proposal five\n', ...base.slice(6)].join(''));
    expect(m.resolve('accept', 'edit', { [conflict.id]: 'by hand' })).toBe([...base.slice(0, 5), 'by hand\n', ...base.slice(6)].join(''));
    expect(m.resolve('reject', 'edit', { [conflict.id]: '' })).toBe([...base.slice(0, 5), ...base.slice(6)].join(''));
  });

  it("places each conflict in all three versions: base, the disk (theirs) and the proposal's own text", () => {
    const base = lines(20);
    const theirs = ['new 1\n', 'new 2\n', 'new 3\n', ...base];
    theirs[3 + 8] = 'disk 8\n';
    const ours = [...base];
    ours[8] = 'ours 8\n';
    const [conflict] = merge(base.join(''), theirs.join(''), ours.join('')).conflicts;
    expect(conflict?.conflict).toMatchObject({
      base: { start: 9, lines: 1 },
      theirs: { start: 12, lines: 1 },
      ours: { start: 12, lines: 1 },
      own: { start: 9, lines: 1 },
    });
  });

  it('keeps a conflict alone in its hunk and the changes next to it decidable on their own', () => {
    const base = lines(20);
    const theirs = [...base];
    theirs[8] = 'disk 8\n';
    const ours = [...base];
    ours[8] = 'ours 8\n';
    ours[11] = 'ours 11\n';
    ours[4] = 'ours 4\n';
    const m = merge(base.join(''), theirs.join(''), ours.join(''));
    expect(m.hunks.map((h) => h.kind)).toEqual(['text', 'conflict', 'text']);
    // Hunks never overlap: their old ranges follow each other.
    for (let i = 1; i < m.hunks.length; i++) {
      const prev = m.hunks[i - 1] as Hunk;
      expect((m.hunks[i] as Hunk).oldStart).toBeGreaterThanOrEqual(prev.oldStart + prev.oldLines);
    }
    const onlyConflict = applyDecisions(theirs.join(''), m.merged, m.hunks, { [(m.conflicts[0] as Hunk).id]: 'ours' });
    expect(onlyConflict).toBe([...base.slice(0, 8), 'ours 8\n', ...base.slice(9)].join(''));
  });

  it('both sides deleting the same lines is no conflict and no hunk; deleting against editing is a conflict', () => {
    const base = lines(10);
    const without = [...base.slice(0, 3), ...base.slice(5)].join('');
    expect(merge(base.join(''), without, without).hunks).toEqual([]);
    const edited = [...base];
    edited[4] = 'edited 4\n';
    const m = merge(base.join(''), without, edited.join(''));
    expect(m.conflicts).toHaveLength(1);
    expect(m.conflicts[0]?.conflict?.theirs).toMatchObject({ lines: 0 });
    expect(m.resolve('accept', 'theirs')).toBe(without);
  });

  it('changes on adjacent lines conflict, as in diff3 and git; one untouched line between them merges', () => {
    const base = lines(10);
    const theirs = [...base];
    theirs[4] = 'disk 4\n';
    const adjacent = [...base];
    adjacent[5] = 'ours 5\n';
    expect(merge(base.join(''), theirs.join(''), adjacent.join('')).conflicts).toHaveLength(1);
    const apart = [...base];
    apart[6] = 'ours 6\n';
    const m = merge(base.join(''), theirs.join(''), apart.join(''));
    expect(m.conflicts).toEqual([]);
    expect(m.resolve('accept', 'ours')).toBe([...theirs.slice(0, 6), 'ours 6\n', ...theirs.slice(7)].join(''));
    // Both inserting at the same place is a conflict too (the order is a decision): "both" keeps the disk's first.
    const insTheirs = [...base.slice(0, 3), 'disk new\n', ...base.slice(3)].join('');
    const insOurs = [...base.slice(0, 3), 'ours new\n', ...base.slice(3)].join('');
    const ins = merge(base.join(''), insTheirs, insOurs);
    expect(ins.conflicts).toHaveLength(1);
    expect(ins.resolve('accept', 'both')).toBe([...base.slice(0, 3), 'disk new\n', 'ours new\n', ...base.slice(3)].join(''));
  });

  it('CRLF files merge line for line; a disk converted to CRLF takes the proposal along without conflicts', () => {
    const crlf = (xs: string[]) => xs.map((l) => l.replace('\n', '\r\n')).join('');
    const base = lines(10);
    const theirs = [...base];
    theirs[1] = 'disk 1\n';
    const ours = [...base];
    ours[7] = 'ours 7\n';
    const same = merge(crlf(base), crlf(theirs), crlf(ours));
    expect(same.conflicts).toEqual([]);
    expect(same.resolve('accept', 'ours')).toBe(crlf([...theirs.slice(0, 7), 'ours 7\n', ...theirs.slice(8)]));
    const converted = merge(base.join(''), crlf(theirs), ours.join(''));
    expect(converted.conflicts).toEqual([]);
    expect(converted.result.eolNote).toMatch(/CRLF/);
    expect(converted.resolve('accept', 'ours')).toBe(crlf([...theirs.slice(0, 7), 'ours 7\n', ...theirs.slice(8)]));
  });

  it('a missing final newline is a change of the last line: kept when one side makes it, a conflict when both edit it', () => {
    const base = 'a\nb\nc';
    const appended = merge(base, 'a\nb\nc\nd\n', 'A\nb\nc');
    expect(appended.conflicts).toEqual([]);
    expect(appended.resolve('accept', 'ours')).toBe('A\nb\nc\nd\n');
    const both = merge(base, 'a\nb\nc\n', 'a\nb\nC');
    expect(both.conflicts).toHaveLength(1);
    expect(both.resolve('accept', 'ours')).toBe('a\nb\nC');
    expect(both.resolve('accept', 'both')).toBe('a\nb\nc\nC');
    // A hand edit that drops its final newline gets one back when lines follow it.
    const middle = merge('x\ny\nz\n', 'x\nY1\nz\n', 'x\nY2\nz\n');
    expect(middle.resolve('accept', 'edit', { [(middle.conflicts[0] as Hunk).id]: 'Y3' })).toBe('x\nY3\nz\n');
  });

  it('a proposal rewriting most of a large file merges with a small disk edit elsewhere; both rewriting one region is one conflict', () => {
    const base = lines(30_000, 'memory');
    const ours = base.map((line, i) => (i % 2 === 0 && i < 20_000 ? line.replace('memory', 'consolidated') : line));
    const theirs = [...base];
    theirs[25_000] = 'codex wrote this\n';
    const m = merge(base.join(''), theirs.join(''), ours.join(''));
    expect(m.conflicts).toEqual([]);
    expect(m.resolve('accept', 'ours')).toBe([...ours.slice(0, 25_000), 'codex wrote this\n', ...ours.slice(25_001)].join(''));
    const rewritten = base.map((line, i) => (i >= 100 && i < 1_600 ? `disk ${i}\n` : line));
    const both = merge(base.join(''), rewritten.join(''), ours.join(''));
    // 1,500 lines both rewrote (and the proposal's change touching their end) are one conflict, too big to re-merge line by line.
    expect(both.conflicts).toHaveLength(1);
    expect(both.conflicts[0]?.conflict).toMatchObject({ base: { start: 101, lines: 1501 }, theirs: { start: 101, lines: 1501 } });
    expect(both.resolve('accept', 'theirs')).toBe([...ours.slice(0, 100), ...rewritten.slice(100, 1601), ...ours.slice(1601)].join(''));
    expect(both.resolve('reject', 'theirs')).toBe(rewritten.join(''));
  });

  it('random edits on both sides: rejecting everything is the disk, accepting everything is the merge', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = new Rng(seed);
      const base = lines(60, 'fact');
      const edit = (tag: string) => {
        const out = [...base];
        for (let k = 0; k < 6; k++) {
          const at = rng.int(0, out.length - 1);
          const roll = rng.int(0, 2);
          if (roll === 0) out[at] = `${tag} ${k}\n`;
          else if (roll === 1) out.splice(at, 1);
          else out.splice(at, 0, `${tag} new ${k}\n`, '\n');
        }
        return out.join('');
      };
      merge(base.join(''), edit('disk'), edit('ours'));
    }
  });
});

describe('three-way merge of a 5 MB MEMORY.md with 100 edits on each side', () => {
  it('merges without conflicts and agrees with git merge-file byte for byte', async () => {
    const block = (i: number) =>
      [
        `# Task group ${i}`,
        '',
        `scope: project ${i % 40}`,
        '',
        '### keywords',
        '',
        `- build, tests, release ${i}`,
        '',
        '### rollout_summary_files',
        '',
        `- rollout_summaries/r${i}.md`,
        '',
      ].join('\n') + '\n';
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 5 * 1024 * 1024; i++) {
      const text = block(i) + `- learned ${i}: ${'memory '.repeat(8)}\n\n`;
      parts.push(text);
      size += text.length;
    }
    const base = parts.join('').split('\n');
    const theirs = [...base];
    const ours = [...base];
    for (let i = 0; i < 100; i++) {
      const t = Math.floor(((i + 0.3) * base.length) / 100);
      const o = Math.floor(((i + 0.7) * base.length) / 100);
      theirs[t] = `${theirs[t]} (disk ${i})`;
      ours[o] = `${ours[o]} (ours ${i})`;
    }
    const m = merge(base.join('\n'), theirs.join('\n'), ours.join('\n'));
    expect(m.conflicts).toEqual([]);
    expect(m.hunks.length).toBeGreaterThanOrEqual(90);
    await withTempDir(async (dir) => {
      writeFileSync(join(dir, 'o'), base.join('\n'));
      writeFileSync(join(dir, 't'), theirs.join('\n'));
      writeFileSync(join(dir, 'p'), ours.join('\n'));
      const git = spawnSync('git', ['merge-file', '-p', join(dir, 't'), join(dir, 'o'), join(dir, 'p')], { maxBuffer: 64 << 20 });
      expect(git.status).toBe(0);
      expect(m.merged).toBe(git.stdout.toString('utf8'));
      expect(readFileSync(join(dir, 't'), 'utf8')).toBe(theirs.join('\n'));
    });
  });
});
