// The first home.get answers from what is cheap: external history's snapshot of every memory file (read and hashed on
// the worker pool) comes after it, and outside changes are still recorded with the right "before" once it is ready.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StudioService } from '../../../electron/core/service/service';
import { createStudioService } from '../../../electron/core/service/service';
import { generateHome } from '../../fixtures';
import { makeTempDir, until } from '../helpers';

let service: StudioService | undefined;
let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  service?.dispose();
  await cleanup?.();
  service = undefined;
  cleanup = undefined;
});

/**
 * A watched service on a small generated home whose external-history snapshot starts only when `release()` is called;
 * `again` starts another one on the same home and data folder (the app started again).
 */
async function heldService(again?: { dir: string; codexHome: string }): Promise<{
  service: StudioService;
  root: string;
  release: () => void;
  place: { dir: string; codexHome: string };
}> {
  let place = again;
  if (!place) {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    const manifest = await generateHome({
      dir: join(temp.dir, 'home'),
      scale: 'small',
      version: 'v1',
      seed: 29,
      git: false,
      now: new Date(),
    });
    place = { dir: temp.dir, codexHome: manifest.codexHome };
  }
  let release = () => undefined as void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  service = createStudioService({
    home: { codexHome: place.codexHome, source: 'flag' },
    dataDir: join(place.dir, 'data'),
    host: 'serve',
    appVersion: 'test',
    watch: true,
    log: () => undefined,
    holdHistorySnapshot: hold,
  });
  return { service, root: join(place.codexHome, 'memories'), release, place };
}

const externalFor = async (s: StudioService, path: string) => (await s.call('history.list', { path })).filter((e) => e.kind === 'external');

describe('the first answer and the external-change snapshot', () => {
  it('answers home.get while the snapshot is still pending, and records an outside change made once it is ready', async () => {
    const held = await heldService();
    expect(held.service.historySnapshot().state).toBe('none');
    const info = await held.service.call('home.get', {});
    expect(info.roots.find((r) => r.version === 'v1')?.exists).toBe(true);
    expect(held.service.historySnapshot().state).toBe('pending');
    // Other first-screen requests do not wait for it either.
    expect((await held.service.call('workspace.list', { version: 'v1' })).files.length).toBeGreaterThan(0);
    expect(held.service.historySnapshot().state).toBe('pending');

    held.release();
    await held.service.historySnapshot().settled;
    expect(held.service.historySnapshot().state).toBe('ready');
    const path = join(held.root, 'MEMORY.md');
    const before = await readFile(path, 'utf8');
    const after = `${before}\n## Added by Codex\n- written while Memory Studio runs\n`;
    await writeFile(path, after);
    await until('the external history entry', async () => (await externalFor(held.service, 'MEMORY.md')).length > 0);
    const [entry] = await externalFor(held.service, 'MEMORY.md');
    const diff = await held.service.call('history.entryDiff', { entryId: entry!.id, path: 'MEMORY.md' });
    expect(diff.before.content).toBe(before);
    expect(diff.after.content).toBe(after);
  });

  it('does not take our own Apply made while the snapshot is pending for an outside change', async () => {
    const held = await heldService();
    await held.service.call('home.get', {});
    expect(held.service.historySnapshot().state).toBe('pending');
    const path = join(held.root, 'memory_summary.md');
    const original = await readFile(path, 'utf8');
    const proposal = await held.service.call('review.propose', {
      version: 'v1',
      path: 'memory_summary.md',
      content: `${original}- ours\n`,
    });
    await held.service.call('review.decide', {
      id: proposal.id,
      files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await held.service.call('review.apply', { id: proposal.id });
    expect(held.service.historySnapshot().state).toBe('pending');

    held.release();
    await held.service.historySnapshot().settled;
    // A later outside change proves the watcher's events were handled; our Apply must not be among them.
    await writeFile(path, `${original}- ours\n- then Codex\n`);
    await until('the external history entry', async () => (await externalFor(held.service, 'memory_summary.md')).length > 0);
    const entries = await held.service.call('history.list', { path: 'memory_summary.md' });
    expect(entries.map((e) => e.kind)).toEqual(['external', 'apply']);
    const diff = await held.service.call('history.entryDiff', { entryId: entries[0]!.id, path: 'memory_summary.md' });
    expect(diff.before.content).toBe(`${original}- ours\n`);
    expect(diff.after.content).toBe(`${original}- ours\n- then Codex\n`);
  });

  it('records an outside change made while the snapshot was being taken, from where the history ends', async () => {
    const first = await heldService();
    await first.service.call('home.get', {});
    first.release();
    await first.service.historySnapshot().settled;
    const path = join(first.root, 'MEMORY.md');
    const original = await readFile(path, 'utf8');
    await writeFile(path, `${original}\n- first outside change\n`);
    await until('the first external entry', async () => (await externalFor(first.service, 'MEMORY.md')).length === 1);
    first.service.dispose();
    // The app started again: Codex writes while its snapshot is still being taken, so the snapshot reads the change
    // itself and no event will ever report it.
    const second = await heldService(first.place);
    await second.service.call('home.get', {});
    await writeFile(path, `${original}\n- first outside change\n- written during the snapshot\n`);
    second.release();
    await second.service.historySnapshot().settled;
    await until('the second external entry', async () => (await externalFor(second.service, 'MEMORY.md')).length === 2);
    const [entry] = await externalFor(second.service, 'MEMORY.md');
    const diff = await second.service.call('history.entryDiff', { entryId: entry!.id, path: 'MEMORY.md' });
    expect(diff.before.content).toBe(`${original}\n- first outside change\n`);
    expect(diff.after.content).toBe(`${original}\n- first outside change\n- written during the snapshot\n`);
  });
});
