// The CLI's walk taken ahead on a worker: the stat-only pass answered from it lists exactly what it lists from the
// disk, falls back to the disk for anything the snapshot lacks, and never follows a symlinked root.
import { execFileSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_DIRS } from '../../../electron/core/codex/constants';
import { snapshotFs, takeStatSnapshot, type SnapshotTop } from '../../../electron/core/index-store/stat-snapshot';
import { walkRootSync, walkSessionsSync } from '../../../electron/core/index-store/walk';
import { MAX_DEPTH } from '../../../electron/core/sessions/session-files';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

const NOW = new Date('2026-11-20T12:00:00Z');
const NOW_SEC = Math.floor(NOW.getTime() / 1000);
let tmp: { dir: string; cleanup: () => Promise<void> };
let codexHome: string;

beforeAll(async () => {
  tmp = await makeTempDir();
  codexHome = (await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'both', seed: 9, now: NOW })).codexHome;
  // What the walk must report in its own words: a symlink, a special file, a deep folder, Codex's baseline.
  const v1 = join(codexHome, 'memories');
  await symlink(join(v1, 'MEMORY.md'), join(v1, 'skills', 'linked.md'));
  execFileSync('mkfifo', [join(v1, 'extensions', 'a-pipe')]);
  await mkdir(join(v1, 'skills', 'a', 'b', 'c'), { recursive: true });
  await writeFile(join(v1, 'skills', 'a', 'b', 'c', 'SKILL.md'), '# deep\n');
  await mkdir(join(v1, '.git', 'objects'), { recursive: true });
});
afterAll(() => tmp.cleanup());

const tops = (): SnapshotTop[] => [
  { path: join(codexHome, 'memories'), maxDepth: 32, skip: BASELINE_DIRS },
  { path: join(codexHome, 'memories_v2'), maxDepth: 32, skip: BASELINE_DIRS },
  { path: join(codexHome, 'sessions'), maxDepth: MAX_DEPTH },
  { path: join(codexHome, 'archived_sessions'), maxDepth: MAX_DEPTH },
];

describe('the stat snapshot', () => {
  it('answers every call of the roots’ and the sessions’ walks, with the same listing, stamps and diagnostics', () => {
    const fs = snapshotFs(takeStatSnapshot({ tops: tops() }));
    for (const version of ['v1', 'v2'] as const) {
      const root = join(codexHome, version === 'v1' ? 'memories' : 'memories_v2');
      expect(walkRootSync(root, version, fs, NOW_SEC)).toEqual(walkRootSync(root, version, undefined, NOW_SEC));
    }
    expect(walkSessionsSync(codexHome, fs)).toEqual(walkSessionsSync(codexHome));
    expect(walkRootSync(join(codexHome, 'memories'), 'v1', undefined, NOW_SEC).list.diagnostics.map((d) => d.rule)).toEqual(
      expect.arrayContaining(['workspace/symlink', 'workspace/special-file']),
    );
    expect(fs.answered()).toBeGreaterThan(100);
    const listing = walkRootSync(join(codexHome, 'memories'), 'v1', snapshotFs(takeStatSnapshot({ tops: tops() })), NOW_SEC).list;
    expect(listing.files.some((f) => f.path === 'skills/a/b/c/SKILL.md')).toBe(true);
    expect(listing.files.some((f) => f.path.startsWith('.git'))).toBe(false);
  });

  it('sees changes made after it was taken only on the next walk, and asks the disk for what it lacks', async () => {
    const v1 = join(codexHome, 'memories');
    const fs = snapshotFs(takeStatSnapshot({ tops: tops().slice(0, 1) }));
    await writeFile(join(v1, 'extensions', 'late.md'), 'written after the snapshot\n');
    try {
      // The v2 root and the sessions were not recorded: those walks read the disk, and agree with it.
      expect(walkRootSync(join(codexHome, 'memories_v2'), 'v2', fs, NOW_SEC)).toEqual(
        walkRootSync(join(codexHome, 'memories_v2'), 'v2', undefined, NOW_SEC),
      );
      expect(walkSessionsSync(codexHome, fs)).toEqual(walkSessionsSync(codexHome));
      // The v1 walk answered from the snapshot is the walk as it was when the snapshot was taken.
      expect(walkRootSync(v1, 'v1', fs, NOW_SEC).list.files.some((f) => f.path === 'extensions/late.md')).toBe(false);
      expect(walkRootSync(v1, 'v1', undefined, NOW_SEC).list.files.some((f) => f.path === 'extensions/late.md')).toBe(true);
    } finally {
      await rm(join(v1, 'extensions', 'late.md'));
    }
  });

  it('does not follow a symlinked root: the walk still refuses it as it does from the disk', async () => {
    const linked = join(tmp.dir, 'linked-home');
    await mkdir(linked, { recursive: true });
    await symlink(join(codexHome, 'memories'), join(linked, 'memories'));
    const snapshot = takeStatSnapshot({ tops: [{ path: join(linked, 'memories'), maxDepth: 32 }] });
    expect(snapshot.dirs).toEqual([]);
    expect(() => walkRootSync(join(linked, 'memories'), 'v1', snapshotFs(snapshot), NOW_SEC)).toThrow(/symlink/);
  });
});
