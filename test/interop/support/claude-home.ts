// A Claude Code home under $HOME/.claude with one project's auto memory, as Claude Code writes it, and file snapshots.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BASELINE_DIRS } from '../../../electron/core/codex/constants';

/** Claude Code's project folder name: every character outside A-Za-z0-9 becomes `-`. */
export function claudeProjectKey(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

export interface ClaudeProject {
  claudeHome: string;
  key: string;
  cwd: string;
  files: Record<string, string>;
}

/** `$HOME/.claude/projects/<key>/memory/*.md` and one session file whose first line names the (existing) cwd. */
export async function writeClaudeProject(userHome: string, cwd: string): Promise<ClaudeProject> {
  const claudeHome = join(userHome, '.claude');
  const key = claudeProjectKey(cwd);
  const project = join(claudeHome, 'projects', key);
  const files: Record<string, string> = {
    'MEMORY.md':
      '- [Testing workflow](feedback_testing.md) — run the unit tests before any edit\n- [Release](project_release.md) — releases go out on Tuesdays\n',
    'feedback_testing.md':
      '---\nname: Testing workflow\ndescription: run the unit tests before any edit\ntype: feedback\n---\n\nRun `npm test` before editing.\n\n**Why:** a red suite hides the real cause.\n',
    'project_release.md':
      '---\nname: Release\ndescription: releases go out on Tuesdays\ntype: project\n---\n\nReleases are cut on Tuesdays from `main`.\n',
  };
  await mkdir(join(project, 'memory'), { recursive: true });
  await mkdir(cwd, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(project, 'memory', name), text);
  const line = {
    type: 'user',
    cwd,
    sessionId: 'claude-session-1',
    timestamp: new Date().toISOString(),
    message: { role: 'user', content: 'remember how we test' },
  };
  await writeFile(join(project, 'session-1.jsonl'), `${JSON.stringify(line)}\n`);
  return { claudeHome, key, cwd, files };
}

/** Every file under a memory root (baseline folders left out) with its SHA-256: what an import may change. */
export async function snapshotRoot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(rel === '' ? root : join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (rel === '' && BASELINE_DIRS.includes(entry.name)) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile())
        out.set(
          path,
          createHash('sha256')
            .update(await readFile(join(root, path)))
            .digest('hex'),
        );
    }
  };
  await walk('');
  return out;
}

/** The snapshot entries under a prefix, as a plain object (readable in an assertion diff). */
export function under(snapshot: Map<string, string>, prefix: string): Record<string, string> {
  return Object.fromEntries([...snapshot].filter(([path]) => path.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : 1)));
}
