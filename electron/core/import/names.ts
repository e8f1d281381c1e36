// Names an import may write under `resources/`: project keys and relative file paths that cannot escape the target.
import { controlCharacterIn, isGitName } from '../platform/safe-path';

const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:\..*)?$/i;
const RESERVED_SEGMENTS = new Set(['.', '..']);

/** Why `segment` cannot be one folder or file name under the target, or null when it can. */
export function segmentProblem(segment: string): string | null {
  if (segment === '') return 'it is empty';
  if (segment.includes('/') || segment.includes('\\')) return 'it contains a path separator';
  const control = controlCharacterIn(segment);
  if (control) return `it contains the control character ${control}`;
  if (RESERVED_SEGMENTS.has(segment) || segment === '.git') return `"${segment}" is a reserved name`;
  if (isGitName(segment)) return `"${segment}" is .git on a case-insensitive disk, a reserved name`;
  if (WINDOWS_RESERVED.test(segment)) return `"${segment}" is a reserved device name on Windows`;
  if (/[. ]$/.test(segment)) return 'it ends with a dot or a space, which Windows drops';
  if (/^[A-Za-z]:/.test(segment)) return 'it looks like a Windows drive';
  if (segment.length > 255) return 'it is longer than 255 characters';
  return null;
}

/** Why `key` cannot name `resources/<key>/`, or null. */
export function projectKeyProblem(key: string): string | null {
  return segmentProblem(key);
}

/** Why `relPath` (always `/`-separated) cannot be a file under a project folder, or null. `scope.json` at the top is ours. */
export function relPathProblem(relPath: string): string | null {
  if (relPath.startsWith('/')) return 'it is absolute';
  const segments = relPath.split('/');
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem) return problem;
  }
  if (segments.length === 1 && segments[0] === 'scope.json') return '"scope.json" is reserved for the project\'s scope';
  return null;
}

/**
 * Claude Code's folder-name encoding of a path: every UTF-16 unit outside [A-Za-z0-9] becomes `-` (docs/codex-facts.md,
 * Claude Code import). Only used to name folders of our own (per-repo settings, Cursor rules); never decoded.
 */
export function claudeEncodePath(path: string): string {
  return path.replace(/[^A-Za-z0-9]/g, '-');
}
