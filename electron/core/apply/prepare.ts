// Before any rename: check the plan, resolve every target inside its root, re-check bases, write the temp files.
import { lstat, mkdir, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { StudioFailure } from '../platform/errors';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { resolveProjectFile } from '../codex/project-file';
import { AGENT_CONFIG_NAMES, AGENT_FOLDER } from '../agent-config/targets';
import { refuseNewSecrets } from '../lint/project-secrets';
import { checkRelativePath, resolveInsideRoot } from '../platform/safe-path';
import { tempPathFor, writeDurable } from '../platform/atomic-write';
import { fileFailure } from './file-errors';
import { sha256 } from './journal';
import type { ApplyFile, ApplyPlan, FaultInjection } from './types';

export interface PreparedFile {
  file: ApplyFile;
  target: string;
  data: Buffer | null;
  targetSha256: string | null;
  mode: number;
  /** The bytes on disk when the base was re-checked (null = absent), for the outcome and for undoing a failed commit. */
  before: Buffer | null;
  temp: string | null;
  trash: string | null;
}

const PLAN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Path-only checks that need no lock: a bad plan is refused before anything is taken. */
export function checkPlanShape(plan: ApplyPlan): void {
  if (!PLAN_ID.test(plan.id)) throw new StudioFailure('Invalid', `The proposal id "${plan.id}" cannot name a journal file.`);
  if (plan.files.length === 0 && !plan.db) throw new StudioFailure('Invalid', 'The proposal has no files to apply.');
  const seen = new Set<string>();
  for (const file of plan.files) {
    if (!isAbsolute(file.root))
      throw new StudioFailure('Invalid', `The memory folder "${file.root}" is not an absolute path.`, { path: file.root });
    if (isMemoryFile(file)) checkRelativePath(file.relPath);
    const key = `${file.root}\0${file.relPath}`;
    if (seen.has(key)) throw new StudioFailure('Invalid', `${file.relPath} appears twice in the proposal.`, { path: file.relPath });
    seen.add(key);
  }
  for (const { version, root } of [...memoryFiles(plan), ...(plan.db?.versions ?? [])]) {
    if (!isAbsolute(root)) throw new StudioFailure('Invalid', `The memory folder "${root}" is not an absolute path.`, { path: root });
    if (!plan.dbPaths[version]) {
      throw new StudioFailure(
        'Invalid',
        `The proposal touches the ${version} memory folder but names no ${version} memory DB for Codex's lock.`,
      );
    }
  }
}

/** A file of a memory root, not a project's AGENTS.md or an agent's configuration (those are outside every root). */
export function isMemoryFile(file: Pick<ApplyFile, 'target'>): boolean {
  return (file.target ?? 'memory') === 'memory';
}

/** The plan's files inside memory roots: only these need Codex's lease. */
export function memoryFiles(plan: ApplyPlan): ApplyFile[] {
  return plan.files.filter(isMemoryFile);
}

function trashPathFor(trashDir: string, file: ApplyFile): string {
  return isMemoryFile(file)
    ? join(trashDir, file.version, ...file.relPath.split('/'))
    : join(trashDir, file.target ?? 'project', file.root.replace(/[\\/:]+/g, '_'), file.relPath);
}

/** Resolves every target (no symlink, no `.git`, nothing outside the root) and reads its current bytes. */
export async function resolveTargets(plan: ApplyPlan, trashDir: string): Promise<PreparedFile[]> {
  const prepared: PreparedFile[] = [];
  for (const file of plan.files) {
    const target =
      file.target === 'project'
        ? await resolveProjectFile(file.root, file.relPath, plan.memoryRoots ?? [])
        : file.target === 'agent-config'
          ? await resolveProjectFile(file.root, file.relPath, plan.memoryRoots ?? [], AGENT_CONFIG_NAMES, AGENT_FOLDER)
          : await resolveInsideRoot(file.root, file.relPath);
    const info = await lstat(target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (info && !info.isFile())
      throw new StudioFailure('Invalid', `${file.relPath} in ${file.root} is not a regular file; Memory Studio only replaces files.`, {
        path: file.relPath,
      });
    const data = file.content === null ? null : Buffer.from(file.content, 'utf8');
    const before = info ? (await readRegularFile(target, file.relPath, NO_CAP)).bytes : null;
    // Outside the memory roots, no secret is written whatever the proposal says (checked when proposed, and here).
    if (!isMemoryFile(file)) refuseNewSecrets(target, file.content, before?.toString('utf8') ?? null);
    prepared.push({
      file,
      target,
      data,
      targetSha256: data === null ? null : sha256(data),
      mode: info ? info.mode & 0o777 : 0o644,
      before,
      temp: null,
      trash: file.content === null ? trashPathFor(trashDir, file) : null,
    });
  }
  return prepared;
}

/** Any file whose bytes are not the proposal's base is a conflict: nothing is overwritten. */
export function checkBases(prepared: readonly PreparedFile[]): void {
  for (const p of prepared) {
    const current = p.before === null ? null : sha256(p.before);
    if (current !== p.file.baseSha256) {
      const now = current === null ? 'it no longer exists' : p.file.baseSha256 === null ? 'it now exists' : 'its content changed';
      throw new StudioFailure(
        'Conflict',
        `${p.file.relPath} in ${p.file.root} changed since the proposal was made (${now}); nothing was written.`,
        {
          path: p.file.relPath,
          hint: 'Review the difference between the proposal and the file on disk, then rebase the proposal onto the current content.',
        },
      );
    }
  }
}

/** Creates missing parent folders one by one (each checked to be inside the root) and returns the ones created. */
async function ensureParent(root: string, target: string, created: string[], known: Set<string>): Promise<void> {
  const parts = relative(root, dirname(target)).split(sep).filter(Boolean);
  let dir = root;
  for (const part of parts) {
    dir = join(dir, part);
    // A folder seen in this Apply is not asked again: an import's 10,000 files share a few hundred folders.
    if (known.has(dir)) continue;
    const exists = await stat(dir).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await mkdir(dir);
      created.push(dir);
    }
    known.add(dir);
  }
}

/** Removes temp files and the folders made for them, newest first; used whenever an apply stops before committing. */
export async function discardTemps(prepared: readonly PreparedFile[], createdDirs: readonly string[]): Promise<void> {
  for (const p of prepared) {
    if (p.temp) await unlink(p.temp).catch(() => undefined);
    p.temp = null;
  }
  for (const dir of [...createdDirs].reverse()) await rmdir(dir).catch(() => undefined);
}

/** Temp files written at once: each waits on its fsync, and the disk takes several at a time. */
const WRITERS = 8;

/**
 * Writes every proposed content to its fsync'd temp file; on any failure, removes them all and names the file (the
 * first in the plan's order among those that failed). The folders are made first, in order; then up to WRITERS temp
 * files are written at once, and after a failure no new one starts and every one on its way settles before cleanup.
 */
export async function writeTemps(prepared: PreparedFile[], createdDirs: string[], faults: FaultInjection | undefined): Promise<void> {
  const failed: Array<{ index: number; error: unknown }> = [];
  const known = new Set<string>();
  for (const [index, p] of prepared.entries()) {
    if (p.data === null) continue;
    try {
      await ensureParent(p.file.root, p.target, createdDirs, known);
    } catch (error) {
      failed.push({ index, error });
      break;
    }
  }
  let next = 0;
  const writer = async (): Promise<void> => {
    while (failed.length === 0 && next < prepared.length) {
      const index = next++;
      const p = prepared[index] as PreparedFile;
      if (p.data === null) continue;
      const temp = tempPathFor(p.target);
      const fault =
        faults?.failWriteAt?.file === index ? { afterBytes: faults.failWriteAt.afterBytes ?? 0, code: faults.failWriteAt.code } : undefined;
      try {
        await writeDurable(temp, p.data, p.mode, fault);
        p.temp = temp;
      } catch (error) {
        failed.push({ index, error });
      }
    }
  };
  if (failed.length === 0) await Promise.all(Array.from({ length: Math.min(WRITERS, prepared.length) }, writer));
  const first = failed.sort((a, b) => a.index - b.index)[0];
  if (!first) return;
  await discardTemps(prepared, createdDirs);
  const p = prepared[first.index] as PreparedFile;
  throw fileFailure(first.error, { relPath: p.file.relPath, root: p.file.root, dir: dirname(p.target) }, 'write', 'Nothing was changed.');
}
