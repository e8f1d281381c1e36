// The file changes a staged consolidation would make to the live root: created, modified and deleted text files, by path.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { FILES } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { decodeUtf8Strict } from '../platform/utf8';
import { walkFiles } from './workspace-diff';

export interface StagedChange {
  relPath: string;
  /** The staged content, or null when the run deletes the file. */
  proposedContent: string | null;
}

const READ_BATCH = 32;

/** The bytes, or null when absent; a symlink, FIFO or other non-regular file is refused by name, never waited on. */
async function readNoFollow(path: string, label: string): Promise<Buffer | null> {
  return readRegularFile(path, label, NO_CAP).then(
    (file) => file.bytes,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    },
  );
}

function asText(bytes: Buffer, relPath: string, where: string): string {
  const text = bytes.includes(0) ? null : decodeUtf8Strict(bytes);
  if (text === null) {
    throw new StudioFailure(
      'Unsupported',
      `${relPath} in the ${where} is not UTF-8 text, so the consolidation cannot be proposed as a text change.`,
      {
        path: relPath,
        hint: 'Memory files are Markdown; remove or convert the binary file (in the live folder, or the engine wrote it) and run again.',
      },
    );
  }
  return text;
}

async function compareOne(stagingRoot: string, liveRoot: string, relPath: string, inStaging: boolean): Promise<StagedChange | null> {
  const parts = relPath.split('/');
  const staged = inStaging ? await readNoFollow(join(stagingRoot, ...parts), `${relPath} in the staged result`) : null;
  const live = await readNoFollow(join(liveRoot, ...parts), `${relPath} in the live folder`);
  if (staged && live && staged.equals(live)) return null;
  if (!staged && !live) return null;
  if (!staged) {
    asText(live as Buffer, relPath, 'live folder');
    return { relPath, proposedContent: null };
  }
  const proposedContent = asText(staged, relPath, 'staged result');
  if (live) asText(live, relPath, 'live folder');
  return { relPath, proposedContent };
}

/**
 * Every file whose bytes differ between `stagingRoot` and `liveRoot` (never `.git/` or `phase2_workspace_diff.md`),
 * sorted by path; a binary or non-UTF-8 file on either side is refused with a StudioFailure naming it.
 * Symlinks in the live root are left out: staging never copies them, and a proposal does not delete them.
 * `only` limits the comparison to these paths (what the sync and the engine changed).
 */
export async function stagedChanges(
  stagingRoot: string,
  liveRoot: string,
  options: { only?: ReadonlySet<string> } = {},
): Promise<StagedChange[]> {
  const staged = await walkFiles(stagingRoot, [FILES.workspaceDiff]);
  if (staged.symlinks.length > 0) {
    throw new StudioFailure(
      'Invalid',
      `The staged result contains symlinks (${staged.symlinks.join(', ')}); Codex deletes them and fails its consolidation.`,
      {
        path: staged.symlinks[0],
        hint: 'Validation should have refused this run; start a new run.',
      },
    );
  }
  const liveInfo = await lstat(liveRoot).catch(() => null);
  const live = liveInfo?.isDirectory() ? await walkFiles(liveRoot, [FILES.workspaceDiff]) : { files: [] };
  const inStaging = new Set(staged.files);
  // With `only`, just the files the run touched: a live file edited (or created) meanwhile is not "undone" by the proposal.
  const all = [...new Set([...staged.files, ...live.files])]
    .filter((p) => !options.only || options.only.has(p))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: StagedChange[] = [];
  for (let i = 0; i < all.length; i += READ_BATCH) {
    const batch = all.slice(i, i + READ_BATCH);
    const results = await Promise.all(batch.map((p) => compareOne(stagingRoot, liveRoot, p, inStaging.has(p))));
    for (const r of results) if (r) out.push(r);
  }
  return out;
}
