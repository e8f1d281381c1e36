// Review never hides a secret: core marks every hunk line that holds one, and an added one is always its own hunk,
// in a block-structured MEMORY.md, in a plain file, in a created file and after a rebase's merge; `show` marks the
// stored (masked) proposals' lines too: a redaction's removed line and a kept key in context.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDecisions } from '../../../electron/core/review/hunks';
import { computeFileBlocks, computeReviewHunks } from '../../../electron/core/review/review-hunks';
import { threeWay } from '../../../electron/core/review/three-way';
import { FileBlocksSchema, HunkSchema, type Hunk } from '../../../shared/review';
import { generateHome } from '../../fixtures';
import { withTempDir } from '../helpers';

const MEMORY = { relPath: 'MEMORY.md', version: 'v1' as const };
// Assembled at run time: the repository holds no token-shaped literal.
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const awsKeyId = () => `AKIA${Array.from(randomBytes(16), (b) => B32[b % 32]).join('')}`;
const awsSecret = () => randomBytes(30).toString('base64').replace(/[+/]/g, 'x');

function group(title: string, cwd: string, knowledge: string[]): string {
  return [
    `# Task Group: ${title}`,
    '',
    `scope: ${title} work`,
    `applies_to: cwd=${cwd}; reuse_rule=same repo`,
    '',
    `## Task 1: ${title} chores, success`,
    '',
    '### rollout_summary_files',
    '',
    `- rollout_summaries/${title.replace(/\W+/g, '-')}.md (cwd=${cwd}, thread_id=t1)`,
    '',
    '## Reusable knowledge',
    '',
    ...knowledge.map((k) => `- ${k} [Task 1]`),
    '',
  ].join('\n');
}

const BEFORE = [
  group('invoice-svc billing', '/src/invoice', ['builds with make']),
  group('webapp checkout', '/src/webapp', ['uses pnpm']),
].join('\n');

/** The hunks with the invariants of every review: ids unique, schema-valid, accept all = after, reject all = before. */
function review(before: string, after: string, file?: typeof MEMORY): Hunk[] {
  const hunks = computeReviewHunks(before, after, file);
  for (const h of hunks) HunkSchema.parse(h);
  expect(new Set(hunks.map((h) => h.id)).size).toBe(hunks.length);
  const all = (d: 'accept' | 'reject') => Object.fromEntries(hunks.map((h) => [h.id, d]));
  expect(applyDecisions(before, after, hunks, all('accept'))).toBe(after);
  expect(applyDecisions(before, after, hunks, all('reject'))).toBe(before);
  return hunks;
}

const marked = (hunks: readonly Hunk[]) => hunks.filter((h) => (h.secrets ?? []).length > 0);
const lineOf = (h: Hunk, index: number) => h.lines[index] as string;

describe('secret lines in review hunks', () => {
  it('cuts an AWS key out of a new MEMORY.md block into its own marked hunk; the rest of the block is accepted without it', () => {
    const id = awsKeyId();
    const secret = awsSecret();
    const knowledge = ['deploys go through the staging bucket first', `staging uses key ${id}`, `aws secret: ${secret}`, 'rotate monthly'];
    const after = `${group('infra deploys', '/src/infra', knowledge)}\n${BEFORE}`;
    const hunks = review(BEFORE, after, MEMORY);
    // Without the cut, the whole new block was one all-or-nothing hunk with the key inside.
    const secretHunks = marked(hunks);
    expect(secretHunks).toHaveLength(1);
    const [keyHunk] = secretHunks as [Hunk];
    expect(keyHunk.lines.filter((l) => l.startsWith('+'))).toEqual([
      `+- staging uses key ${id} [Task 1]`,
      `+- aws secret: ${secret} [Task 1]`,
    ]);
    expect(keyHunk.secrets?.map((s) => [lineOf(keyHunk, s.index), s.label])).toEqual([
      [`+- staging uses key ${id} [Task 1]`, 'an AWS access key id'],
      [`+- aws secret: ${secret} [Task 1]`, 'an AWS secret access key'],
    ]);
    for (const h of hunks) if (h !== keyHunk) expect(h.lines.join('\n')).not.toContain(id);
    const decisions = Object.fromEntries(hunks.map((h) => [h.id, h === keyHunk ? 'reject' : 'accept'] as const));
    const result = applyDecisions(BEFORE, after, hunks, decisions);
    expect(result).not.toContain(id);
    expect(result).not.toContain(secret);
    expect(result).toContain('- deploys go through the staging bucket first [Task 1]\n- rotate monthly [Task 1]\n');
    // The outline holds the key's hunk in the new block, so the block can show it holds a secret.
    const blocks = FileBlocksSchema.parse(computeFileBlocks(BEFORE, after, MEMORY, hunks));
    const owner = blocks.blocks.find((b) => b.hunkIds.includes(keyHunk.id));
    expect(owner?.title).toContain('infra deploys');
  });

  it('does the same in a plain file, and marks a removed secret line (a redaction) where it goes', () => {
    const id = awsKeyId();
    const note = ['# Deploy notes', '', '- staging first', '- then production', ''].join('\n');
    const withKey = note.replace('- staging first\n', `- staging first\n- key ${id}\n`);
    const added = review(note, withKey);
    expect(added).toHaveLength(1);
    expect(marked(added)[0]?.lines.filter((l) => l.startsWith('+'))).toEqual([`+- key ${id}`]);
    const edited = withKey.replace('- then production', '- then production, after the smoke test');
    const both = review(note, edited);
    expect(both).toHaveLength(2);
    expect(marked(both).map((h) => h.added)).toEqual([1]);
    const redacted = withKey.replace(id, '[REDACTED_SECRET]');
    const [redaction] = review(withKey, redacted);
    expect(redaction?.secrets?.map((s) => lineOf(redaction, s.index)[0])).toEqual(['-']);
  });

  it('cuts a redaction out of an edit beside it, in a plain file and in a MEMORY.md block; a private key is one redaction', () => {
    const id = awsKeyId();
    const note = ['# Deploy notes', '', '- staging first', `- key ${id}`, '- then production', ''].join('\n');
    // A consolidation kept the placeholder staging gave it and wrote a line right after it.
    const after = note.replace(`- key ${id}\n`, '- key [REDACTED_SECRET]\n- smoke test between them\n');
    const hunks = review(note, after);
    expect(hunks.map((h) => h.lines.filter((l) => l[0] === '-' || l[0] === '+'))).toEqual([
      [`-- key ${id}`, '+- key [REDACTED_SECRET]'],
      ['+- smoke test between them'],
    ]);
    expect(marked(hunks)).toEqual([hunks[0]]);
    // Keeping the key (the redaction rejected) keeps the edit beside it, and the other way round.
    const decide = (redaction: 'accept' | 'reject') =>
      applyDecisions(note, after, hunks, { [hunks[0]?.id as string]: redaction, [hunks[1]?.id as string]: 'accept' });
    expect(decide('reject')).toBe(note.replace(`- key ${id}\n`, `- key ${id}\n- smoke test between them\n`));
    expect(decide('accept')).toBe(after);
    // In a MEMORY.md block, with a multi-line private key replaced by one placeholder line next to an edit.
    const pem = (
      randomBytes(300)
        .toString('base64')
        .match(/.{1,64}/g) as string[]
    ).join('\n');
    const kind = 'RSA';
    const key = `-----BEGIN ${kind} PRIVATE KEY-----\n${pem}\n-----END ${kind} PRIVATE KEY-----`;
    const before = BEFORE.replace('- builds with make [Task 1]\n', `- builds with make [Task 1]\n- deploy key:\n${key}\n`);
    const rewritten = BEFORE.replace(
      '- builds with make [Task 1]\n',
      '- builds with make -j8 [Task 1]\n- deploy key:\n[REDACTED_SECRET]\n',
    );
    const blockHunks = review(before, rewritten, MEMORY);
    const redaction = blockHunks.find((h) => h.lines.includes('+[REDACTED_SECRET]')) as Hunk;
    expect(redaction.lines.filter((l) => l[0] === '+')).toEqual(['+[REDACTED_SECRET]']);
    expect(redaction.removed).toBe(key.split('\n').length);
    expect(blockHunks.find((h) => h.lines.includes('+- builds with make -j8 [Task 1]'))?.id).not.toBe(redaction.id);
  });

  it('marks a created file as a whole and a merged rebase result', () => {
    const id = awsKeyId();
    const created = `# Note\n\n- key ${id}\n`;
    const [whole] = computeReviewHunks(null, created);
    expect(whole?.kind).toBe('create');
    expect(whole?.secrets?.map((s) => s.index)).toEqual([2]);
    const base = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const theirs = base.replace('a\n', 'a0\n');
    const ours = base.replace('h\n', `h\n- key ${id}\n`);
    const merged = threeWay(base, theirs, ours);
    expect(marked(merged.hunks).flatMap((h) => h.secrets?.map((s) => lineOf(h, s.index)) ?? [])).toEqual([`+- key ${id}`]);
  });

  it('leaves hunks without a secret exactly as before: no marks, the same grouping', () => {
    const after = BEFORE.replace('uses pnpm', 'uses pnpm 9');
    const hunks = review(BEFORE, after, MEMORY);
    expect(marked(hunks)).toEqual([]);
    expect(hunks.every((h) => !('secrets' in h))).toBe(true);
  });
});

describe('the command line says which hunk holds a secret', () => {
  it('show marks a redaction and a kept key in context with what they hold, masked; show --json carries the marks', async () => {
    const repo = resolve(__dirname, '..', '..', '..');
    if (!existsSync(join(repo, 'out', 'electron', 'host', 'cli.js'))) throw new Error('out/ is missing: run "npm run build" first.');
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [join(repo, 'electron', 'host', 'bin.cjs'), ...args], { encoding: 'utf8', timeout: 120_000 });
    await withTempDir(async (dir) => {
      const home = (await generateHome({ dir: join(dir, 'home'), scale: 'small', version: 'v1', seed: 5, git: false })).codexHome;
      const where = ['--codex-home', home, '--data-dir', join(dir, 'data')];
      const id = awsKeyId();
      const memoryPath = join(home, 'memories', 'MEMORY.md');
      // The key is the person's own, already in MEMORY.md: a proposal may keep it or take it out, never add one.
      const withKey = `${group('infra deploys', '/src/infra', ['staging first', `key ${id}`, 'rotate'])}\n${await readFile(memoryPath, 'utf8')}`;
      await writeFile(memoryPath, withKey);
      const labels = (proposalId: string) =>
        (JSON.parse(cli(['show', proposalId, ...where, '--json']).stdout) as { files: Array<{ hunks: Hunk[] }> }).files.flatMap((f) =>
          f.hunks.flatMap((h) => (h.secrets ?? []).map((s) => `${(h.lines[s.index] as string)[0]}${s.label}`)),
        );

      // An edit of the line next to the key: the key's line is context, marked, and shown masked.
      await writeFile(join(dir, 'edit.md'), withKey.replace('- staging first [Task 1]', '- staging first, always [Task 1]'));
      const edit = cli(['propose', '--file', 'MEMORY.md', '--content-file', join(dir, 'edit.md'), '--version', 'v1', ...where]);
      expect(edit.status, edit.stderr).toBe(0);
      const shownEdit = cli(['show', edit.stdout.trim(), ...where]);
      expect(shownEdit.stdout.match(/HOLDS A SECRET \(an AWS access key id\)/g)).toHaveLength(1);
      expect(labels(edit.stdout.trim())).toEqual([' an AWS access key id']);

      // The redaction: its removed line is marked; neither output ever holds the key.
      const redact = cli(['redact', '--file', 'MEMORY.md', '--version', 'v1', ...where]);
      expect(redact.status, redact.stderr).toBe(0);
      const shown = cli(['show', redact.stdout.trim(), ...where]);
      expect(shown.stdout.match(/HOLDS A SECRET \(an AWS access key id\)/g)).toHaveLength(1);
      expect(labels(redact.stdout.trim())).toEqual(['-an AWS access key id']);
      for (const out of [shownEdit.stdout, shown.stdout, cli(['show', redact.stdout.trim(), ...where, '--json']).stdout])
        expect(out).not.toContain(id);
    });
  });
});
