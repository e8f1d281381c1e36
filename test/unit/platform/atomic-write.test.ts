// The platform's one atomic write, in its async and sync forms, and how a temp file of a dead writer is recognised.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempPathFor, tempWriterGone, writeFileAtomic, writeFileAtomicSync } from '../../../electron/core/platform/atomic-write';
import { namespaceId } from '../../../electron/core/platform/host-identity';
import { withTempDir } from '../helpers';

const deadPid = () => spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' }).pid as number;

describe('atomic write', () => {
  it('writes whole files (sync and async), creates the folder, keeps the mode and leaves no temp file', async () => {
    await withTempDir(async (dir) => {
      const sync = join(dir, 'leases', 'record.json');
      writeFileAtomicSync(sync, '{"a":1}', 0o600);
      writeFileAtomicSync(sync, '{"a":2}', 0o600);
      expect(readFileSync(sync, 'utf8')).toBe('{"a":2}');
      expect(statSync(sync).mode & 0o777).toBe(0o600);
      const async = join(dir, 'drafts', 'draft.json');
      await writeFileAtomic(async, Buffer.from('draft'));
      expect(readFileSync(async, 'utf8')).toBe('draft');
      expect([...readdirSync(join(dir, 'leases')), ...readdirSync(join(dir, 'drafts'))]).toEqual(['record.json', 'draft.json']);
    });
  });

  it('leaves the old file untouched when the sync write cannot happen', async () => {
    await withTempDir(async (dir) => {
      const target = join(dir, 'leases', 'record.json');
      writeFileAtomicSync(target, 'old');
      // A non-empty folder where the file should be: the rename fails, the temp file is removed, nothing else changes.
      expect(() => writeFileAtomicSync(join(dir, 'leases'), 'new')).toThrow();
      expect(readFileSync(target, 'utf8')).toBe('old');
      expect(readdirSync(dir)).toEqual(['leases']);
    });
  });

  it("tells a dead writer's temp file from a live one's and from the person's own files", () => {
    const dead = deadPid();
    const name = (pid: number) => `.MEMORY.md.memory-studio-${pid}-n${namespaceId()}-0123456789ab.tmp`;
    expect(tempWriterGone(name(dead))).toBe(true);
    expect(tempWriterGone(name(process.pid))).toBe(false);
    expect(tempWriterGone(tempPathFor('/x/MEMORY.md').split('/').pop() as string)).toBe(false);
    // Another PID namespace's temp may belong to a live process there: never judged dead.
    expect(tempWriterGone(`.MEMORY.md.memory-studio-${dead}-n000000000000-0123456789ab.tmp`)).toBe(false);
    // The data folder's older `<name>.<pid>.tmp` names count only where asked (never in a memory root).
    expect(tempWriterGone(`record.json.${dead}.tmp`)).toBeNull();
    expect(tempWriterGone(`record.json.${dead}.tmp`, true)).toBe(true);
    expect(tempWriterGone('notes.md')).toBeNull();
  });
});
