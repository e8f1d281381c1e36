// The exact line model (LF, CRLF, lone CR, BOM, no final newline), line edits, kind detection and the rule catalogue.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyTextEdits, FORMAT_RULES, parseMemoryFile, pathFacts, serializeSource, splitSource } from '../../../electron/core/formats';

describe('line model', () => {
  const samples = [
    '',
    'a',
    '\n',
    '\r',
    '\r\n',
    'a\nb',
    'a\nb\n',
    'a\r\nb\r\n',
    'a\rb\r',
    'a\r\nb\nc\rd',
    '\n\n\r\r\n',
    '\uFEFF',
    '\uFEFFv1\n',
    '\uFEFF\uFEFFx',
    'x\uD800y\n\uDFFF',
    'tail\r\n\r',
  ];
  it.each(samples.map((s) => [JSON.stringify(s), s]))('round-trips %s byte for byte', (_, text) => {
    const src = splitSource(text);
    expect(serializeSource(src)).toBe(text);
    expect(serializeSource(JSON.parse(JSON.stringify(src)))).toBe(text);
  });

  it('counts lines as editors do and reports the line-ending style', () => {
    expect(splitSource('')).toEqual({ bom: false, eol: 'none', finalNewline: false, lines: [] });
    expect(splitSource('a\nb')).toMatchObject({ eol: 'lf', finalNewline: false, lines: ['a', 'b'] });
    expect(splitSource('a\r\nb\r\n')).toMatchObject({ eol: 'crlf', finalNewline: true, lines: ['a', 'b'] });
    expect(splitSource('a\rb')).toMatchObject({ eol: 'cr', lines: ['a', 'b'] });
    expect(splitSource('a\r\nb\nc')).toMatchObject({ eol: 'mixed', lines: ['a', 'b', 'c'], breaks: ['\r\n', '\n', ''] });
    expect(splitSource('\uFEFFx')).toMatchObject({ bom: true, lines: ['x'] });
  });

  it('applies edits: replace, insert, append, delete, keeping each line ending', () => {
    expect(applyTextEdits('a\r\nb\r\nc\r\n', [{ line: 2, endLine: 2, text: 'B' }])).toBe('a\r\nB\r\nc\r\n');
    expect(applyTextEdits('a\r\nb\r\n', [{ line: 1, endLine: 0, text: 'v1' }])).toBe('v1\r\na\r\nb\r\n');
    expect(applyTextEdits('a\nb', [{ line: 3, endLine: 2, text: 'c' }])).toBe('a\nb\nc');
    expect(applyTextEdits('a\nb\n', [{ line: 3, endLine: 2, text: 'c' }])).toBe('a\nb\nc\n');
    expect(applyTextEdits('a\nb\nc\n', [{ line: 2, endLine: 2, text: '' }])).toBe('a\nc\n');
    expect(applyTextEdits('a\nb', [{ line: 2, endLine: 2, text: '' }])).toBe('a');
    expect(
      applyTextEdits('\uFEFFa\nb\n', [
        { line: 1, endLine: 1, text: 'x\ny' },
        { line: 2, endLine: 2, text: 'z' },
      ]),
    ).toBe('\uFEFFx\ny\nz\n');
    expect(applyTextEdits('', [{ line: 1, endLine: 0, text: 'v1' }])).toBe('v1');
  });
});

describe('kind from path', () => {
  const cases: Array<[string, string, string | null, 'v1' | 'v2' | null]> = [
    ['memory_summary.md', 'memory_summary', 'memory_summary.md', null],
    ['/home/dana/.codex/memories_v2/memory_summary.md', 'memory_summary', 'memory_summary.md', 'v2'],
    ['memories/MEMORY.md', 'memory_md', 'MEMORY.md', 'v1'],
    ['C:\\Users\\dana\\.codex\\memories\\raw_memories.md', 'raw_memories', 'raw_memories.md', 'v1'],
    ['rollout_summaries/2026-03-02T17-05-44-k3Qz-x.md', 'rollout_summary', 'rollout_summaries/2026-03-02T17-05-44-k3Qz-x.md', null],
    ['skills/a/SKILL.md', 'skill', 'skills/a/SKILL.md', null],
    ['skills/a/scripts/check.sh', 'unknown', 'skills/a/scripts/check.sh', null],
    ['extensions/ad_hoc/notes/2026-03-02T17-05-44-x.md', 'ad_hoc_note', 'extensions/ad_hoc/notes/2026-03-02T17-05-44-x.md', null],
    ['extensions/ad_hoc/instructions.md', 'extension_instructions', 'extensions/ad_hoc/instructions.md', null],
    ['extensions/chronicle/manifest.json', 'extension_manifest', 'extensions/chronicle/manifest.json', null],
    ['extensions/chronicle/resources/2026-03-02T17-05-44-x.md', 'unknown', 'extensions/chronicle/resources/2026-03-02T17-05-44-x.md', null],
    [
      'extensions/external_agent_import/resources/k/scope.json',
      'extension_scope',
      'extensions/external_agent_import/resources/k/scope.json',
      null,
    ],
    [
      'extensions/external_agent_import/resources/k/MEMORY.md',
      'claude_memory_index',
      'extensions/external_agent_import/resources/k/MEMORY.md',
      null,
    ],
    [
      'extensions/external_agent_import/resources/k/sub/user_role.md',
      'claude_memory_topic',
      'extensions/external_agent_import/resources/k/sub/user_role.md',
      null,
    ],
    ['/home/dana/.claude/projects/-home-dana-memories/memory/MEMORY.md', 'claude_memory_index', null, null],
    ['/home/dana/.claude/projects/-home-dana-x/memory/feedback.md', 'claude_memory_topic', null, null],
    ['C:\\Users\\me\\.claude\\projects\\C--Users-me-p\\memory\\user.md', 'claude_memory_topic', null, null],
    ['phase2_workspace_diff.md', 'workspace_diff', 'phase2_workspace_diff.md', null],
    ['/tmp/elsewhere/memory_summary.md', 'memory_summary', null, null],
    ['/tmp/elsewhere/notes.md', 'unknown', null, null],
    ['notes.md', 'unknown', 'notes.md', null],
    ['backup/2026/memory_summary.md', 'memory_summary', 'backup/2026/memory_summary.md', null],
    ['memories/old/MEMORY.md', 'unknown', 'old/MEMORY.md', 'v1'],
    ['\\\\?\\C:\\Users\\me\\.codex\\memories\\MEMORY.md', 'memory_md', 'MEMORY.md', 'v1'],
    ['', 'unknown', '', null],
  ];
  it.each(cases)('%s → %s', (path, kind, rel, version) => {
    expect(pathFacts(path)).toMatchObject({ kind, rel, version });
  });

  it('an explicit kind and version win', () => {
    expect(pathFacts('whatever.txt', 'claude_memory_topic')).toMatchObject({ kind: 'claude_memory_topic' });
    expect(pathFacts('memory_summary.md', undefined, 'v2')).toMatchObject({ version: 'v2' });
    expect(parseMemoryFile('x', { path: 'a.md', kind: 'skill' }).kind).toBe('skill');
  });
});

describe('rule catalogue', () => {
  const srcDir = resolve(import.meta.dirname, '../../../electron/core/formats');
  const emitted = new Set<string>();
  for (const f of readdirSync(srcDir).filter((n) => n.endsWith('.ts') && n !== 'rules.ts')) {
    for (const m of readFileSync(join(srcDir, f), 'utf8').matchAll(/'((?:codex|template|format|claude)\/[a-z0-9-]+)'/g))
      emitted.add(m[1] as string);
  }
  it('lists exactly the rules the parsers emit', () => {
    expect([...emitted].sort()).toEqual(Object.keys(FORMAT_RULES).sort());
  });

  it('every rule (but the internal parser-error guard) is exercised by a test', () => {
    const tests = readdirSync(import.meta.dirname)
      .filter((n) => n.endsWith('.test.ts') && n !== 'lines-kinds.test.ts')
      .map((n) => readFileSync(join(import.meta.dirname, n), 'utf8'))
      .join('\n');
    const untested = Object.keys(FORMAT_RULES).filter((r) => r !== 'format/parser-error' && !tests.includes(`'${r}'`));
    expect(untested).toEqual([]);
  });
});
