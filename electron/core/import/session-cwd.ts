// A Claude Code project's real path from its session files: newest first, the first JSON line with an absolute `cwd`.
import { createReadStream } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { createInterface } from 'node:readline';

/** Lines read per session file before giving up on it (Codex reads until a cwd is found; this keeps a huge file bounded). */
const MAX_LINES_PER_FILE = 2_000;

async function cwdOfSession(path: string): Promise<string | null> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let count = 0;
  try {
    for await (const line of lines) {
      if (++count > MAX_LINES_PER_FILE) break;
      if (!line.includes('"cwd"')) continue;
      try {
        const value = (JSON.parse(line) as { cwd?: unknown }).cwd;
        if (typeof value === 'string' && isAbsolute(value)) return value;
      } catch {
        // Not JSON: Codex skips such lines too.
      }
    }
    return null;
  } catch {
    return null;
  } finally {
    lines.close();
    stream.destroy();
  }
}

/** The cwd recorded by the newest session in `projectDir` (canonicalised when it exists), or null. */
export async function sessionCwd(projectDir: string): Promise<string | null> {
  let names: string[];
  try {
    names = (await readdir(projectDir)).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return null;
  }
  const dated: { path: string; mtimeMs: number }[] = [];
  for (const name of names) {
    const path = join(projectDir, name);
    const info = await lstat(path).catch(() => null);
    if (info?.isFile()) dated.push({ path, mtimeMs: info.mtimeMs });
  }
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
  for (const { path } of dated) {
    const cwd = await cwdOfSession(path);
    if (cwd) return realpath(cwd).catch(() => cwd);
  }
  return null;
}
