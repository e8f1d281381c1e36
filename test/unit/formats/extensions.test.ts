// Extension files (manifest.json, scope.json, instructions.md) and phase2_workspace_diff.md, with their rules.
import { describe, expect, it } from 'vitest';
import { parseAs, rulesOf, SPEC_WORKSPACE_DIFF, withRule } from './helpers';

const MANIFEST_PATH = 'extensions/chronicle/manifest.json';
const SHA = 'a'.repeat(64);
const manifest = (resources: unknown, version: unknown = 1): string => `${JSON.stringify({ version, resources }, null, 2)}\n`;
const GOOD_MANIFEST = manifest({
  'src-1': { targetFileName: 'one.md', contentSha256: SHA },
  'src-2': { targetFileName: 'two.md', contentSha256: 'b'.repeat(64) },
});

describe('extension manifest.json', () => {
  it('parses resources with their line ranges', () => {
    const p = parseAs('extension_manifest', GOOD_MANIFEST, MANIFEST_PATH);
    expect(p).toMatchObject({ extension: 'chronicle', validJson: true, version: 1, diagnostics: [] });
    expect(p.resources).toEqual([
      { id: 'src-1', targetFileName: 'one.md', contentSha256: SHA, line: 4, endLine: 7 },
      { id: 'src-2', targetFileName: 'two.md', contentSha256: 'b'.repeat(64), line: 8, endLine: 11 },
    ]);
  });

  const cases: Array<[string, string, string, number]> = [
    ['format/invalid-json', GOOD_MANIFEST.replace('"version": 1,', '"version": 1'), 'error', 3],
    ['format/invalid-json', GOOD_MANIFEST.slice(0, 40), 'error', 4],
    ['format/manifest-shape', '[]\n', 'error', 1],
    ['format/manifest-shape', manifest({}, '1'), 'error', 2],
    ['format/manifest-shape', manifest({}, 2), 'warning', 2],
    ['format/manifest-shape', manifest([]), 'error', 3],
    ['format/manifest-shape', manifest({ a: { targetFileName: 'a.md' } }), 'error', 4],
    ['format/manifest-shape', manifest({ a: 'a.md' }), 'error', 4],
    ['format/manifest-target', manifest({ a: { targetFileName: 'sub/a.md', contentSha256: SHA } }), 'warning', 4],
    ['format/manifest-target', manifest({ a: { targetFileName: 'a.txt', contentSha256: SHA } }), 'warning', 4],
    [
      'format/manifest-target',
      manifest({ a: { targetFileName: 'a.md', contentSha256: SHA }, b: { targetFileName: 'a.md', contentSha256: SHA } }),
      'warning',
      8,
    ],
    ['format/manifest-hash', manifest({ a: { targetFileName: 'a.md', contentSha256: 'xyz' } }), 'info', 4],
  ];
  it.each(cases)('%s fails on the broken manifest, and the good one passes', (rule, bad, severity, line) => {
    const p = parseAs('extension_manifest', bad, MANIFEST_PATH);
    expect(withRule(p, rule)[0], JSON.stringify(p.diagnostics)).toMatchObject({ severity, line });
    expect(rulesOf(parseAs('extension_manifest', GOOD_MANIFEST, MANIFEST_PATH))).toEqual([]);
  });

  it('reports the JSON error line for CRLF files and a BOM', () => {
    const p = parseAs(
      'extension_manifest',
      `\uFEFF${GOOD_MANIFEST.replace('"version": 1,', '"version": 1').replace(/\n/g, '\r\n')}`,
      MANIFEST_PATH,
    );
    expect(withRule(p, 'format/invalid-json')[0]?.line).toBe(3);
  });
});

describe('extension scope.json', () => {
  const path = 'extensions/external_agent_import/resources/-home-dana-src-webapp/scope.json';
  it('reads the compact form Codex writes, including Windows paths', () => {
    expect(parseAs('extension_scope', '{"cwd":"/home/dana/src/webapp"}', path)).toMatchObject({
      projectKey: '-home-dana-src-webapp',
      cwd: '/home/dana/src/webapp',
      compact: true,
      diagnostics: [],
    });
    expect(parseAs('extension_scope', JSON.stringify({ cwd: 'C:\\Users\\dana\\p' }), path)).toMatchObject({
      cwd: 'C:\\Users\\dana\\p',
      diagnostics: [],
    });
    expect(parseAs('extension_scope', JSON.stringify({ cwd: '\\\\?\\C:\\long' }), path).diagnostics).toEqual([]);
  });
  const cases: Array<[string, string, string]> = [
    ['format/invalid-json', '{"cwd": }', 'error'],
    ['format/scope-shape', '{"path":"/x"}', 'error'],
    ['format/scope-shape', '{"cwd":"relative/dir"}', 'error'],
    ['format/scope-shape', '{"cwd":"/x","extra":1}', 'info'],
    ['format/scope-compact', '{\n  "cwd": "/x"\n}\n', 'info'],
  ];
  it.each(cases)('%s fails on %j', (rule, bad, severity) => {
    expect(withRule(parseAs('extension_scope', bad, path), rule)[0]).toMatchObject({ severity });
  });
});

describe('extension instructions.md', () => {
  it('outlines the file and flags an empty one (format/empty-file)', () => {
    const p = parseAs('extension_instructions', '# Ad-hoc notes\n\n## Instructions\n* rule\n', 'extensions/ad_hoc/instructions.md');
    expect(p).toMatchObject({ extension: 'ad_hoc', title: { text: 'Ad-hoc notes', line: 1 }, diagnostics: [] });
    expect(p.sections.map((s) => [s.title, s.line, s.endLine])).toEqual([
      ['Ad-hoc notes', 1, 4],
      ['Instructions', 3, 4],
    ]);
    expect(rulesOf(parseAs('extension_instructions', '\n', 'extensions/ad_hoc/instructions.md'))).toEqual(['format/empty-file']);
  });
});

describe('phase2_workspace_diff.md', () => {
  it('parses status, the fenced diff and per-file counts', () => {
    const p = parseAs('workspace_diff', SPEC_WORKSPACE_DIFF, 'phase2_workspace_diff.md');
    expect(p.diagnostics).toEqual([]);
    expect(p.title).toBe('Memory Workspace Diff');
    expect(p.status).toEqual([
      { label: 'added', path: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md', line: 6, endLine: 6 },
      { label: 'modified', path: 'raw_memories.md', line: 7, endLine: 7 },
    ]);
    expect(p.diff).toMatchObject({ line: 12, endLine: 19 });
    expect(p.diff?.text.split('\n')[0]).toBe('diff --git a/raw_memories.md b/raw_memories.md');
    expect(p.files).toEqual([{ path: 'raw_memories.md', line: 12, endLine: 19, added: 2, removed: 1 }]);
    expect(p.truncated).toBe(false);
  });

  it('recognises "- none" and the truncation note Codex appends inside the fence', () => {
    const none = parseAs(
      'workspace_diff',
      '# Memory Workspace Diff\n\nGenerated by Codex.\n\n## Status\n- none\n',
      'phase2_workspace_diff.md',
    );
    expect(none).toMatchObject({ noChanges: true, status: [], diff: null, diagnostics: [] });
    const cut = parseAs(
      'workspace_diff',
      SPEC_WORKSPACE_DIFF.replace('-removed line\n```', '-removed line\n\n[workspace diff truncated at 4194304 bytes]\n```'),
      'phase2_workspace_diff.md',
    );
    expect(cut).toMatchObject({ truncated: true, truncatedAtBytes: 4194304 });
    expect(withRule(cut, 'codex/diff-truncated')).toMatchObject([{ severity: 'info', line: 21 }]);
  });

  const cases: Array<[string, string, number]> = [
    ['format/diff-header', SPEC_WORKSPACE_DIFF.replace('# Memory Workspace Diff', '# Diff'), 1],
    ['format/diff-header', SPEC_WORKSPACE_DIFF.replace('## Status', '## State'), 1],
    ['format/diff-status', SPEC_WORKSPACE_DIFF.replace('- modified raw_memories.md', '- modified'), 7],
    ['format/diff-fence', SPEC_WORKSPACE_DIFF.replace(/```\n$/, ''), 11],
    ['format/diff-fence', SPEC_WORKSPACE_DIFF.replace(/## Diff[\s\S]*$/, ''), 5],
    ['format/diff-fence', SPEC_WORKSPACE_DIFF.replace(/```diff[\s\S]*$/, ''), 9],
  ];
  it.each(cases)('%s fails on the broken diff, and the example passes', (rule, bad, line) => {
    const p = parseAs('workspace_diff', bad, 'phase2_workspace_diff.md');
    expect(withRule(p, rule)[0]?.line, JSON.stringify(p.diagnostics)).toBe(line);
    expect(rulesOf(parseAs('workspace_diff', SPEC_WORKSPACE_DIFF, 'phase2_workspace_diff.md'))).toEqual([]);
  });
});
