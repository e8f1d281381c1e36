// The watch `memory-studio keep` trusts in place of the stat pass: every folder of the trees watched, every change
// counted (in place, in a folder made after the start, a replaced root), and nothing vouched for while a folder is
// still being added. Real folders, real inotify.
import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchHomeTree, type HomeWatch } from '../../../electron/core/codex/home-watch';
import { makeTempDir, until } from '../helpers';

let tmp: { dir: string; cleanup: () => Promise<void> };
let watch: HomeWatch | null = null;
let home: string;

/** Resolves when the watch's count has moved past `from` and it vouches again (no timer: the watch's own callback). */
function movedPast(w: HomeWatch, from: number, onChange: Array<() => void>): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (w.changes() > from && w.vouches()) resolve();
      else onChange.push(check);
    };
    check();
  });
}

function watched(): { w: HomeWatch; waiters: Array<() => void> } {
  const waiters: Array<() => void> = [];
  const w = watchHomeTree(home, () => {
    // Let the watch finish its bookkeeping for this event before the waiters look.
    setImmediate(() => waiters.splice(0).forEach((f) => f()));
  });
  watch = w;
  return { w, waiters };
}

beforeEach(async () => {
  tmp = await makeTempDir();
  home = join(tmp.dir, 'codex');
  await mkdir(join(home, 'memories_v2', 'rollout_summaries'), { recursive: true });
  await mkdir(join(home, 'memories_v2', '.git', 'objects', 'ab'), { recursive: true });
  await mkdir(join(home, 'sessions', '2026', '12', '01'), { recursive: true });
  await writeFile(join(home, 'memories_v2', 'rollout_summaries', 'a.md'), 'one\n');
});
afterEach(async () => {
  watch?.dispose();
  watch = null;
  await tmp.cleanup();
});

describe.runIf(process.platform === 'linux')('watchHomeTree', () => {
  it('watches every folder of the roots (.git included) and sessions, and vouches once they are all watched', async () => {
    const { w } = watched();
    expect(w.vouches()).toBe(false);
    await w.ready;
    expect(w.vouches()).toBe(true);
    expect(w.problem()).toBeNull();
    // memories_v2, rollout_summaries, .git, .git/objects, .git/objects/ab, sessions, 2026, 12, 01 (not the home)
    expect(w.folders()).toBe(9);
    expect(w.intact()).toBe(true);
  });

  it('counts a change in place, which leaves the folder mtime alone', async () => {
    const { w, waiters } = watched();
    await w.ready;
    const before = w.changes();
    await appendFile(join(home, 'memories_v2', 'rollout_summaries', 'a.md'), 'two\n');
    await movedPast(w, before, waiters);
    const appended = w.changes();
    await appendFile(join(home, 'sessions', '2026', '12', '01', 'rollout-x.jsonl'), '{}\n');
    await movedPast(w, appended, waiters);
  });

  it('watches a folder made after the start, and counts its files', async () => {
    const { w, waiters } = watched();
    await w.ready;
    const skill = join(home, 'memories_v2', 'skills', 'new-skill');
    await mkdir(skill, { recursive: true });
    await movedPast(w, w.changes(), waiters);
    await until('the watch to hold all 11 folders and vouch', () => w.folders() === 11 && w.vouches(), 30_000, 10);
    const before = w.changes();
    await writeFile(join(skill, 'SKILL.md'), 'x\n');
    await movedPast(w, before, waiters);
  });

  it('follows a root replaced by another folder', async () => {
    const { w, waiters } = watched();
    await w.ready;
    const other = join(tmp.dir, 'other-root');
    await mkdir(join(other, 'rollout_summaries'), { recursive: true });
    await rename(join(home, 'memories_v2'), join(tmp.dir, 'old-root'));
    await rename(other, join(home, 'memories_v2'));
    await movedPast(w, 0, waiters);
    // The new root and its rollout_summaries/, and the four sessions folders.
    const now = await followedOrRemade(w, waiters, 6);
    const before = now.w.changes();
    await writeFile(join(home, 'memories_v2', 'rollout_summaries', 'b.md'), 'x\n');
    await movedPast(now.w, before, now.waiters);
  });

  it('says when a tree appears or is removed and made again, and never counts what else the home holds', async () => {
    const { w, waiters } = watched();
    await w.ready;
    const before = w.changes();
    // Codex's DBs and logs sit in the home, which is not watched: they never move the count.
    for (const name of ['state_5.sqlite', 'state_5.sqlite-wal', 'logs_1.sqlite', 'config.toml']) await writeFile(join(home, name), 'x');
    await mkdir(join(home, 'memories'));
    expect(w.intact()).toBe(false); // a v1 root the watch does not have: the keeper watches again
    await rm(join(home, 'memories'), { recursive: true });
    expect(w.intact()).toBe(true);
    expect(w.changes()).toBe(before);
    // Removed and made again at once (ext4 may give it the same inode number): its own event has it watched anew.
    await rm(join(home, 'sessions'), { recursive: true });
    await mkdir(join(home, 'sessions'));
    await movedPast(w, before, waiters);
    const now = await followedOrRemade(w, waiters, 6); // memories_v2's five, and the new sessions/
    const again = now.w.changes();
    await writeFile(join(home, 'sessions', 'rollout-y.jsonl'), '{}\n');
    await movedPast(now.w, again, now.waiters);
  });
});

/**
 * After a tree's own folder was replaced, the watch either follows it (its event looked after the new folder was
 * there) or says it is not intact (it looked in between, on a busy machine), never neither: then the keeper makes the
 * watch again, as this does, and the new one must have the new folder.
 */
async function followedOrRemade(w: HomeWatch, waiters: Array<() => void>, folders: number) {
  await until('the watch to settle', () => !w.intact() || (w.vouches() && w.folders() === folders), 30_000, 10);
  if (w.intact()) return { w, waiters };
  w.dispose();
  const again = watched();
  await again.w.ready;
  expect(again.w.intact()).toBe(true);
  expect(again.w.folders()).toBe(folders);
  return again;
}
