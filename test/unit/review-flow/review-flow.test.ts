// The review flow end to end through the core service: propose, decide per hunk, apply, history, revert, conflicts.
import Database from 'better-sqlite3';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioService } from '../../../electron/core/service/service';
import type { HomeManifest } from '../../fixtures';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

let home: GeneratedHomeService;
let manifest: HomeManifest;
let service: StudioService;
let root: string;

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 21, git: false });
  ({ manifest, service, root } = home);
});

afterAll(async () => {
  await home.dispose();
});

const summaryPath = () => join(root, 'memory_summary.md');

describe('review flow', () => {
  it('applies exactly the accepted hunks, records history, and reverts through a new proposal', async () => {
    const original = await readFile(summaryPath(), 'utf8');
    const lines = original.split('\n');
    lines[2] = `${lines[2]} (edited at the top)`;
    lines[lines.length - 3] = `${lines[lines.length - 3]} (edited at the bottom)`;
    const edited = lines.join('\n');
    const proposal = await service.call('review.propose', {
      version: 'v1',
      path: 'memory_summary.md',
      content: edited,
      title: 'Two edits',
    });
    expect(await readFile(summaryPath(), 'utf8')).toBe(original);
    const file = proposal.files[0];
    if (!file) throw new Error('no file');
    expect(file.hunks).toHaveLength(2);
    const [top, bottom] = file.hunks as [(typeof file.hunks)[0], (typeof file.hunks)[0]];
    await service.call('review.decide', {
      id: proposal.id,
      files: [{ ord: file.ord, decisions: { [top.id]: 'accept', [bottom.id]: 'reject' } }],
    });
    const preview = await service.call('review.result', { id: proposal.id });
    const applied = await service.call('review.apply', { id: proposal.id });
    const onDisk = await readFile(summaryPath(), 'utf8');
    expect(onDisk).toBe(preview.files[0]?.content);
    expect(onDisk).toContain('(edited at the top)');
    expect(onDisk).not.toContain('(edited at the bottom)');
    expect(applied.lease).toEqual([{ version: 'v1', previous: 'pending' }]);
    const db = new Database(join(manifest.codexHome, 'memories_1.sqlite'), { readonly: true });
    expect(db.prepare("SELECT status FROM jobs WHERE kind = 'memory_consolidate_global'").get()).toEqual({ status: 'pending' });
    db.close();
    const history = await service.call('history.list', { path: 'memory_summary.md' });
    expect(history[0]?.id).toBe(applied.entry.id);
    const revert = await service.call('history.revert', { entryId: applied.entry.id });
    expect(revert.source).toBe('revert');
    await service.call('review.decide', {
      id: revert.id,
      files: revert.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await service.call('review.apply', { id: revert.id });
    expect(await readFile(summaryPath(), 'utf8')).toBe(original);
  });

  it('refuses to apply over a file that changed on disk: Conflict, nothing written', async () => {
    const original = await readFile(summaryPath(), 'utf8');
    const proposal = await service.call('review.propose', {
      version: 'v1',
      path: 'memory_summary.md',
      content: `${original}- one more line\n`,
    });
    await service.call('review.decide', {
      id: proposal.id,
      files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await writeFile(summaryPath(), `${original}- Codex rewrote this meanwhile\n`);
    const result = await service.dispatch('review.apply', { id: proposal.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'Conflict' } });
    expect(await readFile(summaryPath(), 'utf8')).toBe(`${original}- Codex rewrote this meanwhile\n`);
    // Both appended at the end: a conflict, which accept-all does not resolve and Apply refuses while it is open.
    const { proposal: rebased, files } = await service.call('review.rebase', { id: proposal.id });
    const conflict = rebased.files[0]?.hunks.find((h) => h.kind === 'conflict');
    expect(files[0]).toMatchObject({ outcome: 'conflicts', conflicts: [conflict?.id] });
    const acceptAll = await service.dispatch('review.decide', {
      id: rebased.id,
      files: [{ ord: 0, decisions: { [conflict?.id as string]: 'accept' } }],
    });
    expect(acceptAll).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
    const open = await service.dispatch('review.apply', { id: rebased.id });
    expect(open).toMatchObject({
      ok: false,
      error: { kind: 'Conflict', message: expect.stringMatching(/not resolved yet: memory_summary\.md \(h\w+\)\. Nothing was written\./) },
    });
    expect(await readFile(summaryPath(), 'utf8')).toBe(`${original}- Codex rewrote this meanwhile\n`);
    await service.call('review.decide', { id: rebased.id, files: [{ ord: 0, decisions: { [conflict?.id as string]: 'both' } }] });
    await service.call('review.apply', { id: rebased.id });
    expect(await readFile(summaryPath(), 'utf8')).toBe(`${original}- Codex rewrote this meanwhile\n- one more line\n`);
  });

  it('a rebased proposal is checked against the disk it was rebased on: a later change is refused again, nothing written', async () => {
    const original = await readFile(summaryPath(), 'utf8');
    const lines = original.split('\n');
    const ours = [...lines];
    ours[2] = `${ours[2]} (ours)`;
    const proposal = await service.call('review.propose', { version: 'v1', path: 'memory_summary.md', content: ours.join('\n') });
    const theirs = [...lines];
    theirs[lines.length - 3] = `${theirs[lines.length - 3]} (Codex, first)`;
    await writeFile(summaryPath(), theirs.join('\n'));
    expect((await service.call('review.stale', { id: proposal.id })).stale).toHaveLength(1);
    const { proposal: rebased, files } = await service.call('review.rebase', { id: proposal.id });
    expect(files[0]?.outcome).toBe('merged');
    await service.call('review.decide', {
      id: rebased.id,
      files: rebased.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    const again = `${theirs.join('\n')}- and Codex again\n`;
    await writeFile(summaryPath(), again);
    expect(await service.dispatch('review.apply', { id: rebased.id })).toMatchObject({
      ok: false,
      error: { kind: 'Conflict', message: expect.stringMatching(/changed since the proposal was made.*nothing was written/) },
    });
    expect(await readFile(summaryPath(), 'utf8')).toBe(again);
    await service.call('review.rebase', { id: rebased.id });
    await service.call('review.apply', { id: rebased.id });
    const result = await readFile(summaryPath(), 'utf8');
    expect(result).toContain('(ours)');
    expect(result).toContain('(Codex, first)');
    expect(result).toContain('- and Codex again');
  });

  it('proposes an ad-hoc note under Codex naming rules and refuses bad slugs', async () => {
    const note = await service.call('review.note', { version: 'v1', slug: 'prefer-pnpm', text: 'The user prefers pnpm over npm.' });
    expect(note.files[0]?.relPath).toMatch(/^extensions\/ad_hoc\/notes\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-prefer-pnpm\.md$/);
    expect(note.files[0]?.change).toBe('create');
    const bad = await service.dispatch('review.note', { version: 'v1', slug: 'Bad Slug!', text: 'x' });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
    const escape = await service.dispatch('review.propose', { version: 'v1', path: '../outside.md', content: 'x' });
    expect(escape).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
    const git = await service.dispatch('review.propose', { version: 'v1', path: '.git/config', content: 'x' });
    expect(git).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
  });
});
