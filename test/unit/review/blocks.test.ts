// Block-aware review: blocks of Codex's memory files matched between versions (renamed, moved, edited, duplicate titles,
// CRLF), block-aligned hunks whose decisions stay byte-exact, and the structured outline they are grouped by.
import { describe, expect, it } from 'vitest';
import { applyDecisions } from '../../../electron/core/review/hunks';
import { computeFileBlocks, computeReviewHunks } from '../../../electron/core/review/review-hunks';
import { Rng } from '../../../electron/core/demo-home/prng';
import type { FileBlocks, Hunk, ReviewBlock } from '../../../shared/review';
import { FileBlocksSchema, HunkSchema } from '../../../shared/review';

const MEMORY = { relPath: 'MEMORY.md', version: 'v1' as const };

function group(title: string, cwd: string, tasks: string[]): string {
  const body = tasks.map(
    (t, i) =>
      `## Task ${i + 1}: ${t}, success\n\n### rollout_summary_files\n\n- rollout_summaries/${title.replace(/\W+/g, '-')}-${i}.md (cwd=${cwd}, thread_id=t${i})\n\n### keywords\n\n- ${t.split(' ').join(', ')}\n`,
  );
  return `# Task Group: ${title}\n\nscope: ${title} work\napplies_to: cwd=${cwd}; reuse_rule=same repo\n\n${body.join('\n')}\n## Reusable knowledge\n\n- ${title} builds with make [Task 1]\n`;
}

const groups = [
  group('invoice-svc billing', '/src/invoice', ['fix rounding', 'add tax table']),
  group('webapp checkout', '/src/webapp', ['wait for iframe', 'retry payment']),
  group('tiles-rs clippy', '/src/tiles', ['clean clippy']),
  group('infra certificates', '/src/infra', ['rotate ACM cert', 'plan before apply']),
];
const doc = (parts: readonly string[], eol = '\n') => parts.join('\n').replace(/\n/g, eol);

/** Hunks and blocks for a pair, with the invariants every pair must keep: accepting all gives `after`, rejecting all `before`. */
function review(before: string, after: string, file = MEMORY): { hunks: Hunk[]; blocks: FileBlocks } {
  const hunks = computeReviewHunks(before, after, file);
  for (const h of hunks) HunkSchema.parse(h);
  expect(new Set(hunks.map((h) => h.id)).size).toBe(hunks.length);
  const all = (d: 'accept' | 'reject') => Object.fromEntries(hunks.map((h) => [h.id, d]));
  expect(applyDecisions(before, after, hunks, all('accept'))).toBe(after);
  expect(applyDecisions(before, after, hunks, all('reject'))).toBe(before);
  const blocks = FileBlocksSchema.parse(computeFileBlocks(before, after, file, hunks));
  return { hunks, blocks };
}

const changed = (blocks: FileBlocks) => blocks.blocks.filter((b) => b.status !== 'unchanged');
const byTitle = (blocks: FileBlocks, title: string) => blocks.blocks.find((b) => b.title === title) as ReviewBlock;

describe('block matching in MEMORY.md', () => {
  const base = doc(groups);

  it('an edit inside one task group is one changed block; the others are unchanged', () => {
    const after = base.replace('- wait, for, iframe', '- wait, for, iframe, waitForResponse');
    const { hunks, blocks } = review(base, after);
    expect(changed(blocks).map((b) => [b.title, b.status])).toEqual([['webapp checkout', 'changed']]);
    expect(byTitle(blocks, 'webapp checkout').hunkIds).toEqual(hunks.map((h) => h.id));
    expect(blocks.blocks.filter((b) => b.status === 'unchanged')).toHaveLength(3);
  });

  it('a renamed task group is matched by its content and keeps its old title', () => {
    const after = base.replace('# Task Group: tiles-rs clippy', '# Task Group: tiles-rs lint cleanup');
    const { hunks, blocks } = review(base, after);
    const renamed = byTitle(blocks, 'tiles-rs lint cleanup');
    expect(renamed).toMatchObject({ status: 'changed', renamedFrom: 'tiles-rs clippy' });
    expect(hunks).toHaveLength(1);
    expect(hunks[0]).toMatchObject({ added: 1, removed: 1 });
  });

  it('a moved task group is one moved block holding its removal and its insertion', () => {
    const after = doc([groups[0], groups[3], groups[1], groups[2]] as string[]);
    const { hunks, blocks } = review(base, after);
    const moved = changed(blocks);
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ title: 'infra certificates', status: 'moved', edited: false });
    expect(moved[0]?.hunkIds.sort()).toEqual(hunks.map((h) => h.id).sort());
    const [ins, del] = [...hunks].sort((x, y) => y.added - x.added);
    expect([ins?.removed, del?.added, ins?.added]).toEqual([0, 0, del?.removed]);
  });

  it('a moved and edited block says so; a removed and an added block are their own blocks', () => {
    const edited = (groups[3] as string).replace('rotate ACM cert', 'rotate ACM certificates');
    const after = doc([edited, groups[0], groups[2], group('data-pipeline', '/src/data', ['retry S3'])] as string[]);
    const { blocks } = review(base, after);
    expect(byTitle(blocks, 'infra certificates')).toMatchObject({ status: 'moved', edited: true });
    expect(byTitle(blocks, 'webapp checkout').status).toBe('removed');
    expect(byTitle(blocks, 'data-pipeline').status).toBe('added');
    for (const b of changed(blocks)) expect(b.hunkIds.length).toBeGreaterThan(0);
  });

  it('duplicate titles pair by content, so an edit of the second copy leaves the first unchanged', () => {
    const twinA = group('deploy', '/src/app', ['deploy staging']);
    const twinB = group('deploy', '/src/app', ['deploy production', 'roll back']);
    const before = doc([twinA, groups[0], twinB] as string[]);
    const after = doc([twinA, groups[0], twinB.replace('roll back', 'roll back safely')] as string[]);
    const { blocks } = review(before, after);
    const deploys = blocks.blocks.filter((b) => b.title === 'deploy');
    expect(deploys.map((b) => b.status)).toEqual(['unchanged', 'changed']);
    expect(deploys[1]?.new?.start).toBeGreaterThan(deploys[0]?.new?.start ?? 0);
  });

  it('duplicate titles swapped are moves, not edits of each other', () => {
    const twinA = group('deploy', '/src/app', ['deploy staging']);
    const twinB = group('deploy', '/src/app', ['deploy production', 'roll back']);
    const { blocks } = review(doc([twinA, twinB, groups[0]] as string[]), doc([twinB, twinA, groups[0]] as string[]));
    expect(changed(blocks).map((b) => b.status)).toEqual(['moved']);
  });

  it('CRLF files: the same blocks and statuses, and decisions stay byte-exact', () => {
    const before = doc(groups, '\r\n');
    const after = doc(
      [groups[0], groups[3], groups[1], (groups[2] as string).replace('clean clippy', 'clean all clippy')] as string[],
      '\r\n',
    );
    const { blocks } = review(before, after);
    expect(
      changed(blocks)
        .map((b) => [b.title, b.status])
        .sort(),
    ).toEqual([
      ['infra certificates', 'moved'],
      ['tiles-rs clippy', 'changed'],
    ]);
    const lf = review(doc(groups), after.replace(/\r\n/g, '\n')).blocks;
    expect(lf.blocks.map((b) => [b.title, b.status, b.old, b.new])).toEqual(blocks.blocks.map((b) => [b.title, b.status, b.old, b.new]));
  });

  it('a whole-file reorder (another engine rewriting the file) reads as moves, never one giant hunk', () => {
    const many = Array.from({ length: 12 }, (_, i) => group(`project ${i}`, `/src/p${i}`, [`task ${i}`, `follow-up ${i}`]));
    const { hunks, blocks } = review(doc(many), doc([...many].reverse()));
    expect(changed(blocks).every((b) => b.status === 'moved' && !b.edited)).toBe(true);
    expect(hunks.every((h) => h.added === 0 || h.removed === 0)).toBe(true);
    const moved = changed(blocks).length;
    expect(hunks).toHaveLength(2 * moved);
  });
});

describe('block matching in memory_summary.md and raw_memories.md', () => {
  const SUMMARY = { relPath: 'memory_summary.md', version: 'v1' as const };
  const entry = (t: string, file: string) =>
    `- ${t}: ${t.split(' ').join(', ')}\n  - desc: ${t} done. (rollout_summaries/${file}.md)\n  - learnings: keep ${t}\n`;
  const summary = (days: Array<[string, string[]]>) =>
    `v1\n\n## User Profile\n\nDana.\n\n## User preferences\n\n- small diffs\n\n## General Tips\n\n- run tests\n\n## What's in Memory\n\n### invoice-svc\n\n${days.map(([d, es]) => `#### ${d}\n\n${es.join('')}`).join('\n')}`;

  it('an entry re-dated from one date group to another is one moved entry', () => {
    const a = entry('fix rounding', 'r1');
    const b = entry('add tax table', 'r2');
    const c = entry('pdf export', 'r3');
    const { hunks, blocks } = review(
      summary([
        ['2026-11-30', [a]],
        ['2026-11-29', [b, c]],
      ]),
      summary([
        ['2026-11-30', [a, c]],
        ['2026-11-29', [b]],
      ]),
      SUMMARY,
    );
    const moved = blocks.blocks.filter((x) => x.status === 'moved');
    expect(moved.map((x) => [x.type, x.title])).toEqual([['entry', 'pdf export']]);
    // Its removal and insertion are close, so they share one hunk: deciding it moves the entry or leaves it.
    expect(moved[0]?.hunkIds).toEqual(hunks.map((h) => h.id));
    expect(blocks.blocks.find((x) => x.title === 'User Profile')?.status).toBe('unchanged');
  });

  it('sections, scopes, date groups and entries nest, and an edited entry is changed inside its date group', () => {
    const a = entry('fix rounding', 'r1');
    const before = summary([['2026-11-30', [a]]]);
    const { blocks } = review(before, before.replace('keep fix rounding', 'keep rounding per line'), SUMMARY);
    const path = changed(blocks).map((x) => `${x.depth}:${x.type}:${x.title}`);
    expect(path).toEqual(["0:section:What's in Memory", '1:scope:invoice-svc', '2:date_group:2026-11-30', '3:entry:fix rounding']);
  });

  it('a new raw memory thread is one added block with one hunk', () => {
    const thread = (id: string) =>
      `## Thread \`${id}\`\nupdated_at: 2026-11-30T10:00:00Z\ncwd: /src\nrollout_path: /s/${id}.jsonl\nrollout_summary_file: ${id}.md\n\n---\ndescription: work on ${id}\n---\n\n### Task 1: ${id}\ntask: ${id}\ntask_outcome: success\n`;
    const before = `# Raw Memories\n\n${thread('019a-1')}\n${thread('019a-3')}`;
    const after = `# Raw Memories\n\n${thread('019a-1')}\n${thread('019a-2')}\n${thread('019a-3')}`;
    const { hunks, blocks } = review(before, after, { relPath: 'raw_memories.md', version: 'v1' });
    expect(changed(blocks).map((x) => [x.type, x.title, x.status])).toEqual([['thread', '019a-2', 'added']]);
    expect(hunks).toHaveLength(1);
  });

  it('a file of another kind gets plain hunks and a note instead of blocks', () => {
    const { blocks } = review('a\nb\n', 'a\nc\n', { relPath: 'extensions/ad_hoc/notes/x.md', version: 'v1' });
    expect(blocks).toMatchObject({ kind: null, blocks: [] });
    expect(blocks.note).toMatch(/not cut into blocks/);
  });
});

describe('block-aligned hunks: seeded shuffles, edits, insertions and removals', () => {
  it('every hunk belongs to one block, and any subset of decisions gives a file made of whole decisions', () => {
    const rng = new Rng(12);
    for (let round = 0; round < 30; round++) {
      const pool = Array.from({ length: 8 }, (_, i) => group(`g${i % 5}`, `/p${i % 3}`, [`t${i}`, `u${i}`]));
      const after = pool.filter(() => rng.next() > 0.2).map((g) => (rng.next() > 0.7 ? g.replace(/success/, 'partial') : g));
      if (rng.next() > 0.5) after.reverse();
      if (rng.next() > 0.5) after.splice(Math.floor(rng.next() * after.length), 0, group('fresh', '/n', ['new']));
      const before = doc(pool);
      const proposed = doc(after);
      const { hunks, blocks } = review(before, proposed);
      const owned = new Set(blocks.blocks.flatMap((b) => b.hunkIds));
      expect([...owned, ...blocks.looseHunkIds].sort()).toEqual(hunks.map((h) => h.id).sort());
      const some = Object.fromEntries(hunks.filter(() => rng.next() > 0.5).map((h) => [h.id, 'accept' as const]));
      const mixed = applyDecisions(before, proposed, hunks, some);
      expect(typeof mixed).toBe('string');
    }
  });
});
