// External changes become 'external' history entries with before/after; our own Apply never shows up as one.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/review';
import type { StudioService } from '../../../electron/core/service/service';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

let home: GeneratedHomeService;
let service: StudioService;
let root: string;

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 13, git: false, now: new Date() }, { watch: true });
  ({ service, root } = home);
  await service.call('home.get', {}); // Starts the watcher and the snapshot, which the answer does not wait for.
  await service.historySnapshot().settled; // From here on, every outside change has a known "before".
});

afterAll(async () => {
  await home.dispose();
});

async function waitFor(check: () => Promise<HistoryEntry | undefined>, ms = 120_000): Promise<HistoryEntry> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found) return found;
    if (Date.now() > until) throw new Error('timed out waiting for a history entry');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const externalFor = async (path: string) => (await service.call('history.list', { path })).filter((e) => e.kind === 'external');

describe('external history', () => {
  it('records a rewrite from outside with the right before and after', async () => {
    const path = join(root, 'MEMORY.md');
    const before = await readFile(path, 'utf8');
    const after = `${before}\n## Added by Codex\n- a new line\n`;
    await writeFile(path, after);
    const entry = await waitFor(async () => (await externalFor('MEMORY.md'))[0]);
    expect(entry.summary).toContain('MEMORY.md');
    const created = await writeNote();
    const diff = await service.call('history.diff', { from: entry.id, to: entry.id, path: 'MEMORY.md' });
    expect(diff.to.content).toBe(after);
    const revert = await service.call('history.revert', { entryId: entry.id });
    expect((await service.call('review.fileTexts', { id: revert.id, ord: 0 })).proposedContent).toBe(before);
    expect(created.files[0]?.beforeSha256).toBeNull();
  });

  it('does not record our own Apply as an external change', async () => {
    const path = join(root, 'memory_summary.md');
    const original = await readFile(path, 'utf8');
    const proposal = await service.call('review.propose', {
      version: 'v1',
      path: 'memory_summary.md',
      content: `${original}- applied by us\n`,
    });
    await service.call('review.decide', {
      id: proposal.id,
      files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await service.call('review.apply', { id: proposal.id });
    // A later outside change proves the watcher ran; by then, our write must not have produced an entry.
    await writeFile(path, `${original}- applied by us\n- then Codex\n`);
    const external = await waitFor(async () => (await externalFor('memory_summary.md'))[0]);
    const entries = await service.call('history.list', { path: 'memory_summary.md' });
    expect(entries.map((e) => e.kind)).toEqual(['external', 'apply']);
    const diff = await service.call('history.diff', { from: external.id, to: external.id, path: 'memory_summary.md' });
    expect(diff.to.content).toBe(`${original}- applied by us\n- then Codex\n`);
    const revert = await service.call('history.revert', { entryId: external.id });
    expect((await service.call('review.fileTexts', { id: revert.id, ord: 0 })).proposedContent).toBe(`${original}- applied by us\n`);
  });
});

/** A file created from outside is recorded with an absent "before". */
async function writeNote(): Promise<HistoryEntry> {
  const rel = 'extensions/ad_hoc/notes/2026-03-02T10-00-00-from-outside.md';
  await writeFile(join(root, rel), 'Written by another tool.\n');
  return waitFor(async () => (await externalFor(rel))[0]);
}
