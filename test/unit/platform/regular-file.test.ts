// The one regular-file read: every flavour refuses a FIFO, socket-like entries and folders by name without waiting,
// refuses a final symlink unless the reader follows it, keeps the errno code, and reads to the fstat size under the cap.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  closeQuietly,
  openRegularFile,
  readRegularFile,
  readRegularFileSync,
  readRegularHead,
} from '../../../electron/core/platform/regular-file';
import { withTempDir } from '../helpers';

const repo = resolve(__dirname, '..', '..', '..');

describe('readRegularFile and its flavours', () => {
  it('refuse a FIFO by name at once: whole, head and open', async () => {
    await withTempDir(async (dir) => {
      const fifo = join(dir, 'MEMORY.md');
      execFileSync('mkfifo', [fifo]);
      const refusal = { kind: 'Invalid', message: expect.stringMatching(/^MEMORY\.md is a named pipe \(FIFO\), not a regular file/) };
      await expect(readRegularFile(fifo, 'MEMORY.md', 1024)).rejects.toMatchObject(refusal);
      await expect(readRegularHead(fifo, 'MEMORY.md', 100)).rejects.toMatchObject(refusal);
      await expect(openRegularFile(fifo, 'MEMORY.md', { follow: true })).rejects.toMatchObject(refusal);
    });
  });

  it('the sync flavour refuses a FIFO too (in a child process: a blocking open would freeze this one)', async () => {
    await withTempDir(async (dir) => {
      const fifo = join(dir, 'state_5.sqlite');
      execFileSync('mkfifo', [fifo]);
      const module = join(repo, 'out', 'electron', 'core', 'platform', 'regular-file.js');
      const script = `try { require(${JSON.stringify(module)}).readRegularFileSync(${JSON.stringify(fifo)}, 'state_5.sqlite', 1024) } catch (e) { console.log(e.message) }`;
      const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
      expect(child.signal, 'the sync read did not return within 30 s').toBeNull();
      expect(child.stdout).toMatch(/state_5\.sqlite is a named pipe \(FIFO\)/);
    });
  });

  it('refuses a final symlink unless the reader follows it, and keeps ENOENT and EISDIR for "no file here"', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'real.toml'), 'x = 1\n');
      await symlink(join(dir, 'real.toml'), join(dir, 'config.toml'));
      await expect(readRegularFile(join(dir, 'config.toml'), 'config.toml', 1024)).rejects.toMatchObject({ code: 'ELOOP' });
      expect((await readRegularFile(join(dir, 'config.toml'), 'config.toml', 1024, undefined, { follow: true })).bytes.toString()).toBe(
        'x = 1\n',
      );
      expect(() => readRegularFileSync(join(dir, 'missing'), 'missing', 1024)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
      await mkdir(join(dir, 'folder'));
      await expect(readRegularFile(join(dir, 'folder'), 'folder', 1024)).rejects.toMatchObject({
        code: 'EISDIR',
        message: expect.stringMatching(/folder is a folder/),
      });
    });
  });

  it('reads the whole file, a head of it, and refuses one past the cap before reading', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'memory_summary.md');
      await writeFile(path, 'v1\n'.repeat(1000));
      expect((await readRegularFile(path, 'memory_summary.md', 3000)).bytes.length).toBe(3000);
      expect(readRegularFileSync(path, 'memory_summary.md', 3000).bytes.toString()).toBe('v1\n'.repeat(1000));
      expect((await readRegularHead(path, 'memory_summary.md', 6)).toString()).toBe('v1\nv1\n');
      await expect(readRegularFile(path, 'memory_summary.md', 2999)).rejects.toThrow(/3000 bytes, more than the 2999 bytes/);
      const opened = await openRegularFile(path, 'memory_summary.md');
      expect(opened.info.size).toBe(3000);
      await closeQuietly(opened.fd);
    });
  });
});
