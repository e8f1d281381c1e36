// The watch `memory-studio keep` trusts in place of the stat pass: every folder of the trees watched, every change
// counted (in place, in a folder made after the start, a replaced root), and nothing vouched for while a folder is
// still being added. Real folders, real inotify.
import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchHomeTree, type HomeWatch } from '../../../electron/core/index-store/home-watch';
import { makeTempDir } from '../helpers';

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
    // home, memories_v2, rollout_summaries, .git, .git/objects, .git/objects/ab, sessions, 2026, 12, 01
    expect(w.folders()).toBe(10);
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
    await until(() => w.folders() === 12 && w.vouches());
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
    await until(() => w.vouches() && w.folders() === 7);
    const before = w.changes();
    await writeFile(join(home, 'memories_v2', 'rollout_summaries', 'b.md'), 'x\n');
    await movedPast(w, before, waiters);
  });

  it('ignores what else Codex keeps in its home (its DBs, logs), and counts config.toml', async () => {
    const { w } = watched();
    await w.ready;
    const before = w.changes();
    // Five distinct names (inotify merges repeated events of one name): counted, they would move the count by five.
    for (const name of ['state_5.sqlite', 'state_5.sqlite-wal', 'logs_1.sqlite', 'history.jsonl', 'auth.json'])
      await writeFile(join(home, name), 'x');
    // Events arrive in order: once the config's has been counted, the five before it have been seen.
    await writeFile(join(home, 'config.toml'), '[features]\nmemories = true\n');
    await until(() => w.changes() > before);
    expect(w.changes() - before).toBeLessThanOrEqual(2); // the config's create and write
  });
});

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
