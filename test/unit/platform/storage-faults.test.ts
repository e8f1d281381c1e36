// The one classifier of storage errors, on real SQLite and file-system errors: each trouble, and words that are never a bug.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolderFailure, toStudioError } from '../../../electron/core/platform/errors';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import { storageTrouble, troubleAt } from '../../../electron/core/platform/storage-faults';
import { withTempDir } from '../helpers';

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('storage faults', () => {
  it('classifies real SQLite errors: locked, corrupt, schema, full', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'a.sqlite');
      const db = openSqlite(path);
      db.exec('CREATE TABLE jobs (kind TEXT); PRAGMA max_page_count = 3');
      const other = openSqlite(path, { timeout: 50 });
      db.exec('BEGIN EXCLUSIVE');
      expect(storageTrouble(caught(() => other.exec('BEGIN IMMEDIATE')))).toBe('locked');
      db.exec('ROLLBACK');
      other.close();
      expect(storageTrouble(caught(() => db.prepare('SELECT lease_until FROM jobs').all()))).toBe('schema');
      expect(storageTrouble(caught(() => db.prepare('SELECT 1 FROM leases').all()))).toBe('schema');
      const full = caught(() => db.prepare('INSERT INTO jobs VALUES (?)').run('x'.repeat(100_000)));
      expect(storageTrouble(full)).toBe('full');
      db.close();
      writeFileSync(join(dir, 'junk.sqlite'), Buffer.alloc(4096, 7));
      const junk = openSqlite(join(dir, 'junk.sqlite'));
      expect(storageTrouble(caught(() => junk.prepare('SELECT 1 FROM sqlite_master').all()))).toBe('corrupt');
      junk.close();
      // A full disk is never "Unexpected error" and never a bug, even where no boundary named the file.
      const error = toStudioError(full);
      expect(error).toMatchObject({ kind: 'Unsupported', fault: 'disk-full' });
      expect(error.message).not.toMatch(/Unexpected/);
    });
  });

  it('classifies file-system errors and says which file of the data folder failed', async () => {
    await withTempDir(async (dir) => {
      const missing = caught(() => readFileSync(join(dir, 'nope')));
      expect(storageTrouble(missing)).toBe('missing');
      for (const code of ['ENOSPC', 'EDQUOT', 'EFBIG']) {
        const error = Object.assign(new Error(`${code}: write`), { code });
        expect(storageTrouble(error)).toBe('full');
        const failure = dataFolderFailure(error, join(dir, 'studio.sqlite'), "Memory Studio's Studio DB");
        expect(failure).toMatchObject({ kind: 'Unsupported', fault: 'disk-full', path: join(dir, 'studio.sqlite') });
        expect(toStudioError(error)).toMatchObject({ fault: 'disk-full' });
      }
      const readOnly = Object.assign(new Error('EROFS: write'), { code: 'EROFS' });
      expect(dataFolderFailure(readOnly, dir, 'The data folder')).toMatchObject({ fault: 'data-unwritable' });
      // An I/O error on a disk with room is a failing disk, not a full one.
      const io = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' });
      expect(troubleAt(io, dir)).toBe('io');
      expect(dataFolderFailure(new Error('a bug'), dir, 'x')).toBeNull();
    });
  });
});
