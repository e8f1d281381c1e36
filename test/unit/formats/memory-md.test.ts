// MEMORY.md: the spec example's blocks, tasks, file bullets and sections, and every handbook rule failing and passing.
import { describe, expect, it } from 'vitest';
import { parseRefBullet } from '../../../electron/core/formats/memory-md';
import { applyFixes, parseAs, rulesOf, SPEC_MEMORY_MD, withRule } from './helpers';

const PATH = 'MEMORY.md';
const IMPORTED_BLOCK = `
# Task Group: webapp conventions imported from Claude Code

scope: project memory imported from Claude Code for webapp
applies_to: cwd=C:\\Users\\dana\\src\\webapp; reuse_rule=verify against the repository before relying on it

## Task 1: imported Claude Code project memory for webapp, uncertain

### extension_resource_files

- extensions/external_agent_import/resources/-home-dana-src-webapp/MEMORY.md (cwd=C:\\Users\\dana\\src\\webapp, source=external_agent_import)

### keywords

- pnpm vitest run, release train

## User preferences

- run \`pnpm vitest run\` before proposing a commit (imported) [Task 1]

## Reusable knowledge

- Related skill: skills/webapp-e2e-triage/SKILL.md [Task 1]
`;

describe('MEMORY.md: spec example', () => {
  it('parses the block header, tasks, file bullets, keywords and block sections', () => {
    const p = parseAs('memory_md', SPEC_MEMORY_MD, PATH);
    expect(p.diagnostics).toEqual([]);
    expect(p.blocks).toHaveLength(1);
    const [block] = p.blocks;
    expect(block).toMatchObject({
      title: 'invoice-svc CI and test stability',
      line: 1,
      endLine: 26,
      scope: 'flaky tests and CI image quirks in invoice-svc; not renderer feature work',
      appliesTo: { cwd: '/home/dana/src/invoice-svc', reuseRule: 'safe while CI image is ubuntu-22 based', line: 4 },
      keywords: ['pdf export', 'FONTCONFIG_FILE', 'glyph width', 'pytest -k export'],
      skillRefs: [],
    });
    expect(block?.tasks).toEqual([
      {
        number: 1,
        title: 'fix flaky PDF export test, success',
        line: 6,
        endLine: 14,
        rolloutSummaryFiles: [
          {
            file: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
            path: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
            fields: {
              cwd: '/home/dana/src/invoice-svc',
              rollout_path: '/home/dana/.codex/sessions/2026/03/02/rollout-2026-03-02T17-05-44-019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61.jsonl',
              updated_at: '2026-03-02T18:40:11+00:00',
              thread_id: '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61',
            },
            note: 'fix validated in CI',
            line: 10,
            endLine: 10,
          },
        ],
        extensionResourceFiles: [],
        keywords: ['pdf export', 'FONTCONFIG_FILE', 'glyph width', 'pytest -k export'],
      },
    ]);
    expect(block?.sections.map((s) => [s.title, s.line, s.endLine, s.bullets.map((b) => b.taskRefs)])).toEqual([
      ['User preferences', 16, 18, [[1]]],
      ['Reusable knowledge', 20, 22, [[1]]],
      ['Failures and how to do differently', 24, 26, [[1]]],
    ]);
  });

  it('reads imported blocks with extension_resource_files, Windows cwd and skill references', () => {
    const p = parseAs('memory_md', SPEC_MEMORY_MD + IMPORTED_BLOCK, PATH);
    expect(p.diagnostics).toEqual([]);
    const block = p.blocks[1];
    expect(block?.appliesTo?.cwd).toBe('C:\\Users\\dana\\src\\webapp');
    expect(block?.tasks[0]?.extensionResourceFiles[0]).toMatchObject({
      file: 'extensions/external_agent_import/resources/-home-dana-src-webapp/MEMORY.md',
      fields: { cwd: 'C:\\Users\\dana\\src\\webapp', source: 'external_agent_import' },
      note: '',
    });
    expect(block?.skillRefs).toEqual(['skills/webapp-e2e-triage/SKILL.md']);
  });

  it('splits file bullets into leading key=value fields and the free note', () => {
    expect(parseRefBullet('rollout_summaries/a.md (cwd=/x, thread_id=1, fixed, then verified, k=v)', 3)).toEqual({
      file: 'rollout_summaries/a.md',
      path: 'rollout_summaries/a.md',
      fields: { cwd: '/x', thread_id: '1' },
      note: 'fixed, then verified, k=v',
      line: 3,
      endLine: 3,
    });
    expect(parseRefBullet('rollout_summaries/a.md', 1)).toMatchObject({ fields: {}, note: '' });
    expect(parseRefBullet('rollout_summaries/a.md (__proto__=x)', 1).fields).toEqual(
      Object.defineProperty({}, '__proto__', { value: 'x', enumerable: true }),
    );
  });
});

/** [rule, bad text, line of the first finding]; the good case is the unmodified spec example. */
const cases: Array<[string, string, number]> = [
  ['template/block-heading', SPEC_MEMORY_MD.replace('# Task Group: ', '# '), 1],
  ['template/content-before-block', `Notes for later\n\n${SPEC_MEMORY_MD}`, 1],
  ['template/block-header', SPEC_MEMORY_MD.replace(/^scope: .*\n/m, ''), 1],
  ['template/block-header', SPEC_MEMORY_MD.replace(/^applies_to: .*\n/m, ''), 1],
  ['template/applies-to', SPEC_MEMORY_MD.replace('; reuse_rule=safe while CI image is ubuntu-22 based', ''), 4],
  ['template/placeholder-group', SPEC_MEMORY_MD.replace('invoice-svc CI and test stability', '<task group>'), 1],
  ['template/block-tasks', SPEC_MEMORY_MD.replace(/## Task 1:[\s\S]*?(?=## User preferences)/, ''), 1],
  ['template/task-heading', SPEC_MEMORY_MD.replace('## Task 1: fix', '## Task one fix'), 6],
  ['template/task-sections', SPEC_MEMORY_MD.replace(/### keywords\n\n- .*\n/, ''), 6],
  ['template/task-sections', SPEC_MEMORY_MD.replace(/### rollout_summary_files\n\n- .*\n/, ''), 6],
  ['template/task-numbering', SPEC_MEMORY_MD.replace('## Task 1:', '## Task 2:').replace(/\[Task 1\]/g, '[Task 2]'), 6],
  ['template/task-ref', SPEC_MEMORY_MD.replace('explain cause first [Task 1]', 'explain cause first [Task 3]'), 18],
  ['template/file-bullet', SPEC_MEMORY_MD.replace('- rollout_summaries/2026', '- rollouts/2026'), 10],
  ['template/keywords-format', SPEC_MEMORY_MD.replace('- pdf export, FONTCONFIG_FILE', '- pdf export\n- FONTCONFIG_FILE'), 15],
  [
    'template/section-order',
    SPEC_MEMORY_MD.replace('## User preferences', '## Failures and how to do differently').replace(
      /## Failures and how to do differently\n\n- symptom/,
      '## User preferences\n\n- symptom',
    ),
    20,
  ],
  ['template/section-order', SPEC_MEMORY_MD.replace('## Reusable knowledge', '## Task 2: late task, success'), 20],
  ['template/unknown-section', SPEC_MEMORY_MD.replace('## Reusable knowledge', '## Tips'), 20],
  ['template/unknown-section', SPEC_MEMORY_MD.replace('### keywords', '### tags'), 12],
  ['template/dash-bullets', SPEC_MEMORY_MD.replace('- symptom:', '* symptom:'), 26],
  ['template/no-bold', SPEC_MEMORY_MD.replace('explain cause first', '**explain cause first**'), 18],
];

describe('MEMORY.md rules', () => {
  it('the spec example passes every rule', () => {
    expect(rulesOf(parseAs('memory_md', SPEC_MEMORY_MD, PATH))).toEqual([]);
  });

  it.each(cases)('%s fails on the broken example', (rule, bad, line) => {
    const p = parseAs('memory_md', bad, PATH);
    const found = withRule(p, rule);
    expect(found.length, JSON.stringify(p.diagnostics)).toBeGreaterThan(0);
    expect(found[0]?.line).toBe(line);
  });

  it('dash-bullets and no-bold fixes restore the example', () => {
    const dashed = SPEC_MEMORY_MD.replace('- symptom:', '* symptom:');
    expect(applyFixes(dashed, parseAs('memory_md', dashed, PATH), 'template/dash-bullets')).toBe(SPEC_MEMORY_MD);
    const bold = SPEC_MEMORY_MD.replace('explain cause first', '**explain cause first**');
    expect(applyFixes(bold, parseAs('memory_md', bold, PATH), 'template/no-bold')).toBe(SPEC_MEMORY_MD);
    const codeBold = SPEC_MEMORY_MD.replace('explain cause first', 'run `a**b**c`');
    expect(rulesOf(parseAs('memory_md', codeBold, PATH))).not.toContain('template/no-bold');
  });

  it('ignores headings inside code fences, but a "# Task Group:" line closes an unclosed fence', () => {
    const fenced = SPEC_MEMORY_MD.replace(
      '## Reusable knowledge\n',
      '## Reusable knowledge\n\n```md\n## Task 9: not a task\n### keywords\n- nope\n```\n',
    );
    const p = parseAs('memory_md', fenced, PATH);
    expect(p.blocks).toHaveLength(1);
    expect(p.diagnostics).toEqual([]);
    const unclosed = parseAs(
      'memory_md',
      SPEC_MEMORY_MD.replace('## Reusable knowledge\n', '## Reusable knowledge\n\n```sh\nls\n') + IMPORTED_BLOCK,
      PATH,
    );
    expect(unclosed.blocks).toHaveLength(2);
    expect(rulesOf(unclosed)).toContain('format/unclosed-fence');
  });
});
