// Untrusted relative paths (renderer, CLI, import sources) resolved inside a root: no escape, no symlinks, no `.git`.
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { StudioFailure } from './errors';

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:|\\\\|\/\/)/;

/** C0 controls, DEL and C1 controls: never part of a name a person means (a newline, an escape sequence, U+0085). */
const isControl = (code: number): boolean => code < 0x20 || (code >= 0x7f && code <= 0x9f);

/** Code points macOS's HFS+ ignores in names (git's is_hfs_dotgit): `.g\u200cit` opens `.git` there. */
const HFS_IGNORED = /[\u200b-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** The name as a case-insensitive disk sees it: case folded, HFS+'s ignored code points and Windows' trailing dots and spaces dropped. */
function foldedName(name: string): string {
  return name
    .replace(HFS_IGNORED, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
}

/** Whether `name` is `.git` on some disk (`.GIT`, `.Git.`, `.g\u200cit` all open the same folder on macOS or Windows). */
export function isGitName(name: string): boolean {
  return foldedName(name) === '.git';
}

/**
 * Whether `name` is one of Codex's baseline folders at a memory root, `.git` or `.codex-baseline`, however a
 * case-insensitive disk lets it be spelled: the one test every walk, watcher and path check uses.
 */
export function isBaselineDirName(name: string): boolean {
  const folded = foldedName(name);
  return folded === '.git' || folded === '.codex-baseline';
}

/** The first control character in `text` as `U+XXXX`, or null. */
export function controlCharacterIn(text: string): string | null {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isControl(code)) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

/** `text` with every control character written as `\uXXXX`, so a name can be shown without acting on a terminal. */
export function escapeControls(text: string): string {
  if (controlCharacterIn(text) === null) return text;
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    out += char.length === 1 && isControl(code) ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}

/** Splits a root-relative path into checked segments; throws `Invalid` for anything that could leave the root. */
export function checkRelativePath(input: string): string[] {
  // A name with a control character is shown escaped, so an escape sequence in it never reaches a terminal as such.
  const shown = `"${escapeControls(input)}"`;
  const refuse = (why: string) =>
    new StudioFailure('Invalid', `The path ${shown} is not allowed: ${why}.`, {
      path: input,
      hint: 'Use a path relative to the memory folder, such as rollout_summaries/<file>.md.',
    });
  if (input.length === 0) throw refuse('it is empty');
  if (input.includes('\0')) throw refuse('it contains a NUL byte');
  const control = controlCharacterIn(input);
  if (control) throw refuse(`it contains the control character ${control}, which no file name should hold`);
  if (input.includes('\\')) throw refuse('it contains a backslash');
  if (isAbsolute(input) || WINDOWS_ABSOLUTE.test(input)) throw refuse('it is absolute');
  const segments = input.split('/');
  if (isBaselineDirName(segments[0] ?? '') && !isGitName(segments[0] ?? ''))
    throw refuse("it points into the root's .codex-baseline folder (Codex's baseline lock), which Memory Studio never touches");
  for (const segment of segments) {
    if (segment === '' || segment === '.') throw refuse('it has an empty or "." component');
    if (segment === '..') throw refuse('it climbs out of the folder with ".."');
    // `.GIT` is `.git` on a case-insensitive disk (macOS, Windows), and so are `.git.` and `.g\u200cit` there.
    if (isGitName(segment)) throw refuse('it points into a .git folder, which Memory Studio never touches');
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
  for (const [i, segment] of segments.entries()) {
    current = join(current, segment);
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
