// The outline of real parsed files (core's parser on the spec examples): headings, task groups, pointers, nesting.
import { describe, expect, it } from 'vitest';
import { outlineOf, parseMemoryFile } from '../../electron/core/formats';
import { buildOutline, outlineTitle, rowAtLine, summaryLabel, type OutlineRow } from '../../renderer/src/outline/outline-model';
import { SPEC_MEMORY_MD, SPEC_RAW_MEMORIES, SPEC_SUMMARY_V2 } from '../unit/formats/helpers';

const outline = (text: string, path: string) => buildOutline(outlineOf(parseMemoryFile(text, { path, version: 'v2' })));

describe('outline model', () => {
  it('names summaries by their slug', () => {
    expect(summaryLabel('rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md')).toBe('fix_flaky_pdf_export_test');
    expect(summaryLabel('rollout_summaries/handwritten.md')).toBe('handwritten');
  });

  it('outlines MEMORY.md as task groups with their tasks and the summaries they cite', () => {
    const rows = outline(SPEC_MEMORY_MD, 'MEMORY.md');
    expect(rows[0]).toMatchObject({ type: 'jump', depth: 0, label: 'invoice-svc CI and test stability', badge: 'invoice-svc', line: 1 });
    expect(rows[0]?.chips).toContain('FONTCONFIG_FILE');
    expect(rows[1]).toMatchObject({ type: 'jump', depth: 1 });
    expect(rows[1]?.label).toMatch(/^Task 1: fix flaky PDF export test/);
    expect(rows[2]).toMatchObject({
      type: 'pointer',
      depth: 2,
      label: 'fix_flaky_pdf_export_test',
      file: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md',
      threadId: '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61',
    });
    expect(rows).toHaveLength(3);
  });

  it('nests a summary by line ranges and keeps pointers under the date that holds them', () => {
    const rows = outline(SPEC_SUMMARY_V2, 'memory_summary.md');
    const lines = rows.map((r) => r.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    const pointer = rows.find((r) => r.type === 'pointer' && r.label === 'fix_flaky_pdf_export_test');
    const date = rows.find((r) => r.label === '2026-03-02');
    expect(pointer && date && pointer.depth).toBe((date?.depth ?? -1) + 1);
    expect(pointer?.type === 'pointer' && pointer.threadId).toBe('019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61');
    expect(rows.find((r) => r.label === 'Older Memory Topics')).toBeDefined();
    expect(rows.find((r) => r.label === 'dotfiles')?.badge).toBe('older');
  });

  it('outlines raw memories as threads with their summary', () => {
    const rows = outline(SPEC_RAW_MEMORIES, 'raw_memories.md');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]?.detail).toMatch(/^thread /);
    expect(rows.filter((r) => r.type === 'pointer').every((r) => r.depth === 1)).toBe(true);
  });

  it('links a reference to the path core resolved, and keeps one that names no summary as a line to look at', () => {
    const text = [
      '# Task Group: exports',
      'scope: PDF exports.',
      '',
      '## Task 1: fix the export',
      '',
      '### rollout_summary_files',
      '',
      '- ./memories/rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_export.md (thread_id=019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61, worked)',
      '- rollout_summaries/archive/old.md (thread_id=019a1c2e-7b10-7c41-9a55-2f0e3d4b5a62, nested)',
      '',
    ].join('\n');
    const rows = outline(text, 'MEMORY.md');
    const [linked, unresolved] = rows.filter((row) => row.depth === 2);
    // Core strips the root folder and `./` the consolidator wrote; the renderer only shows its answer.
    expect(linked).toMatchObject({
      type: 'pointer',
      file: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_export.md',
      label: 'fix_export',
    });
    expect(unresolved).toMatchObject({ type: 'jump', label: 'old', line: 9 });
    expect(unresolved?.warning).toMatch(/names no file in rollout_summaries/);
  });

  it('titles the panel by kind', () => {
    expect(outlineTitle('memory_md')).toBe('Task groups');
    expect(outlineTitle('memory_summary')).toBe('Summary outline');
    expect(outlineTitle('skill')).toBe('Outline');
  });

  it('finds the section holding a line: the innermost span, else the last row before it, never a pointer', () => {
    const row = (key: string, line: number, endLine: number, type: 'jump' | 'pointer' = 'jump'): OutlineRow =>
      type === 'jump'
        ? { type, key, depth: 0, label: key, line, endLine }
        : { type, key, depth: 0, label: key, line, endLine, file: 'rollout_summaries/x.md', threadId: null };
    const rows = [row('group', 3, 20), row('task', 5, 12), row('pointer', 8, 8, 'pointer'), row('later', 14, 18)];
    expect(rowAtLine(rows, null)).toBe(-1);
    expect(rowAtLine(rows, 1)).toBe(-1);
    expect(rowAtLine(rows, 3)).toBe(0);
    expect(rowAtLine(rows, 8)).toBe(1);
    expect(rowAtLine(rows, 13)).toBe(0);
    expect(rowAtLine(rows, 16)).toBe(3);
    // A blank line after the last section still belongs to it.
    expect(rowAtLine(rows, 25)).toBe(3);
  });
});
