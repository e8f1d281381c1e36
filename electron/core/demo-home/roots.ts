// Assembles the files of the v1 (`memories/`) and v2 (`memories_v2/`) roots from the planned threads.
import { adHocFiles, chronicleFiles, importedProject, importFiles, v1Notes, v2Notes } from './extensions';
import { buildMemoryMd } from './memory-md';
import { buildSummaryV1, buildSummaryV2 } from './memory-summary';
import { skillFiles, skills, workspaceDiffFile, type DiffChange } from './skills';
import { rawMemoriesFile, rawMemory, rolloutSummaryFile, rolloutSummaryV1, rolloutSummaryV2 } from './summaries';
import type { OutFile, ThreadPlan } from './types';

export interface RootBuild {
  files: OutFile[];
  /** DB rows for this version's memory DB. */
  rows: Array<{ thread: ThreadPlan; rawMemory: string; rolloutSummary: string }>;
  /** Rendered rollout summary file per thread id (for citation line ranges). */
  summaryFiles: Map<string, string>;
  /** v1 only: MEMORY.md task line ranges. */
  memoryTaskLines: Map<string, [number, number]> | null;
}

export interface RootOptions {
  selected: readonly ThreadPlan[];
  nowMs: number;
  heavy: boolean;
  /** Index of the ad-hoc note written with CRLF line endings, or null. */
  crlfNote: number | null;
  /** Whether to leave a `phase2_workspace_diff.md` in this root. */
  workspaceDiff: boolean;
}

function newest(threads: readonly ThreadPlan[]): ThreadPlan | null {
  let best: ThreadPlan | null = null;
  for (const t of threads) if (!best || t.updatedMs > best.updatedMs) best = t;
  return best;
}

/** The v1 root: summaries, raw memories, MEMORY.md, summary, skills, ad-hoc notes, Claude Code import. */
export function buildV1Root(o: RootOptions): RootBuild {
  const files: OutFile[] = [];
  const rows: RootBuild['rows'] = [];
  const summaryFiles = new Map<string, string>();
  for (const t of o.selected) {
    const summary = rolloutSummaryV1(t, o.heavy);
    const file = rolloutSummaryFile(t, summary);
    rows.push({ thread: t, rawMemory: rawMemory(t), rolloutSummary: summary });
    summaryFiles.set(t.id, file);
    files.push({ rel: `rollout_summaries/${t.stem}.md`, data: file });
  }
  const raw = rawMemoriesFile(rows);
  files.push({ rel: 'raw_memories.md', data: raw });
  const imported = importedProject();
  const memory = buildMemoryMd(o.selected, skills, imported, o.heavy);
  files.push({ rel: 'MEMORY.md', data: memory.text });
  files.push({
    rel: 'memory_summary.md',
    data: buildSummaryV1({
      threads: o.selected,
      noteFacts: v1Notes.map((n) => n.fact),
      importedProject: { name: imported.projectName, keywords: imported.keywords.slice(0, 4) },
    }),
  });
  files.push(...skillFiles(), ...adHocFiles(v1Notes, o.nowMs, o.crlfNote), ...importFiles());

  const last = newest(o.selected);
  if (o.workspaceDiff && last) {
    const rawLines = raw.split('\n');
    const from = rawLines.indexOf(`## Thread \`${last.id}\``) + 1;
    let count = 1;
    while (from - 1 + count < rawLines.length && !(rawLines[from - 1 + count] ?? '').startsWith('## Thread ')) count++;
    if (from - 1 + count >= rawLines.length) count--; // the file ends with a newline: no trailing empty "line"
    const changes: DiffChange[] = [
      { status: 'added', path: `rollout_summaries/${last.stem}.md`, text: summaryFiles.get(last.id) ?? '' },
      { status: 'modified', path: 'raw_memories.md', text: raw, insertedFrom: from, insertedLines: count },
    ];
    files.push({ rel: 'phase2_workspace_diff.md', data: workspaceDiffFile(changes) });
  }
  return { files, rows, summaryFiles, memoryTaskLines: memory.taskLines };
}

/** The v2 root: rollout summaries, a validated summary and ad-hoc notes (no MEMORY.md, raw memories or skills). */
export function buildV2Root(o: RootOptions): RootBuild {
  const files: OutFile[] = [];
  const rows: RootBuild['rows'] = [];
  const summaryFiles = new Map<string, string>();
  for (const t of o.selected) {
    const summary = rolloutSummaryV2(t);
    const file = rolloutSummaryFile(t, summary);
    rows.push({ thread: t, rawMemory: '', rolloutSummary: summary });
    summaryFiles.set(t.id, file);
    files.push({ rel: `rollout_summaries/${t.stem}.md`, data: file });
  }
  files.push({
    rel: 'memory_summary.md',
    data: buildSummaryV2({ threads: o.selected, noteFacts: v2Notes.map((n) => n.fact), importedProject: null }),
  });
  files.push(...adHocFiles(v2Notes, o.nowMs, o.crlfNote), ...chronicleFiles(o.nowMs));
  const last = newest(o.selected);
  if (o.workspaceDiff && last) {
    const changes: DiffChange[] = [{ status: 'added', path: `rollout_summaries/${last.stem}.md`, text: summaryFiles.get(last.id) ?? '' }];
    files.push({ rel: 'phase2_workspace_diff.md', data: workspaceDiffFile(changes) });
  }
  return { files, rows, summaryFiles, memoryTaskLines: null };
}
