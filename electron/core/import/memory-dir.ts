// Reads one memory folder (Claude Code's layout): every `*.md`, checked, hashed and classified as index, topic or orphan.
import { realpath } from 'node:fs/promises';
import type { SkippedEntry } from '../../../shared/import';
import { classifyMemoryFiles } from './front-matter';
import { relPathProblem } from './names';
import { readSourceFiles, skip, walkMarkdown, WalkBudget } from './read-source';
import type { SourceFile } from './sources';

export interface MemoryDirRead {
  files: SourceFile[];
  skipped: SkippedEntry[];
}

/** Reads `dir` as one project's memory; nothing outside its real path is read and no symlink is followed. */
export async function readMemoryDir(dir: string, key: string, budget: WalkBudget = new WalkBudget()): Promise<MemoryDirRead> {
  let realRoot: string;
  try {
    realRoot = await realpath(dir);
  } catch (error) {
    return {
      files: [],
      skipped: [skip(dir, 'unreadable', `${dir} cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, key)],
    };
  }
  const walked = await walkMarkdown(dir, realRoot, key, undefined, undefined, budget);
  const skipped = [...walked.skipped];
  const candidates = walked.files.filter((f) => {
    const problem = relPathProblem(f.relPath);
    if (problem)
      skipped.push(skip(f.path, 'unsafe-name', `${f.path} cannot be imported: its name ${problem}; rename it in the source.`, key));
    return problem === null;
  });
  const read: Omit<SourceFile, 'kind'>[] = [];
  for (const { f, outcome } of await readSourceFiles(candidates, undefined, budget.signal, budget.sharedLoop)) {
    if (outcome.ok) read.push({ relPath: f.relPath, sourcePath: f.path, ...outcome.file });
    else skipped.push(skip(f.path, outcome.code, outcome.reason, key));
  }
  const index = read.find((f) => f.relPath === 'MEMORY.md');
  const kinds = classifyMemoryFiles(
    read.map((f) => f.relPath),
    index?.text ?? null,
  );
  return { files: read.map((f) => ({ ...f, kind: kinds.get(f.relPath) ?? 'orphan' })), skipped };
}
