// One file of "since the last consolidation": its baseline blob and its live bytes as texts, with the hunks between them.
import { lstat } from 'node:fs/promises';
import type { MemoryVersion } from '../../../../shared/domain';
import type { BaselineFileDiff } from '../../../../shared/review';
import { StudioFailure } from '../../platform/errors';
import { computeFileBlocksAsync, computeFileHunksAsync } from '../../review/hunks-off-thread';
import { checkRelativePath, resolveInsideRoot } from '../../platform/safe-path';
import { decodeUtf8Strict } from '../../platform/utf8';
import { headCommit, listTree, readBlobs } from './git-read';
import { BASELINE_HUNK_CAP_BYTES, readWorking } from './since-baseline';

/** The live bytes, or null when the file is absent; a symlink anywhere on the way is refused (it is never compared). */
async function liveBytes(root: string, path: string): Promise<Buffer | null> {
  const info = await lstat(await resolveInsideRoot(root, path)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!info) return null;
  if (!info.isFile())
    throw new StudioFailure('Unsupported', `${path} is not a regular file, so it is not compared with the baseline.`, { path });
  return readWorking(root, path);
}

function text(bytes: Buffer | null): { text: string | null; problem: string | null } {
  if (bytes === null) return { text: null, problem: null };
  if (bytes.length > BASELINE_HUNK_CAP_BYTES) return { text: null, problem: `larger than ${BASELINE_HUNK_CAP_BYTES} bytes` };
  const decoded = decodeUtf8Strict(bytes);
  return decoded === null ? { text: null, problem: 'not UTF-8 text' } : { text: decoded, problem: null };
}

/** Reads HEAD's blob for `path` (object reads only, `.git/` untouched) and the live file, and diffs them. */
export async function baselineFile(root: string, version: MemoryVersion, path: string): Promise<BaselineFileDiff> {
  checkRelativePath(path);
  const head = await headCommit(root);
  if (!head)
    throw new StudioFailure(
      'NotFound',
      `The ${version} memory folder has no git baseline yet: Codex makes one at its first consolidation.`,
      { path },
    );
  const entry = (await listTree(root, head.commit)).find((e) => e.path === path && e.type === 'blob' && e.mode !== '120000');
  const base = entry ? ((await readBlobs(root, [entry.sha])).get(entry.sha) ?? null) : null;
  const live = await liveBytes(root, path);
  if (base === null && live === null)
    throw new StudioFailure('NotFound', `${path} is neither in the baseline nor on disk.`, {
      path,
      hint: 'Refresh the list of changes since the last consolidation.',
    });
  const before = text(base);
  const after = text(live);
  const problem = before.problem ?? after.problem;
  const status = base === null ? 'added' : live === null ? 'deleted' : base.equals(live) ? 'unchanged' : 'modified';
  if (problem)
    return { version, path, status, before: null, after: null, hunks: [], note: `${path} is ${problem}; its diff is not shown.` };
  const hunks = await computeFileHunksAsync(before.text, after.text, { relPath: path, version });
  return {
    version,
    path,
    status,
    before: before.text,
    after: after.text,
    hunks,
    blocks: await computeFileBlocksAsync(before.text, after.text, { relPath: path, version }, hunks),
    note: null,
  };
}
