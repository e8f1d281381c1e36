// A Claude Code project's real path from its session files: newest first, the first JSON line with an absolute `cwd`.
import { read } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { closeQuietly, describeFileType, notRegular, openRegularFile } from '../platform/regular-file';

const readFd = promisify(read);

/** Bytes read per session file before giving up on it (Codex reads until a cwd is found; this keeps a huge file bounded). */
const MAX_BYTES_PER_FILE = 4 * 1024 * 1024;
const CHUNK = 64 * 1024;

function cwdOfLine(line: string): string | null {
  if (!line.includes('"cwd"')) return null;
  try {
    const value = (JSON.parse(line) as { cwd?: unknown }).cwd;
    return typeof value === 'string' && isAbsolute(value) ? value : null;
  } catch {
    return null; // Not JSON: Codex skips such lines too.
  }
}

/**
 * The first line with an absolute `cwd`, reading 64 KiB at a time on the thread pool (a session file may be large, and
 * a slow mount must not stop the host's event loop). A symlink, FIFO or device is passed over unread, never waited on.
 */
async function cwdOfSession(path: string): Promise<string | null> {
  let fd: number;
  try {
    fd = (await openRegularFile(path, path)).fd;
  } catch {
    return null;
  }
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let pending = Buffer.alloc(0);
    for (let offset = 0; offset < MAX_BYTES_PER_FILE;) {
      const { bytesRead: n } = await readFd(fd, buf, 0, CHUNK, offset);
      if (n === 0) break;
      offset += n;
      pending = Buffer.concat([pending, buf.subarray(0, n)]);
      let nl: number;
      while ((nl = pending.indexOf(0x0a)) !== -1) {
        const found = cwdOfLine(pending.subarray(0, nl).toString('utf8'));
        if (found) return found;
        pending = pending.subarray(nl + 1);
      }
    }
    return pending.length > 0 ? cwdOfLine(pending.toString('utf8')) : null;
  } catch {
    return null;
  } finally {
    await closeQuietly(fd);
  }
}

/** `cwd` canonicalised, or null when it does not exist or is not a folder (Codex's `canonicalize` + `is_dir`). */
async function existingDir(cwd: string): Promise<string | null> {
  const real = await realpath(cwd).catch(() => null);
  if (real === null) return null;
  return (await stat(real).catch(() => null))?.isDirectory() ? real : null;
}

/**
 * The canonical cwd recorded by the newest session in `projectDir` whose cwd is an existing folder, or null. As in
 * Codex, a session whose cwd cannot be canonicalised (moved or deleted project) is passed over for the next newest.
 */
export async function sessionCwd(projectDir: string): Promise<string | null> {
  return (await sessionCwdInfo(projectDir)).cwd;
}

/**
 * `cwd` as `sessionCwd` finds it, and when there is none, the newest cwd a session records that is not a folder here;
 * `unread` names the session files that are a FIFO, socket or device, passed over unopened.
 */
export async function sessionCwdInfo(
  projectDir: string,
): Promise<{ cwd: string | null; gone: string | null; unread: Array<{ path: string; reason: string }> }> {
  let names: string[];
  const unread: Array<{ path: string; reason: string }> = [];
  try {
    names = (await readdir(projectDir)).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return { cwd: null, gone: null, unread };
  }
  const dated: { path: string; mtimeMs: number }[] = [];
  for (const name of names) {
    const path = join(projectDir, name);
    const info = await lstat(path).catch(() => null);
    if (info?.isFile()) dated.push({ path, mtimeMs: info.mtimeMs });
    else if (info && !info.isSymbolicLink() && !info.isDirectory())
      unread.push({ path, reason: notRegular(path, describeFileType(info)).message });
  }
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
  let gone: string | null = null;
  for (const { path } of dated) {
    const cwd = await cwdOfSession(path);
    const real = cwd === null ? null : await existingDir(cwd);
    if (real !== null) return { cwd: real, gone: null, unread };
    gone ??= cwd;
  }
  return { cwd: null, gone, unread };
}
