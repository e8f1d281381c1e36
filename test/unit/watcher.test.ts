// The watcher on a real folder: writes and removals are announced, attribute-only changes (a hard link, chmod) are not.
import { chmod, link, mkdir, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../shared/contract';
import { inspectHome } from '../../electron/core/codex/home';
import { watchHome, type Disposable } from '../../electron/core/codex/watcher';
import { makeTempDir } from './helpers';

const cleanups: (() => Promise<void>)[] = [];
let watcher: Disposable | null = null;
afterEach(async () => {
  watcher?.dispose();
  watcher = null;
  for (const c of cleanups.splice(0)) await c();
});

/** Changed paths per workspace.changed event, until one names `until`. */
function collectUntil(events: EventEnvelope[], until: string): Promise<string[][]> {
  return new Promise((resolve) => {
    const check = () => {
      const batches = events.flatMap((e) => (e.event === 'workspace.changed' ? [e.payload.paths] : []));
      if (batches.some((paths) => paths.includes(until))) resolve(batches);
      else setTimeout(check, 20);
    };
    check();
  });
}

describe('watchHome', () => {
  it('leaves out a hard link made and removed, and a chmod, but announces a write', { timeout: 300_000 }, async () => {
    const temp = await makeTempDir();
    cleanups.push(temp.cleanup);
    const root = join(temp.dir, 'memories');
    await mkdir(join(root, 'rollout_summaries'), { recursive: true });
    const summary = join(root, 'rollout_summaries', 'a.md');
    await writeFile(summary, 'thread a\n');
    await writeFile(join(root, 'MEMORY.md'), '# Task Group: a\n');
    const old = new Date('2026-01-01T00:00:00Z');
    await utimes(summary, old, old);
    const staging = join(temp.dir, 'staging');
    await mkdir(staging);
    const home = await inspectHome({ codexHome: temp.dir, source: 'flag' });
    const events: EventEnvelope[] = [];
    watcher = watchHome(home, (e) => events.push(e));

    await link(summary, join(staging, 'a.md'));
    await chmod(summary, 0o600);
    await unlink(join(staging, 'a.md'));
    // A write after them: by the time it is announced, anything the attribute changes caused has been too.
    await writeFile(join(root, 'MEMORY.md'), '# Task Group: b\n');
    const batches = await collectUntil(events, 'MEMORY.md');
    expect(batches.flat()).not.toContain('rollout_summaries/a.md');

    await rm(summary);
    const after = await collectUntil(events, 'rollout_summaries/a.md');
    expect(after.flat()).toContain('rollout_summaries/a.md');
  });
});
