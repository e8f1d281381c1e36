// Where an import writes: the target roots by Codex's rule, and what their `external_agent_import` folders hold now.
import { appendAll } from '../platform/append';
import { readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { ImportTarget } from '../../../shared/import';
import { IMPORT_EXTENSION_DIR, IMPORT_INSTRUCTIONS_PATH, IMPORT_RESOURCES_DIR } from './instructions';
import { pathKind, readSourceFile, readSourceFiles, walkMarkdown } from './read-source';

/** Existing target files are read up to this size (a bigger one is simply rewritten or deleted). */
const TARGET_READ_LIMIT = 16 * 1024 * 1024;

/**
 * The statement of Codex's rule: both roots when a v1 root exists or v1 is the configured version (Codex's
 * importer writes to v1; the v2 copy keeps a later switch to v2, or `dual_write`, from losing the import), otherwise
 * v2 alone. A target root that does not exist yet is created by Apply (under its locks), as Codex's importer creates its layout.
 */
export function chooseTargets(home: HomeInfo): { targets: ImportTarget[]; rule: string } {
  const root = (v: MemoryVersion) => home.roots.find((r) => r.version === v);
  const v1 = root('v1');
  const v2 = root('v2');
  const target = (v: MemoryVersion, path: string, exists: boolean): ImportTarget => ({
    version: v,
    root: path,
    rootExists: exists,
    extensionDir: join(path, IMPORT_EXTENSION_DIR),
  });
  const v1Path = v1?.path ?? join(home.codexHome, 'memories');
  const v2Path = v2?.path ?? join(home.codexHome, 'memories_v2');
  if (v1?.exists || home.config.memories.version === 'v1') {
    const why = v1?.exists ? 'a v1 memory folder exists' : 'memories.version is v1';
    return {
      targets: [target('v1', v1Path, v1?.exists ?? false), target('v2', v2Path, v2?.exists ?? false)],
      rule: `Both roots: ${why}, so the import goes to v1 (where Codex's importer writes) and to v2 (kept in step for memories.version = "v2" or dual_write).`,
    };
  }
  return {
    targets: [target('v2', v2Path, v2?.exists ?? false)],
    rule: 'v2 only: there is no v1 memory folder and memories.version is v2.',
  };
}

export interface TargetState {
  /** Content of `instructions.md`, or null when absent. */
  instructions: string | null;
  /** Per project key under `resources/`: relative path -> content (null when unreadable or not text). */
  projects: Map<string, Map<string, string | null>>;
  /** Symlinks and other entries that would make the proposal refuse to write there. */
  problems: string[];
}

async function readTargetProject(dir: string, sharedLoop: boolean): Promise<{ files: Map<string, string | null>; problems: string[] }> {
  // The walk compares each folder's real path with the root's: the root must be real too, or a symlinked parent of
  // CODEX_HOME (dotfiles setups) makes every folder look "outside" and the earlier import invisible.
  const walked = await walkMarkdown(dir, await realpath(dir).catch(() => dir), null, () => true);
  const reads = await readSourceFiles(walked.files, TARGET_READ_LIMIT, undefined, sharedLoop);
  const files = new Map(reads.map(({ f, outcome }) => [f.relPath, outcome.ok ? outcome.file.text : null] as const));
  return { files, problems: walked.skipped.map((s) => s.reason) };
}

/**
 * Reads the root's `extensions/external_agent_import` without following symlinks; `sharedLoop` false (a thread of its
 * own) reads its files synchronously.
 */
export async function readTargetState(target: ImportTarget, sharedLoop = true): Promise<TargetState> {
  const state: TargetState = { instructions: null, projects: new Map(), problems: [] };
  // The disk decides, not the (possibly older) home inspection: an earlier import may have created the root since.
  if ((await pathKind(target.root)) !== 'dir') return state;
  const instructions = await readSourceFile(join(target.root, IMPORT_INSTRUCTIONS_PATH), TARGET_READ_LIMIT);
  state.instructions = instructions.ok ? instructions.file.text : null;
  const resources = join(target.root, IMPORT_RESOURCES_DIR);
  const kind = await pathKind(resources);
  if (kind === 'symlink')
    state.problems.push(`${resources} is a symlink; Codex refuses it and nothing can be imported there until it is replaced by a folder.`);
  if (kind !== 'dir') return state;
  for (const entry of await readdir(resources, { withFileTypes: true })) {
    const dir = join(resources, entry.name);
    if (entry.isSymbolicLink()) state.problems.push(`${dir} is a symlink; Codex deletes symlinks in a memory folder.`);
    if (!entry.isDirectory()) continue;
    const read = await readTargetProject(dir, sharedLoop);
    if (read.files.size > 0) state.projects.set(entry.name, read.files);
    appendAll(state.problems, read.problems);
  }
  return state;
}
