// raw_memories.md and rollout_summaries/*.md: the spec examples, Codex's naming rule, and each rule failing and passing.
import { describe, expect, it } from 'vitest';
import { expectedStemPrefix, rolloutShortHash } from '../../../electron/core/formats/names';
import { parseAs, rulesOf, SPEC_RAW_MEMORIES, SPEC_ROLLOUT_SUMMARY, SPEC_ROLLOUT_SUMMARY_NAME, withRule } from './helpers';

const THREAD = '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61';
/** The spec's example name does not follow from its thread id; this is the name Codex would give it. */
const CODEX_NAME = `rollout_summaries/${expectedStemPrefix(THREAD, null)}-fix_flaky_pdf_export_test.md`;

describe('raw_memories.md', () => {
  it('parses the spec example: thread header, front matter and tasks', () => {
    const p = parseAs('raw_memories', SPEC_RAW_MEMORIES, 'raw_memories.md');
    expect(p.diagnostics).toEqual([]);
    expect(p.title).toBe('Raw Memories');
    expect(p.empty).toBe(false);
    expect(p.threads).toEqual([
      {
        threadId: THREAD,
        line: 5,
        endLine: 35,
        updatedAt: '2026-03-02T18:40:11+00:00',
        cwd: '/home/dana/src/invoice-svc',
        rolloutPath: `/home/dana/.codex/sessions/2026/03/02/rollout-2026-03-02T17-05-44-${THREAD}.jsonl`,
        rolloutSummaryFile: '2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
        // Codex writes the bare file name; the parser hands over where it is in the root.
        rolloutSummaryPath: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
        fields: expect.objectContaining({ cwd: '/home/dana/src/invoice-svc' }),
        frontMatter: {
          description: 'fixed flaky PDF export test by pinning fonts; user wants failing tests explained before edits',
          task: 'fix flaky pdf export test',
          task_group: 'invoice-svc testing',
          task_outcome: 'success',
          cwd: '/home/dana/src/invoice-svc',
          keywords: 'pdf export, fontconfig, pytest -k export, flaky',
        },
        frontMatterRange: { line: 11, endLine: 18 },
        tasks: [
          {
            number: 1,
            title: 'stabilise PDF export test',
            line: 20,
            endLine: 35,
            task: 'fix flaky pdf export test',
            taskGroup: 'invoice-svc testing',
            outcome: 'success',
          },
        ],
      },
    ]);
  });

  it('recognises the empty file Codex writes', () => {
    const p = parseAs('raw_memories', '# Raw Memories\n\nNo raw memories yet.\n', 'raw_memories.md');
    expect(p).toMatchObject({ empty: true, threads: [], diagnostics: [] });
  });

  const second = SPEC_RAW_MEMORIES.slice(SPEC_RAW_MEMORIES.indexOf('## Thread')).replace(THREAD, '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a62');
  const cases: Array<[string, string, number]> = [
    ['format/raw-header', SPEC_RAW_MEMORIES.replace('# Raw Memories', '# Memories'), 1],
    ['format/thread-heading', SPEC_RAW_MEMORIES.replace(`## Thread \`${THREAD}\``, `## Thread ${THREAD}`), 5],
    ['format/thread-fields', SPEC_RAW_MEMORIES.replace(/^cwd: \/home\/dana\/src\/invoice-svc\nrollout_path/m, 'rollout_path'), 5],
    ['format/front-matter', SPEC_RAW_MEMORIES.replace(/---\ndescription[\s\S]*?---\n/, ''), 5],
    ['format/front-matter', SPEC_RAW_MEMORIES.replace(/keywords: pdf export, fontconfig, pytest -k export, flaky\n---/, 'keywords: x'), 11],
    ['format/task-outcome', SPEC_RAW_MEMORIES.replace('task_outcome: success\ncwd', 'task_outcome: done\ncwd'), 11],
    ['format/task-outcome', SPEC_RAW_MEMORIES.replace('task_outcome: success\n\nPreference', 'task_outcome: worked\n\nPreference'), 23],
    ['format/thread-order', `${SPEC_RAW_MEMORIES}\n${second.replace('5a62', '5a60')}`, 37],
    ['format/duplicate-thread', `${SPEC_RAW_MEMORIES}\n${second.replace('5a62', '5a61')}`, 37],
    ['format/unclosed-fence', SPEC_RAW_MEMORIES.replace('References:', 'References:\n```sh'), 35],
  ];
  it.each(cases)('%s fails on the broken example, and the example passes', (rule, bad, line) => {
    const p = parseAs('raw_memories', bad, 'raw_memories.md');
    expect(withRule(p, rule)[0]?.line, JSON.stringify(p.diagnostics)).toBe(line);
    expect(rulesOf(parseAs('raw_memories', SPEC_RAW_MEMORIES, 'raw_memories.md'))).not.toContain(rule);
  });

  it('an unclosed fence in one thread does not hide the next thread', () => {
    const p = parseAs('raw_memories', `${SPEC_RAW_MEMORIES.replace('References:', 'References:\n```sh')}\n${second}`, 'raw_memories.md');
    expect(p.threads.map((t) => t.threadId)).toEqual([THREAD, '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a62']);
    expect(rulesOf(p)).toEqual(['format/unclosed-fence']);
  });
});

describe('rollout_summaries/<stem>.md', () => {
  it('parses the spec example: plain header, title, sections, task outcome', () => {
    const p = parseAs('rollout_summary', SPEC_ROLLOUT_SUMMARY, CODEX_NAME);
    expect(p.diagnostics).toEqual([]);
    expect(p.header).toEqual({
      threadId: THREAD,
      updatedAt: '2026-03-02T18:40:11+00:00',
      rolloutPath: `/home/dana/.codex/sessions/2026/03/02/rollout-2026-03-02T17-05-44-${THREAD}.jsonl`,
      cwd: '/home/dana/src/invoice-svc',
      gitBranch: 'fix/pdf-fonts',
    });
    expect(p.headerRange).toEqual({ line: 1, endLine: 5 });
    expect(p.title).toEqual({ text: 'Stabilised the flaky PDF export test by pinning fonts in CI.', line: 7, endLine: 7 });
    expect(p.tasks).toEqual([{ number: 1, title: 'stabilise PDF export test', outcome: 'success', line: 11, endLine: 21 }]);
    expect(p.sections.map((s) => [s.level, s.title])).toEqual([
      [1, 'Stabilised the flaky PDF export test by pinning fonts in CI.'],
      [2, 'Task 1: stabilise PDF export test'],
    ]);
  });

  it('leaves gitBranch out when the header has none', () => {
    const p = parseAs('rollout_summary', SPEC_ROLLOUT_SUMMARY.replace('git_branch: fix/pdf-fonts\n', ''), CODEX_NAME);
    expect('gitBranch' in p.header).toBe(false);
    expect(p.diagnostics).toEqual([]);
  });

  it("derives Codex's stem exactly like Codex's own test vector", () => {
    expect(expectedStemPrefix('0194f5a6-89ab-7cde-8123-456789abcdef', '1970-01-01T00:02:03+00:00')).toBe('2025-02-11T15-35-19-jqmb');
    expect(rolloutShortHash('not-a-uuid')).toMatch(/^[0-9A-Za-z]{4}$/);
    // Non-v7 ids fall back to updated_at, as Codex does.
    expect(expectedStemPrefix('thread-1', '2026-03-02T18:40:11+00:00')).toMatch(/^2026-03-02T18-40-11-/);
  });

  const cases: Array<[string, string, string, number]> = [
    ['format/summary-header', SPEC_ROLLOUT_SUMMARY.replace(/^cwd: .*\n/m, ''), CODEX_NAME, 1],
    ['format/summary-header', SPEC_ROLLOUT_SUMMARY.replace(/^[\s\S]*?\n\n/, ''), CODEX_NAME, 1],
    [
      'format/summary-header',
      SPEC_ROLLOUT_SUMMARY.replace('git_branch: fix/pdf-fonts\n', 'git_branch: fix/pdf-fonts\nmodel: gpt-5\n'),
      CODEX_NAME,
      6,
    ],
    ['format/summary-file-name', SPEC_ROLLOUT_SUMMARY, SPEC_ROLLOUT_SUMMARY_NAME, 1],
    ['format/summary-file-name', SPEC_ROLLOUT_SUMMARY, 'rollout_summaries/my notes.md', 1],
    ['format/summary-title', SPEC_ROLLOUT_SUMMARY.replace('# Stabilised', 'Stabilised'), CODEX_NAME, 7],
  ];
  it.each(cases)('%s fails on the broken example, and the example passes', (rule, bad, path, line) => {
    const p = parseAs('rollout_summary', bad, path);
    expect(withRule(p, rule)[0]?.line, JSON.stringify(p.diagnostics)).toBe(line);
    expect(rulesOf(parseAs('rollout_summary', SPEC_ROLLOUT_SUMMARY, CODEX_NAME))).not.toContain(rule);
  });

  it('v2 summaries are free-form: no title is fine', () => {
    const p = parseAs('rollout_summary', SPEC_ROLLOUT_SUMMARY.replace('# Stabilised', 'Stabilised'), `memories_v2/${CODEX_NAME}`);
    expect(rulesOf(p)).toEqual([]);
  });
});
