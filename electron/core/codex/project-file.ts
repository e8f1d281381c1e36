// A project's own instruction files (AGENTS.md, CLAUDE.md), and by the same rules an agent's MCP configuration, as read
// and write targets outside every memory root.
//
// Promotion writes `<project>/AGENTS.md`, a file Memory Studio does not own. The same rules as a memory root hold, made
// explicit for a folder that is not one: the folder is an absolute, canonical path (no symlink anywhere on the way,
// so a link cannot redirect the write), not inside a `.git/` folder and not inside a Codex memory root (those are
// written only as memory files); the file is a regular file or absent, never a symlink; only the instruction file
// names below are ever written. Apply re-checks all of it under its lock, right before the atomic rename.
import { isGitName } from '../platform/safe-path';
import { createHash } from 'node:crypto';
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { StudioFailure } from '../platform/errors';
import { readRegularFile } from '../platform/regular-file';
import { decodeUtf8Strict, findInvalidUtf8 } from '../platform/utf8';

/** What a promotion may write: the file Codex reads in a folder (the override wins over AGENTS.md when present). */
export const PROJECT_WRITE_NAMES = ['AGENTS.md', 'AGENTS.override.md'] as const;
export type ProjectWriteName = (typeof PROJECT_WRITE_NAMES)[number];

/** Rule files the doctor compares memory with: Codex's two, and Claude Code's. */
export const RULE_FILE_NAMES = ['AGENTS.override.md', 'AGENTS.md', 'CLAUDE.md'] as const;
export type RuleFileName = (typeof RULE_FILE_NAMES)[number];

/**
 * What kind of folder a file outside the memory roots lives in, for the words of a refusal: a project's folder (a
 * promotion), or an agent's configuration folder (connecting it, `agent-config/`). The rules are the same.
 */
export interface OutsideFolder {
  noun: string;
  missingHint: string;
  /** What to do instead of writing through a symlinked file. */
  symlinkHint: string;
}

export const PROJECT_FOLDER: OutsideFolder = {
  noun: 'project folder',
  missingHint: 'The project may have moved; promote into the folder where it lives now.',
  symlinkHint: 'Replace the link with the file itself, then promote again.',
};

/** Codex stops reading project docs at 32 KiB combined (`project_doc_max_bytes`); a rule file above 1 MiB is not one. */
/** An agent's config is read up to this size (Claude Code keeps its history of projects in ~/.claude.json). */
export const AGENT_CONFIG_CAP_BYTES = 16 * 1024 * 1024;

/** The files connecting an agent (Codex, Claude Code, Cursor) may write, and nothing else. */
export const AGENT_CONFIG_NAMES = ['config.toml', '.claude.json', 'mcp.json'] as const;

/** The folder holding an agent's configuration, as a write target outside the memory roots. */
export const AGENT_FOLDER: OutsideFolder = {
  noun: "agent's configuration folder",
  missingHint: 'Start the agent once (it creates its folder), or connect it by hand as the README shows.',
  symlinkHint: 'Replace the link with the file itself (or connect the agent by hand), then connect again.',
};

export const PROJECT_DOC_MAX_BYTES = 32 * 1024;
const READ_CAP_BYTES = 1024 * 1024;

const refuse = (kind: 'Invalid' | 'Unsupported' | 'NotFound', message: string, path: string, hint?: string) =>
  new StudioFailure(kind, message, { path, hint });

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Proves `dir` can hold a project instruction file: absolute and normalised, an existing folder reached without any
 * symlink (its real path is itself), outside `.git/` and outside `memoryRoots`. Returns it unchanged.
 */
export async function checkProjectDir(
  dir: string,
  memoryRoots: readonly string[] = [],
  folder: OutsideFolder = PROJECT_FOLDER,
): Promise<string> {
  const noun = folder.noun[0]?.toUpperCase() + folder.noun.slice(1);
  if (!isAbsolute(dir) || normalize(dir) !== dir || (dir.length > 1 && dir.endsWith(sep))) {
    throw refuse(
      'Invalid',
      `The ${folder.noun} "${dir}" is not an absolute, normalised path.`,
      dir,
      folder === PROJECT_FOLDER ? 'Give the full path of the project folder, as Codex records it in applies_to: cwd=….' : undefined,
    );
  }
  if (dir.split(sep).some(isGitName)) throw refuse('Invalid', `${dir} is inside a .git folder; Memory Studio never writes there.`, dir);
  const info = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR')
      throw refuse('NotFound', `${noun} ${dir} does not exist on this machine.`, dir, folder.missingHint);
    throw error;
  });
  if (info.isSymbolicLink())
    throw refuse(
      'Unsupported',
      `${noun} ${dir} is a symlink; Memory Studio never writes through a symlink.`,
      dir,
      'Use the real folder it points to.',
    );
  if (!info.isDirectory()) throw refuse('Invalid', `${dir} is not a folder.`, dir);
  const real = await realpath(dir);
  if (real !== dir) {
    throw refuse(
      'Unsupported',
      `${noun} ${dir} goes through a symlink (its real path is ${real}); Memory Studio never writes through a symlink.`,
      dir,
      `Use ${real} instead.`,
    );
  }
  for (const root of memoryRoots) {
    if (inside(root, dir))
      throw refuse('Invalid', `${dir} is inside the Codex memory folder ${root}; memory files change only as memory files.`, dir);
  }
  return dir;
}

/**
 * The path of `<dir>/<name>` for reading or writing: `name` one of `allowed`, the folder checked as above, and the file
 * a regular file or absent (a symlink, folder, FIFO… is refused). Returns the absolute path.
 */
export async function resolveProjectFile(
  dir: string,
  name: string,
  memoryRoots: readonly string[] = [],
  allowed: readonly string[] = PROJECT_WRITE_NAMES,
  folder: OutsideFolder = PROJECT_FOLDER,
): Promise<string> {
  if (!allowed.includes(name)) {
    throw refuse('Invalid', `Memory Studio writes only ${allowed.join(' or ')} in a ${folder.noun}, not "${name}".`, name);
  }
  await checkProjectDir(dir, memoryRoots, folder);
  const target = join(dir, name);
  const info = await lstat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (info?.isSymbolicLink())
    throw refuse('Unsupported', `${target} is a symlink; Memory Studio never writes through a symlink.`, target, folder.symlinkHint);
  if (info && !info.isFile()) throw refuse('Invalid', `${target} is not a regular file; Memory Studio only replaces files.`, target);
  return target;
}

export interface ProjectFileContent {
  path: string;
  content: string;
  sha256: string;
}

/** The file's content (strict UTF-8), or null when it does not exist. */
export async function readProjectFile(
  dir: string,
  name: string,
  memoryRoots: readonly string[] = [],
  allowed: readonly string[] = PROJECT_WRITE_NAMES,
  folder: OutsideFolder = PROJECT_FOLDER,
  capBytes = READ_CAP_BYTES,
): Promise<ProjectFileContent | null> {
  const path = await resolveProjectFile(dir, name, memoryRoots, allowed, folder);
  const file = await readRegularFile(path, path, capBytes, (size) =>
    refuse('Unsupported', `${path} is ${Math.ceil(size / 1024)} KiB; a file that large is not read here.`, path),
  ).catch((error: unknown) => {
    if (error instanceof StudioFailure && error.kind === 'NotFound') return null;
    throw error;
  });
  if (!file) return null;
  const content = decodeUtf8Strict(file.bytes);
  if (content === null) {
    const at = findInvalidUtf8(file.bytes);
    throw refuse(
      'Invalid',
      `${path} is not valid UTF-8${at ? ` (line ${at.line})` : ''}; Memory Studio does not change it.`,
      path,
      'Save it as UTF-8 first.',
    );
  }
  if (content.includes('\0')) throw refuse('Invalid', `${path} contains NUL bytes; it is not a text file.`, path);
  return { path, content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}
