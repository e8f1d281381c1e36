// SKILL.md, ad-hoc notes, the front-matter reader and Claude Code memory files (index and topics), with their rules.
import { describe, expect, it } from 'vitest';
import { parseYamlSubset, readFrontMatter } from '../../../electron/core/formats/front-matter';
import { parseAs, rulesOf, SPEC_SKILL, withRule } from './helpers';

const SKILL_PATH = 'skills/invoice-pdf-test-fix/SKILL.md';

describe('front matter subset', () => {
  it('reads scalars, quotes, flow and block lists, one nesting level and block scalars', () => {
    const lines = [
      'name: demo # a comment',
      'quoted: "a \\"b\\" \\u00e9 # not a comment"',
      "single: 'it''s'",
      'flow: [a, "b, c", d]',
      'block:',
      '  - one',
      '  - "two"',
      'metadata:   ',
      '  type: feedback',
      '  originSessionId: 1234',
      '  tags: [x, y]',
      '  nested:',
      '    - deep',
      'literal: |',
      '  line one',
      '  line two',
      'folded: >',
      '  folded',
      '  text',
      '__proto__: safe',
      '  stray indented line',
      ': no key',
    ];
    const { fields, problems } = parseYamlSubset(lines, 0, lines.length);
    expect(fields).toEqual(
      Object.defineProperty(
        {
          name: 'demo',
          quoted: 'a "b" é # not a comment',
          single: "it's",
          flow: ['a', 'b, c', 'd'],
          block: ['one', 'two'],
          metadata: { type: 'feedback', originSessionId: '1234', tags: ['x', 'y'], nested: ['deep'] },
          literal: 'line one\nline two',
          folded: 'folded text',
        },
        '__proto__',
        { value: 'safe stray indented line', enumerable: true },
      ),
    );
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(problems.map((p) => p.line)).toEqual([22]);
    expect(parseYamlSubset(['description: one', '  two', 'x: y'], 0, 3).fields).toEqual({ description: 'one two', x: 'y' });
  });

  it('reports unclosed quotes and unclosed blocks', () => {
    expect(parseYamlSubset(['a: "open'], 0, 1).problems).toHaveLength(1);
    expect(readFrontMatter(['---', 'a: b'])).toMatchObject({ closed: false, range: { line: 1, endLine: 1 } });
    expect(readFrontMatter(['# title'])).toMatchObject({ range: null });
  });
});

describe('SKILL.md', () => {
  it('parses the spec example', () => {
    const p = parseAs('skill', SPEC_SKILL, SKILL_PATH);
    expect(p.diagnostics).toEqual([]);
    expect(p).toMatchObject({
      folder: 'invoice-pdf-test-fix',
      name: 'invoice-pdf-test-fix',
      description: 'Use when invoice-svc PDF export tests fail with glyph/width mismatches in CI.',
      frontMatter: { 'argument-hint': '[test-filter]' },
      frontMatterRange: { line: 1, endLine: 5 },
      body: { line: 6, endLine: 11 },
    });
    expect(p.sections.map((s) => s.title)).toEqual(['When to use', 'Procedure', 'Verification checklist']);
  });

  const cases: Array<[string, string, string, number]> = [
    ['format/front-matter', SPEC_SKILL.replace(/^---\n[\s\S]*?---\n/, ''), 'error', 1],
    ['format/front-matter', SPEC_SKILL.replace(/---\n## When/, '## When'), 'error', 1],
    ['format/front-matter', SPEC_SKILL.replace('argument-hint:', 'argument hint\n  broken'), 'warning', 4],
    ['format/skill-name', SPEC_SKILL.replace('name: invoice-pdf-test-fix', 'name: Invoice PDF'), 'warning', 1],
    ['format/skill-name', SPEC_SKILL.replace('name: invoice-pdf-test-fix', 'name: other-skill'), 'warning', 1],
    ['format/skill-name', SPEC_SKILL.replace('name: invoice-pdf-test-fix\n', ''), 'warning', 1],
    ['format/skill-description', SPEC_SKILL.replace(/description: .*\n/, ''), 'warning', 1],
    ['format/skill-unknown-key', SPEC_SKILL.replace('argument-hint', 'arguments'), 'info', 1],
    ['format/skill-length', SPEC_SKILL + '- step\n'.repeat(500), 'info', 6],
  ];
  it.each(cases)('%s fails on the broken example, and the example passes', (rule, bad, severity, line) => {
    const p = parseAs('skill', bad, SKILL_PATH);
    expect(withRule(p, rule)[0], JSON.stringify(p.diagnostics)).toMatchObject({ severity, line });
    expect(rulesOf(parseAs('skill', SPEC_SKILL, SKILL_PATH))).not.toContain(rule);
  });
});

describe('ad-hoc notes', () => {
  const good = 'extensions/ad_hoc/notes/2026-03-02T17-05-44-remember-german-pr-text.md';
  it('checks the name by Codex rules and extracts timestamp and slug', () => {
    const p = parseAs('ad_hoc_note', '# Remember\n\nBitte merken: PR-Beschreibungen auf Deutsch.\r\n', good);
    expect(p).toMatchObject({
      nameValid: true,
      timestamp: '2026-03-02T17-05-44',
      slug: 'remember-german-pr-text',
      title: { text: 'Remember', line: 1 },
      diagnostics: [],
    });
  });

  const bad: Array<[string, string | null]> = [
    ['2026-03-02T17-05-44-Remember.md', 'Remember'],
    ['2026-03-02T17-05-44--dash-first.md', '-dash-first'],
    ['2026-03-02T17-05-44-under_score.md', 'under_score'],
    [`2026-03-02T17-05-44-${'a'.repeat(81)}.md`, 'a'.repeat(81)],
    ['2026-03-02-note.md', null],
    ['2026-03-02T17-05-44-ok.txt', 'ok.txt'],
  ];
  it.each(bad)('codex/ad-hoc-note-name rejects %s', (name, slug) => {
    const p = parseAs('ad_hoc_note', '# Note\n', `extensions/ad_hoc/notes/${name}`, { kind: 'ad_hoc_note' });
    expect(p.nameValid).toBe(false);
    expect(p.slug).toBe(slug);
    expect(withRule(p, 'codex/ad-hoc-note-name')).toHaveLength(1);
  });

  it('accepts the length bounds 24 and 128', () => {
    expect(parseAs('ad_hoc_note', 'x', 'extensions/ad_hoc/notes/2026-03-02T17-05-44-a.md').nameValid).toBe(true);
    expect('2026-03-02T17-05-44-a.md').toHaveLength(24);
    const longest = `2026-03-02T17-05-44-${'b'.repeat(80)}.md`;
    expect(longest.length).toBeLessThanOrEqual(128);
    expect(parseAs('ad_hoc_note', 'x', `extensions/ad_hoc/notes/${longest}`).nameValid).toBe(true);
  });

  it('format/empty-note flags a blank note', () => {
    expect(withRule(parseAs('ad_hoc_note', '\n  \n', good), 'format/empty-note')).toHaveLength(1);
    expect(rulesOf(parseAs('ad_hoc_note', 'text', good))).toEqual([]);
  });
});

const CLAUDE = '/home/dana/.claude/projects/-home-dana-src-webapp/memory';
const INDEX = `# Memory Index

- [Testing workflow](feedback_testing.md) — How Dana wants tests run
- [[project_release_train]] release cadence
- user_role.md: Dana's role
- see [docs](https://example.com/x.md) and [anchor](#top)
- [Nested](<topics/design tokens.md>)
`;

describe('Claude Code memory index', () => {
  it('finds links, wiki links and bare file names, but not URLs or anchors', () => {
    const p = parseAs('claude_memory_index', INDEX, `${CLAUDE}/MEMORY.md`);
    expect(p.diagnostics).toEqual([]);
    expect(p.entries.map((e) => [e.form, e.target, e.text, e.description, e.line])).toEqual([
      ['link', 'feedback_testing.md', 'Testing workflow', 'How Dana wants tests run', 3],
      ['wiki', 'project_release_train', 'project_release_train', 'release cadence', 4],
      ['bare', 'user_role.md', 'user_role.md', "Dana's role", 5],
      ['link', 'topics/design tokens.md', 'Nested', null, 7],
    ]);
    expect(p.title?.text).toBe('Memory Index');
  });

  it('claude/index-limit: past 200 lines or 25 KiB', () => {
    const long = parseAs('claude_memory_index', `${INDEX}${'- [x](x.md)\n'.repeat(210)}`, `${CLAUDE}/MEMORY.md`);
    expect(withRule(long, 'claude/index-limit')).toMatchObject([{ line: 201, endLine: 217 }]);
    expect(withRule(long, 'claude/index-limit')[0]?.message).toMatch(/17 pointers/);
    const wide = parseAs('claude_memory_index', `- [x](x.md) ${'é'.repeat(14_000)}\n`, `${CLAUDE}/MEMORY.md`);
    expect(rulesOf(wide)).toEqual(['claude/index-limit']);
    expect(rulesOf(parseAs('claude_memory_index', INDEX, `${CLAUDE}/MEMORY.md`))).toEqual([]);
  });

  it('claude/index-no-entries: inline memory without pointers', () => {
    const p = parseAs('claude_memory_index', '# Notes\n\n- always run pnpm lint\n', `${CLAUDE}/MEMORY.md`);
    expect(rulesOf(p)).toEqual(['claude/index-no-entries']);
  });
});

const FLAT = `---
name: Testing workflow
description: "How Dana wants tests run: always"
type: feedback
created: 2026-01-02
---

Run \`pnpm vitest run\` before a commit. See [[release_train]].

**Why:** a broken main blocked a release.
`;
const NESTED = `---
name: Testing workflow
description: How Dana wants tests run
metadata:   
  type: project
  originSessionId: 8c1f2a9e-1111-4222-8333-444455556666
  modified: 2026-02-03T10:00:00Z
node_type: memory
---
Body 日本語 🚀
`;

describe('Claude Code topic files', () => {
  it('flat layout', () => {
    const p = parseAs('claude_memory_topic', FLAT, `${CLAUDE}/feedback_testing.md`);
    expect(p).toMatchObject({
      layout: 'flat',
      name: 'Testing workflow',
      description: 'How Dana wants tests run: always',
      type: 'feedback',
      frontMatterRange: { line: 1, endLine: 6 },
      body: { line: 7, endLine: 10 },
      links: [{ target: 'release_train', line: 8 }],
      diagnostics: [],
    });
  });

  it('nested metadata layout with trailing spaces after "metadata:"', () => {
    const p = parseAs('claude_memory_topic', NESTED, `${CLAUDE}/project_x.md`);
    expect(p).toMatchObject({
      layout: 'nested',
      type: 'project',
      frontMatter: {
        metadata: { originSessionId: '8c1f2a9e-1111-4222-8333-444455556666', modified: '2026-02-03T10:00:00Z' },
        node_type: 'memory',
      },
      diagnostics: [],
    });
  });

  const cases: Array<[string, string, number]> = [
    ['claude/front-matter', 'Just a body\n', 1],
    ['claude/front-matter', '---\nname: x\n', 1],
    ['claude/front-matter', FLAT.replace('type: feedback', 'type feedback'), 4],
    ['claude/topic-type', FLAT.replace('type: feedback', 'type: opinion'), 1],
    ['claude/topic-type', FLAT.replace('type: feedback\n', ''), 1],
    ['claude/topic-fields', FLAT.replace(/^name: .*\n/m, ''), 1],
  ];
  it.each(cases)('%s fails on the broken example, and the example passes', (rule, bad, line) => {
    const p = parseAs('claude_memory_topic', bad, `${CLAUDE}/feedback_testing.md`);
    expect(withRule(p, rule)[0]?.line, JSON.stringify(p.diagnostics)).toBe(line);
    expect(rulesOf(parseAs('claude_memory_topic', FLAT, `${CLAUDE}/feedback_testing.md`))).toEqual([]);
  });
});
