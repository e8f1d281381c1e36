// What the lint will say about the files an import writes, before it is proposed: each planned Markdown file parsed
// as it would be written in memory (its root-relative path decides how it is read), the parsers' findings kept.
import type { PlannedLint } from '../../../shared/import';
import { parseMemoryFile } from '../formats';
import { parserDiagnostics } from '../inspect/parser-lint';
import type { PlannedWrite } from './plan-root';
import type { TaskContext } from '../runtime/task-types';

/** What the lint reads of a planned write. */
export type LintableWrite = Pick<PlannedWrite, 'version' | 'relPath' | 'projectKey' | 'content'>;

/** The warnings and errors per written file (info notes left out), in the plan's order; files with none are not listed. */
export function lintPlannedWrites(writes: readonly LintableWrite[], context?: TaskContext): PlannedLint[] {
  const out: PlannedLint[] = [];
  for (const w of writes) {
    context?.throwIfCancelled(); // cooperative on the pool: a superseded plan stops between files
    if (w.content === null || !w.relPath.endsWith('.md')) continue;
    const diagnostics = parserDiagnostics(parseMemoryFile(w.content, { path: w.relPath, version: w.version })).filter(
      (d) => d.severity !== 'info',
    );
    if (diagnostics.length > 0) out.push({ version: w.version, relPath: w.relPath, projectKey: w.projectKey, diagnostics });
  }
  return out;
}

/** The pool task: one slice of the plan's writes. */
export function planLintTask(input: { writes: LintableWrite[] }, context: TaskContext): PlannedLint[] {
  return lintPlannedWrites(input.writes, context);
}
