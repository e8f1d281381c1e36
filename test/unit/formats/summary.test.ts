// memory_summary.md: the spec's v1 and v2 examples, scopes and pointers, and every summary rule failing and passing.
import { describe, expect, it } from 'vitest';
import { applyFixes, parseAs, rulesOf, SPEC_SUMMARY_V1, SPEC_SUMMARY_V2, withRule } from './helpers';

const V2 = 'memories_v2/memory_summary.md';
const V1 = 'memory_summary.md';

describe('memory_summary.md: spec examples', () => {
  it('v2: sections, scopes, date groups, older topics and pointers with sub-bullets', () => {
    const p = parseAs('memory_summary', SPEC_SUMMARY_V2, V2);
    expect(p.version).toBe('v2');
    expect(p.firstLineOk).toBe(true);
    expect(p.style).toBe('pointers');
    expect(p.diagnostics).toEqual([]);
    expect(p.sections.filter((s) => s.level === 2).map((s) => [s.title, s.line, s.endLine])).toEqual([
      ['User Profile', 2, 3],
      ['User preferences', 4, 5],
      ['General Tips', 6, 7],
      ["What's in Memory", 8, 15],
    ]);
    expect(p.pointers).toEqual([
      {
        file: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
        path: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
        sentence: 'pinned fonts to fix flaky PDF export test',
        threadId: '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61',
        valid: true,
        line: 11,
        endLine: 12,
        subBullets: [{ label: 'PR', value: 'https://git.example.com/dana/invoice-svc/pull/412', line: 12, endLine: 12 }],
      },
      expect.objectContaining({
        file: 'rollout_summaries/2026-01-11T09-12-03-Ab12-zsh_prompt_tweaks.md',
        threadId: '0199f3aa-0000-7000-8000-00000000ab12',
        line: 15,
      }),
    ]);
    expect(p.scopes.map((s) => [s.name, s.older, s.line, s.endLine, s.dateGroups.map((g) => g.date), s.pointers.length])).toEqual([
      ['invoice-svc', false, 9, 12, ['2026-03-02'], 0],
      ['dotfiles', true, 14, 15, [], 1],
    ]);
    expect(p.scopes[0]?.dateGroups[0]?.pointers[0]?.line).toBe(11);
    expect(p.olderTopics).toEqual({ line: 13, endLine: 15 });
  });

  it('v1: topic bullets with desc / learnings and rollout_summaries references', () => {
    const p = parseAs('memory_summary', SPEC_SUMMARY_V1, V1);
    expect(p.diagnostics).toEqual([]);
    expect(p.style).toBe('topics');
    expect(p.version).toBeNull();
    expect(p.topics).toHaveLength(2);
    expect(p.topics[0]).toEqual({
      topic: 'pdf export tests',
      keywords: ['pdf export', 'fontconfig', 'flaky'],
      desc: 'pinned fonts to fix the flaky export test (rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md)',
      learnings: 'pin fonts with FONTCONFIG_FILE',
      line: 21,
      endLine: 23,
      subBullets: [expect.objectContaining({ label: 'desc', line: 22 }), expect.objectContaining({ label: 'learnings', line: 23 })],
      rolloutRefs: [
        {
          file: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
          path: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
          line: 22,
        },
      ],
    });
    const older = p.scopes.find((s) => s.older);
    expect(older?.name).toBe('dotfiles');
    expect(older?.topics[0]?.desc).toBe('zsh prompt changes (last seen 2026-01-11)');
  });

  it('keeps Windows paths, non-English text and CRLF line endings as they are', () => {
    const text = SPEC_SUMMARY_V2.replace(
      '— pinned fonts',
      '— ' + 'Schriftarten gepinnt 日本語 C:\\Users\\dana\\src and \\\\?\\C:\\long\\path',
    ).replace(/\n/g, '\r\n');
    const p = parseAs('memory_summary', text, V2);
    expect(p.diagnostics).toEqual([]);
    expect(p.source.eol).toBe('crlf');
    expect(p.pointers[0]?.sentence).toBe(
      'Schriftarten gepinnt 日本語 C:\\Users\\dana\\src and \\\\?\\C:\\long\\path to fix flaky PDF export test',
    );
  });
});

describe('memory_summary.md rules', () => {
  it('codex/summary-first-line: missing v1 is an error whose fix inserts it', () => {
    const bad = SPEC_SUMMARY_V2.replace(/^v1\n/, '');
    const p = parseAs('memory_summary', bad, V2);
    expect(p.firstLineOk).toBe(false);
    const [d] = withRule(p, 'codex/summary-first-line');
    expect(d).toMatchObject({ severity: 'error', line: 1, fix: { edits: [{ line: 1, endLine: 0, text: 'v1' }] } });
    const fixed = applyFixes(bad, p, 'codex/summary-first-line');
    expect(fixed).toBe(SPEC_SUMMARY_V2);
    expect(rulesOf(parseAs('memory_summary', fixed, V2))).not.toContain('codex/summary-first-line');
  });

  it('codex/summary-first-line: " v1 " and "v2" are replaced; BOM and lone CR are errors without a fix; CRLF passes', () => {
    for (const first of [' v1 ', 'v2', 'V1']) {
      const bad = SPEC_SUMMARY_V2.replace(/^v1/, first);
      const p = parseAs('memory_summary', bad, V2);
      expect(applyFixes(bad, p, 'codex/summary-first-line')).toBe(SPEC_SUMMARY_V2);
    }
    const bom = parseAs('memory_summary', `\uFEFF${SPEC_SUMMARY_V2}`, V2);
    expect(withRule(bom, 'codex/summary-first-line')[0]?.message).toMatch(/byte-order mark/);
    expect(withRule(bom, 'codex/summary-first-line')[0]?.fix).toBeUndefined();
    const cr = parseAs('memory_summary', SPEC_SUMMARY_V2.replace(/\n/g, '\r'), V2);
    expect(withRule(cr, 'codex/summary-first-line')[0]?.message).toMatch(/lone CR/);
    expect(rulesOf(parseAs('memory_summary', SPEC_SUMMARY_V2.replace(/\n/g, '\r\n'), V2))).not.toContain('codex/summary-first-line');
    const empty = parseAs('memory_summary', '', V2);
    expect(applyFixes('', empty, 'codex/summary-first-line')).toBe('v1');
  });

  it('template/dash-bullets: "*" and "+" bullets get a fix to "-"', () => {
    const bad = SPEC_SUMMARY_V1.replace('- explain failing tests', '* explain failing tests').replace('  - learnings:', '  + learnings:');
    const p = parseAs('memory_summary', bad, V1);
    expect(withRule(p, 'template/dash-bullets').map((d) => d.line)).toEqual([9, 23]);
    const fixed = applyFixes(bad, p, 'template/dash-bullets');
    expect(fixed).toBe(SPEC_SUMMARY_V1);
    expect(rulesOf(parseAs('memory_summary', fixed, V1))).toEqual([]);
  });

  it('template/section-order: a required section out of order', () => {
    const bad = SPEC_SUMMARY_V2.replace(
      '## General Tips\n- invoice-svc CI images lack system fonts; export tests need pinned fonts\n',
      '',
    ).replace('## User Profile', '## General Tips\n- tip\n## User Profile');
    const p = parseAs('memory_summary', bad, V2);
    expect(withRule(p, 'template/section-order')).toHaveLength(1);
    expect(withRule(p, 'template/section-order')[0]?.line).toBe(2);
    expect(rulesOf(parseAs('memory_summary', SPEC_SUMMARY_V2, V2))).not.toContain('template/section-order');
  });

  it('template/missing-section: error in v2, warning in v1, with a fix when only the spelling differs', () => {
    const bad = SPEC_SUMMARY_V2.replace('## User preferences', '## User Preferences');
    const p2 = parseAs('memory_summary', bad, V2);
    const [d] = withRule(p2, 'template/missing-section');
    expect(d?.severity).toBe('error');
    expect(applyFixes(bad, p2, 'template/missing-section')).toBe(SPEC_SUMMARY_V2);
    const p1 = parseAs(
      'memory_summary',
      SPEC_SUMMARY_V1.replace(/## General Tips\n\n- invoice-svc CI images lack system fonts\n\n/, ''),
      V1,
    );
    expect(withRule(p1, 'template/missing-section')).toMatchObject([{ severity: 'warning', line: 1 }]);
    expect(withRule(p1, 'template/missing-section')[0]?.fix).toBeUndefined();
  });

  it('template/unknown-section: an extra "##" heading is info', () => {
    const p = parseAs('memory_summary', `${SPEC_SUMMARY_V1}\n## Scratch\n\nnotes\n`, V1);
    expect(withRule(p, 'template/unknown-section')).toMatchObject([{ severity: 'info', line: 32 }]);
  });

  it('template/date-heading: "#### <not a date>" under a project scope, and a date group without scope', () => {
    const p = parseAs('memory_summary', SPEC_SUMMARY_V2.replace('#### 2026-03-02', '#### March 2nd'), V2);
    expect(withRule(p, 'template/date-heading')).toMatchObject([{ line: 10 }]);
    expect(p.scopes[0]?.dateGroups[0]).toMatchObject({ date: 'March 2nd', valid: false });
    expect(rulesOf(parseAs('memory_summary', SPEC_SUMMARY_V2.replace('#### 2026-03-02', '#### 2026-02-30'), V2))).toContain(
      'template/date-heading',
    );
    const orphan = parseAs('memory_summary', SPEC_SUMMARY_V2.replace('### invoice-svc\n', ''), V2);
    expect(withRule(orphan, 'template/date-heading')[0]?.message).toMatch(/no "### <scope>"/);
    // Older topics use "#### <scope>", which is not a date and is fine.
    expect(rulesOf(parseAs('memory_summary', SPEC_SUMMARY_V2, V2))).not.toContain('template/date-heading');
  });

  it('template/pointer-format: wrong separator, missing or invalid thread id, backticks, missing sentence', () => {
    const line =
      '- rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md — pinned fonts to fix flaky PDF export test; thread_id=019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61';
    const variants: Array<[string, RegExp]> = [
      [line.replace(' — ', ' - '), /em dash/],
      [line.replace(/; thread_id=.*$/, ''), /thread_id=/],
      [line.replace(/thread_id=.*$/, 'thread_id=abc'), /not a full thread id/],
      [
        line.replace(
          'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
          '`rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md`',
        ),
        /backticks/,
      ],
      [line.replace('pinned fonts to fix flaky PDF export test', ''), /sentence/],
      [line.replace('.md —', '.txt —'), /rollout_summaries\/<exact file name>\.md/],
    ];
    for (const [bad, why] of variants) {
      const p = parseAs('memory_summary', SPEC_SUMMARY_V2.replace(line, bad), V2);
      const ds = withRule(p, 'template/pointer-format');
      expect(ds, bad).toHaveLength(1);
      expect(ds[0]?.message).toMatch(why);
      expect(ds[0]?.line).toBe(11);
      expect(p.pointers[0]?.valid).toBe(false);
    }
  });

  it('format/unclosed-fence: a fence that never closes', () => {
    const p = parseAs('memory_summary', `${SPEC_SUMMARY_V1}\n\`\`\`sh\nls\n`, V1);
    expect(withRule(p, 'format/unclosed-fence')).toMatchObject([{ line: 32 }]);
    expect(rulesOf(parseAs('memory_summary', `${SPEC_SUMMARY_V1}\n\`\`\`sh\nls\n\`\`\`\n`, V1))).toEqual([]);
  });
});
