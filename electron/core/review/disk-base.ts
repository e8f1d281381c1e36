// Reads a proposal target's current content as its base, through the safe-path checks (absent is a valid base).
import { createHash, randomBytes } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import type { FileTarget } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import { AGENT_CONFIG_CAP_BYTES, AGENT_CONFIG_NAMES, AGENT_FOLDER, readProjectFile } from '../codex/project-file';
import { checkRelativePath, resolveInsideRoot } from '../platform/safe-path';
import { ANALYSIS_CAP_BYTES, readMemoryFile } from '../codex/workspace';

export interface DiskBase {
  content: string;
  sha256: string;
}

/** SHA-256 of the UTF-8 bytes of `text`: the exact bytes, since bases are strictly decoded UTF-8 (a BOM is kept). */
export function sha256Text(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Short random ids with a prefix saying what they name (`p-` proposal, `e-` history entry). */
export function newId(prefix: 'p' | 'e'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

async function rootExists(root: string): Promise<boolean> {
  try {
    await lstat(root);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * The file's current content, or null when it does not exist. The path is checked first even when the file is
 * absent (no `..`, absolute paths, `.git/`, symlinks anywhere on the way), so a creation cannot escape the root.
 * A `project` target is a project's AGENTS.md, an `agent-config` target an agent's MCP configuration: both checked by
 * the project-file rules instead (project-file.ts).
 */
export async function readDiskBase(
  root: string,
  version: MemoryVersion,
  relPath: string,
  target: FileTarget = 'memory',
): Promise<DiskBase | null> {
  if (target === 'project' || target === 'agent-config') {
    // An agent's configuration (connecting it) is checked by the same rules as a project's AGENTS.md.
    const file =
      target === 'project'
        ? await readProjectFile(root, relPath)
        : await readProjectFile(root, relPath, [], AGENT_CONFIG_NAMES, AGENT_FOLDER, AGENT_CONFIG_CAP_BYTES);
    return file ? { content: file.content, sha256: file.sha256 } : null;
  }
  if (!isAbsolute(root)) {
    throw new StudioFailure('Invalid', `The memory folder "${root}" is not an absolute path.`, {
      path: root,
      hint: 'Pass the full path of the memory folder.',
    });
  }
  // A root that does not exist yet (an import into a version Codex has not used) holds no file: every base is
  // absent, and Apply creates the root under its locks. The path itself is still checked.
  if (!(await rootExists(root))) {
    checkRelativePath(relPath);
    return null;
  }
  await resolveInsideRoot(root, relPath);
  try {
    // A base is read whole for review and Apply, up to the processing cap (a 20 MB MEMORY.md must stay reviewable).
    const file = await readMemoryFile(root, version, relPath, ANALYSIS_CAP_BYTES);
    return { content: file.content, sha256: sha256Text(file.content) };
  } catch (error) {
    // Only the file itself missing means "absent"; a missing root was already refused above.
    if (error instanceof StudioFailure && error.kind === 'NotFound') return null;
    throw error;
  }
}
