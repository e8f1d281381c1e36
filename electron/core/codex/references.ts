// Where a file reference written inside a memory file leads: the root-relative path it names, by Codex's layout.
import type { FileKind } from '../../../shared/domain';
import { isSafeRelativePath } from '../platform/safe-path';
import { FILES, ROOT_DIRS } from './constants';
import { classifyPath } from './workspace';

/** The kinds a memory file refers to by path: pointers and `rollout_summary_files` name summaries, MEMORY.md also resources. */
export type ReferencedKind = Extract<FileKind, 'rollout-summary' | 'extension-resource'>;

/**
 * The root-relative path of the `kind` file a reference names, or null when it names none. Consolidation writes the
 * reference in more than one form: `rollout_summaries/<file>.md` (the template), a bare `<file>.md` (raw memories'
 * `rollout_summary_file:`), `./…`, or prefixed with the root's own folder (`memories/…`, `memories_v2/…`).
 */
export function referencedPath(reference: string, kind: ReferencedKind = 'rollout-summary'): string | null {
  let path = reference.trim().replace(/^\.\//, '');
  for (const dir of Object.values(ROOT_DIRS)) {
    if (path.startsWith(`${dir}/`)) {
      path = path.slice(dir.length + 1);
      break;
    }
  }
  if (kind === 'rollout-summary' && !path.includes('/')) path = `${FILES.rolloutSummariesDir}/${path}`;
  return classifyPath(path) === kind && isSafeRelativePath(path) ? path : null;
}
