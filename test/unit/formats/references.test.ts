// References inside memory files resolved by core: every form consolidation writes leads to one root-relative path,
// anything that names no file of the expected kind is null, and the parsers hand both over with the outline.
import { describe, expect, it } from 'vitest';
import { referencedPath } from '../../../electron/core/codex/references';
import { parseAs } from './helpers';

const SUMMARY = 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_export.md';
const THREAD = '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61';

describe('referencedPath', () => {
  it('resolves the template form, a bare name, ./ and the root folder prefixes to one path', () => {
    for (const written of [
      SUMMARY,
      '2026-03-02T17-05-44-k3Qz-fix_export.md',
      ` ./${SUMMARY} `,
      `memories/${SUMMARY}`,
      `memories_v2/${SUMMARY}`,
    ])
      expect(referencedPath(written), written).toBe(SUMMARY);
  });

  it('gives null for what names no rollout summary: a nested folder, another kind, a way out, a backslash', () => {
    for (const written of [
      'rollout_summaries/archive/old.md',
      'rollout_summaries/notes.txt',
      'skills/pdf/SKILL.md',
      'rollout_summaries/../MEMORY.md',
      '../../state_5.sqlite',
      'rollout_summaries/a\\b.md',
      '',
    ])
      expect(referencedPath(written), written).toBeNull();
  });

  it('resolves extension resources only as resources, without completing a bare name', () => {
    const resource = 'extensions/external_agent_import/resources/claude-app/notes.md';
    expect(referencedPath(`memories/${resource}`, 'extension-resource')).toBe(resource);
    expect(referencedPath(resource)).toBeNull();
    expect(referencedPath('notes.md', 'extension-resource')).toBeNull();
  });
});

describe('the parsers hand the resolved path over', () => {
  it('memory_summary.md: pointers and topic references', () => {
    const text = [
      'v1',
      "## What's in Memory",
      '### invoice-svc',
      '#### 2026-03-02',
      `- ${SUMMARY} — pinned fonts; thread_id=${THREAD}`,
      `- rollout_summaries/deep/er.md — a folder too deep; thread_id=${THREAD}`,
      '- pdf export: fonts, flaky',
      `  - desc: fixed it (${SUMMARY}, rollout_summaries/deep/er.md)`,
      '',
    ].join('\n');
    const parsed = parseAs('memory_summary', text, 'memory_summary.md');
    expect(parsed.pointers.map((p) => [p.file, p.path])).toEqual([
      [SUMMARY, SUMMARY],
      ['rollout_summaries/deep/er.md', null],
    ]);
    expect(parsed.topics[0]?.rolloutRefs.map((r) => r.path)).toEqual([SUMMARY, null]);
  });

  it('MEMORY.md: rollout summary and extension resource bullets, each by its own kind', () => {
    const text = [
      '# Task Group: exports',
      'scope: PDF exports.',
      '',
      '## Task 1: fix the export, success',
      '',
      '### rollout_summary_files',
      '',
      `- ./${SUMMARY} (thread_id=${THREAD}, worked)`,
      '',
      '### extension_resource_files',
      '',
      '- extensions/external_agent_import/resources/claude-app/notes.md (cwd=/x, source=claude)',
      `- ${SUMMARY} (cwd=/x)`,
      '',
    ].join('\n');
    const task = parseAs('memory_md', text, 'MEMORY.md').blocks[0]?.tasks[0];
    expect(task?.rolloutSummaryFiles.map((r) => r.path)).toEqual([SUMMARY]);
    expect(task?.extensionResourceFiles.map((r) => r.path)).toEqual([
      'extensions/external_agent_import/resources/claude-app/notes.md',
      null,
    ]);
  });

  it('raw_memories.md: the bare rollout_summary_file of a thread', () => {
    const text = [
      '# Raw Memories',
      '',
      `## Thread \`${THREAD}\``,
      'updated_at: 2026-03-02T18:40:11+00:00',
      'cwd: /x',
      'rollout_path: /x/r.jsonl',
      'rollout_summary_file: 2026-03-02T17-05-44-k3Qz-fix_export.md',
      '',
    ].join('\n');
    const thread = parseAs('raw_memories', text, 'raw_memories.md').threads[0];
    expect(thread?.rolloutSummaryFile).toBe('2026-03-02T17-05-44-k3Qz-fix_export.md');
    expect(thread?.rolloutSummaryPath).toBe(SUMMARY);
  });
});
