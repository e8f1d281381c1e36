// The data folder's files are made private before SQLite opens them; a FIFO or a symlink under such a name must not
// hold the thread (a write-open of a FIFO waits for a reader) or reach outside the folder.
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, readFileSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePrivateFileSync } from '../../../electron/core/platform/private-files';
import { makeTempDir } from '../helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('ensurePrivateFileSync', () => {
  it('creates a missing file 0600 and narrows a wider one', async () => {
    const temp = await makeTempDir();
    cleanups.push(() => temp.cleanup());
    const fresh = join(temp.dir, 'fresh.sqlite');
    ensurePrivateFileSync(fresh);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    const wide = join(temp.dir, 'wide.sqlite');
    writeFileSync(wide, 'kept', { mode: 0o644 });
    ensurePrivateFileSync(wide);
    expect(statSync(wide).mode & 0o777).toBe(0o600);
    expect(readFileSync(wide, 'utf8')).toBe('kept');
  });

  it.skipIf(process.platform === 'win32')('returns at once on a FIFO with no reader, and never writes through a symlink', async () => {
    const temp = await makeTempDir();
    cleanups.push(() => temp.cleanup());
    const fifo = join(temp.dir, 'studio.sqlite');
    execFileSync('mkfifo', [fifo]);
    // A reader that opens the FIFO only after 30 s: if the open above waited, this frees it and says so on stdout.
    const releaser = spawn(
      process.execPath,
      ['-e', "setTimeout(() => { require('node:fs').openSync(process.argv[1], 'r'); console.log('released'); }, 30000);", fifo],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let said = '';
    releaser.stdout.on('data', (c: Buffer) => (said += c.toString()));
    const exited = new Promise((r) => releaser.on('close', r)); // after its stdout is read
    ensurePrivateFileSync(fifo);
    releaser.kill();
    await exited;
    expect(said).toBe('');
    expect(lstatSync(fifo).isFIFO()).toBe(true);

    const outside = join(temp.dir, 'outside.txt');
    const link = join(temp.dir, 'index.sqlite');
    symlinkSync(outside, link);
    ensurePrivateFileSync(link);
    expect(existsSync(outside)).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});
