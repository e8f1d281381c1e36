// A project's cwd from its sessions as Codex resolves it: newest session first, skipping a cwd that is no existing folder.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionCwd, sessionCwdInfo } from '../../../electron/core/import/session-cwd';
import { makeTempDir } from '../helpers';
import { put, realDir } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function project(sessions: { name: string; cwd: string; at: string }[]): Promise<{ base: string; dir: string }> {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  const dir = join(temp.dir, 'projects', '-p');
  for (const s of sessions)
    await put(join(dir, s.name), `${JSON.stringify({ type: 'summary' })}\n${JSON.stringify({ cwd: s.cwd })}\n`, new Date(s.at));
  return { base: temp.dir, dir };
}

describe('session cwd', () => {
  it('passes over a newer session whose cwd is gone or is a file, and takes the next one whose cwd is a folder', async () => {
    const temp = await makeTempDir();
    cleanups.push(temp.cleanup);
    const real = await realDir(temp.dir, 'work', 'real');
    const file = join(temp.dir, 'work', 'a-file');
    await put(file, 'not a folder\n');
    const { dir } = await project([
      { name: 'newest.jsonl', cwd: join(temp.dir, 'work', 'deleted'), at: '2026-03-03T00:00:00Z' },
      { name: 'newer.jsonl', cwd: file, at: '2026-03-02T00:00:00Z' },
      { name: 'older.jsonl', cwd: real, at: '2026-03-01T00:00:00Z' },
    ]);
    expect(await sessionCwd(dir)).toBe(real);
  });

  it('is null when no session records an existing folder (never the raw, unresolvable path)', async () => {
    const { dir } = await project([{ name: 's.jsonl', cwd: '/nowhere/at/all', at: '2026-03-01T00:00:00Z' }]);
    expect(await sessionCwd(dir)).toBeNull();
  });

  it('names the newest recorded cwd that is not a folder here, so the plan can say which one', async () => {
    const { dir } = await project([
      { name: 'new.jsonl', cwd: '/elsewhere/newest', at: '2026-03-02T00:00:00Z' },
      { name: 'old.jsonl', cwd: '/elsewhere/older', at: '2026-03-01T00:00:00Z' },
    ]);
    expect(await sessionCwdInfo(dir)).toEqual({ cwd: null, gone: '/elsewhere/newest', unread: [] });
  });
});
