// Import sources are read the product's one safe way (platform/regular-file.ts): a FIFO named like a Claude memory file
// is refused at once, never waited on; on a shared loop the reads of a memory folder overlap on the thread pool, and on
// a thread of its own (the CLI) they are synchronous with the same outcomes.
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoveryDeps } from '../../../electron/core/import/discover';
import { readMemoryDir } from '../../../electron/core/import/memory-dir';
import { readSourceFile, readSourceFiles } from '../../../electron/core/import/read-source';
import { makeTempDir, releaseFifoAfter } from '../helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function memoryDir(): Promise<string> {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  const dir = join(temp.dir, 'claude', 'projects', '-home-me-app', 'memory');
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Pending fs requests of this thread: each async open, fstat, read or close holds one until its callback runs. */
const pendingFsRequests = () => process.getActiveResourcesInfo().filter((r) => r.startsWith('FSReq')).length;

describe('import source reads', () => {
  it('refuse a FIFO named MEMORY.md with a clear message instead of waiting for a writer', async () => {
    const dir = await memoryDir();
    await writeFile(join(dir, 'user_role.md'), '---\nname: User role\ntype: user\n---\nA senior developer.\n');
    const fifo = join(dir, 'MEMORY.md');
    execFileSync('mkfifo', [fifo]);
    const release = releaseFifoAfter(fifo, 20_000);
    try {
      const started = Date.now();
      // The walk sees the FIFO in the listing and never opens it.
      const read = await readMemoryDir(dir, '-home-me-app');
      expect(read.files.map((f) => f.relPath)).toEqual(['user_role.md']);
      expect(read.skipped).toEqual([
        expect.objectContaining({
          path: fifo,
          code: 'unreadable',
          reason: expect.stringMatching(/MEMORY\.md is a named pipe \(FIFO\), not a regular file/),
        }),
      ]);
      // A FIFO swapped in after the listing reaches the open itself, which must not wait either.
      expect(await readSourceFile(fifo)).toEqual({
        ok: false,
        code: 'unreadable',
        reason: expect.stringMatching(/MEMORY\.md is a named pipe \(FIFO\), not a regular file/),
      });
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      release();
    }
  });

  it('overlap: a memory folder of many files has several reads in flight at once', async () => {
    const dir = await memoryDir();
    const count = 200;
    for (let i = 0; i < count; i++) await writeFile(join(dir, `topic_${i}.md`), `---\nname: Topic ${i}\ntype: project\n---\nFact ${i}.\n`);
    // Sampled once per turn of the event loop: synchronous reads leave nothing pending between turns, and the walk
    // lists one folder at a time, so only reads on the thread pool can put more than one request in flight.
    let peak = 0;
    let sampling = true;
    const sample = () => {
      peak = Math.max(peak, pendingFsRequests());
      if (sampling) setImmediate(sample);
    };
    setImmediate(sample);
    const read = await readMemoryDir(dir, '-home-me-app').finally(() => {
      sampling = false;
    });
    expect(read.skipped).toEqual([]);
    expect(read.files).toHaveLength(count);
    expect(read.files.find((f) => f.relPath === 'topic_7.md')?.text).toBe('---\nname: Topic 7\ntype: project\n---\nFact 7.\n');
    expect(peak).toBeGreaterThanOrEqual(8);
  });

  it('reads the same outcomes synchronously on a thread of its own as overlapped on a shared loop', async () => {
    const dir = await memoryDir();
    await writeFile(join(dir, 'plain.md'), '# Plain\n- a fact, ü\n');
    await writeFile(join(dir, 'latin1.md'), Buffer.from([0x23, 0x20, 0xe9, 0x0a]));
    await writeFile(join(dir, 'big.md'), 'x'.repeat(300));
    await symlink(join(dir, 'plain.md'), join(dir, 'link.md'));
    execFileSync('mkfifo', [join(dir, 'pipe.md')]);
    const release = releaseFifoAfter(join(dir, 'pipe.md'), 20_000);
    try {
      const files = ['plain.md', 'latin1.md', 'big.md', 'link.md', 'pipe.md', 'gone.md'].map((name) => ({ path: join(dir, name) }));
      // Overlapped on the pool, the call returns with reads pending; on a thread of its own it starts none. (Nothing
      // pending can finish between two synchronous counts, so the counts around each call are exact.)
      let before = pendingFsRequests();
      const sharedRun = readSourceFiles(files, 200);
      expect(pendingFsRequests()).toBeGreaterThan(before);
      const shared = await sharedRun;
      before = pendingFsRequests();
      const ownRun = readSourceFiles(files, 200, undefined, false);
      expect(pendingFsRequests()).toBe(before);
      const own = await ownRun;
      expect(own).toEqual(shared);
      expect(own.map(({ outcome }) => (outcome.ok ? 'ok' : outcome.code))).toEqual([
        'ok',
        'invalid-utf8',
        'too-large',
        'symlink',
        'unreadable',
        'missing',
      ]);
      const controller = new AbortController();
      controller.abort();
      await expect(readSourceFiles(files, 200, controller.signal, false)).rejects.toMatchObject({ kind: 'Cancelled' });
      // Only a one-shot command says it has its own thread: a host that says nothing keeps its reads off the loop.
      expect(discoveryDeps({}).walk.sharedLoop).toBe(true);
      expect(discoveryDeps({ sharedLoop: true }).walk.sharedLoop).toBe(true);
      expect(discoveryDeps({ sharedLoop: false }).walk.sharedLoop).toBe(false);
    } finally {
      release();
    }
  });
});
