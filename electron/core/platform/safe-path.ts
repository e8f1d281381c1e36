// Untrusted relative paths (renderer, CLI, import sources) resolved inside a root: no escape, no symlinks, no `.git`.
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { StudioFailure } from './errors';

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:|\\\\|\/\/)/;

/** Splits a root-relative path into checked segments; throws `Invalid` for anything that could leave the root. */
export function checkRelativePath(input: string): string[] {
  const refuse = (why: string) =>
    new StudioFailure('Invalid', `The path "${input}" is not allowed: ${why}.`, {
      path: input,
      hint: 'Use a path relative to the memory folder, such as rollout_summaries/<file>.md.',
    });
  if (input.length === 0) throw refuse('it is empty');
  if (input.includes('\0')) throw refuse('it contains a NUL byte');
  if (input.includes('\\')) throw refuse('it contains a backslash');
  if (isAbsolute(input) || WINDOWS_ABSOLUTE.test(input)) throw refuse('it is absolute');
  const segments = input.split('/');
  if (segments[0] === '.codex-baseline')
    throw refuse("it points into the root's .codex-baseline folder (Codex's baseline lock), which Memory Studio never touches");
  for (const segment of segments) {
    if (segment === '' || segment === '.') throw refuse('it has an empty or "." component');
    if (segment === '..') throw refuse('it climbs out of the folder with ".."');
    if (segment === '.git') throw refuse("it points into the root's .git folder, which Memory Studio never touches");
  }
  return segments;
}

/** `checkRelativePath` as a yes or no, for paths read from files (a reference, a citation) rather than asked for. */
export function isSafeRelativePath(input: string): boolean {
  try {
    checkRelativePath(input);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves `input` under `root` and proves it stays there: every existing component is checked with
 * lstat (a symlink anywhere is refused, as Codex refuses them) and the real path must stay under the root's.
 */
export async function resolveInsideRoot(root: string, input: string, options: { mustExist?: boolean } = {}): Promise<string> {
  const segments = checkRelativePath(input);
  const rootInfo = await lstat(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new StudioFailure('NotFound', `The memory folder ${root} does not exist.`, { path: root });
    throw error;
  });
  if (rootInfo.isSymbolicLink()) {
    throw new StudioFailure(
      'Unsupported',
      `The memory folder ${root} is a symlink; Codex refuses symlinked memory roots, and so does Memory Studio.`,
      {
        path: root,
        hint: 'Replace the symlink with the real folder.',
      },
    );
  }
  let current = root;
  for (let i = 0; i < segments.length; i++) {
    current = join(current, segments[i] as string);
    let info;
    try {
      info = await lstat(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !options.mustExist) {
        // The rest does not exist yet, so it holds no symlink; the existing prefix must still resolve inside the root.
        const parent = join(current, '..');
        const [realRoot, realParent] = await Promise.all([realpath(root), realpath(parent)]);
        if (realParent !== realRoot) checkContained(realRoot, realParent);
        return join(root, ...segments);
      }
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new StudioFailure('NotFound', `${input} does not exist in ${root}.`, {
          path: input,
          hint: 'It may have been removed by Codex; refresh the file list.',
        });
      }
      throw error;
    }
    if (info.isSymbolicLink()) {
      throw new StudioFailure(
        'Unsupported',
        `${input} goes through a symlink (${segments.slice(0, i + 1).join('/')}); Memory Studio never follows symlinks in a memory folder, and Codex deletes them.`,
        {
          path: input,
          hint: 'Replace the symlink with a regular file if its content should be memory.',
        },
      );
    }
  }
  const [realRoot, realTarget] = await Promise.all([realpath(root), realpath(current)]);
  checkContained(realRoot, realTarget);
  return current;
}

function checkContained(root: string, target: string): string {
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel)) {
    throw new StudioFailure('Invalid', `${target} is outside the memory folder ${root}.`, { path: target });
  }
  return target;
}
