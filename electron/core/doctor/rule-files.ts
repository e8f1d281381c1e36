// The instruction files a project has (AGENTS.md as Codex discovers it, CLAUDE.md), read safely and cut into rule lines.
import { lstat, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { DoctorProject } from '../../../shared/doctor';
import { StudioFailure } from '../platform/errors';
import type { RuleFileName } from '../codex/project-file';
import { readRegularFile } from '../platform/regular-file';
import { decodeUtf8Strict } from '../platform/utf8';
import type { NumberedLine } from '../review/blocks/entries';

export interface RuleFileModel {
  path: string;
  name: RuleFileName;
  rules: NumberedLine[];
}

export interface ProjectModel {
  project: DoctorProject;
  ruleFiles: RuleFileModel[];
}

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^\s*#{1,6}\s/;
const MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/;
/** An instruction file above this is not read (Codex itself stops at 32 KiB of project docs). */
const RULE_FILE_MAX_BYTES = 1024 * 1024;
/** Git roots are searched this far up from a cwd (Codex walks to the repository root). */
const MAX_PARENTS = 40;

/** The lines of an instruction file that say something: prose and bullets of three words or more, outside code fences. */
export function ruleLines(text: string): NumberedLine[] {
  const out: NumberedLine[] = [];
  let fenced = false;
  for (const [i, raw] of text.split(/\r\n|\n|\r/).entries()) {
    if (FENCE.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || HEADING.test(raw) || raw.trim().startsWith('<!--')) continue;
    const text = raw.replace(MARKER, '').trim();
    if (text.split(/\s+/).length >= 3) out.push({ line: i + 1, text });
  }
  return out;
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** The repository root above `cwd` (the nearest folder holding `.git`), or null: Codex then reads the cwd alone. */
async function gitRoot(cwd: string): Promise<string | null> {
  let dir = cwd;
  for (let i = 0; i < MAX_PARENTS; i++) {
    if (
      await lstat(join(dir, '.git')).then(
        () => true,
        () => false,
      )
    )
      return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  return null;
}

/** From the repository root down to the cwd, as Codex collects project docs. */
function chain(root: string | null, cwd: string): string[] {
  if (!root) return [cwd];
  const parts = relative(root, cwd).split(sep).filter(Boolean);
  const dirs = [root];
  let dir = root;
  for (const part of parts) {
    dir = join(dir, part);
    dirs.push(dir);
  }
  return dirs;
}

/**
 * Reading is not writing: a rule file is read where Codex reads it, also in a folder reached through a symlink, but
 * never through a symlink of its own (O_NOFOLLOW), never when it is not a regular file, and only as UTF-8 text.
 */
async function readRuleFile(dir: string, name: RuleFileName, skipped: string[]): Promise<RuleFileModel | null> {
  const path = join(dir, name);
  try {
    const file = await readRegularFile(
      path,
      path,
      RULE_FILE_MAX_BYTES,
      (size) => new StudioFailure('Unsupported', `it is ${Math.ceil(size / 1024)} KiB, too big for an instruction file`),
    );
    const text = decodeUtf8Strict(file.bytes);
    if (text === null) throw new StudioFailure('Invalid', 'it is not valid UTF-8');
    if (text.trim() === '') return null;
    return { path, name, rules: ruleLines(text) };
  } catch (error) {
    if (error instanceof StudioFailure && error.kind === 'NotFound') return null;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    skipped.push(`${path} was not read: ${error instanceof StudioFailure ? error.message : String(error)}`);
    return null;
  }
}

/** Per folder, AGENTS.override.md wins over AGENTS.md (Codex reads one of them); CLAUDE.md is Claude Code's. */
async function filesOf(dir: string, skipped: string[], withClaude: boolean): Promise<RuleFileModel[]> {
  const out: RuleFileModel[] = [];
  const codex = (await readRuleFile(dir, 'AGENTS.override.md', skipped)) ?? (await readRuleFile(dir, 'AGENTS.md', skipped));
  if (codex) out.push(codex);
  if (!withClaude) return out;
  const claude = await readRuleFile(dir, 'CLAUDE.md', skipped);
  if (claude) out.push(claude);
  return out;
}

/** One project folder: does it exist, and which instruction files apply in it. */
export async function readProject(cwd: string, from: DoctorProject['from']): Promise<ProjectModel> {
  const skipped: string[] = [];
  const exists = await isDir(cwd);
  const ruleFiles: RuleFileModel[] = [];
  if (exists) {
    const dirs = from === 'global' ? [cwd] : chain(await gitRoot(cwd), cwd);
    // The Codex home's AGENTS.md is Codex's global guidance; a CLAUDE.md there means nothing to either tool.
    for (const dir of dirs) ruleFiles.push(...(await filesOf(dir, skipped, from !== 'global')));
  }
  return {
    project: { cwd, exists, from, ruleFiles: ruleFiles.map((f) => ({ path: f.path, name: f.name, rules: f.rules.length })), skipped },
    ruleFiles,
  };
}
