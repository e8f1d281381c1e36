// Consolidation runs end to end in core: builtin into review, the lease through Apply, refusals, cancel in every phase.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunPhase, RunStatus } from '../../../shared/consolidate';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import type { Engine } from '../../../electron/core/consolidate/types';
import { generateHome, type HomeManifest } from '../../fixtures';
import { codexClaim, globalRow } from '../apply/helpers';
import { makeTempDir } from '../helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

interface Setup {
  manifest: HomeManifest;
  service: StudioService;
  dataDir: string;
  events: RunStatus[];
}

async function setUp(version: 'v1' | 'v2', engines?: Record<string, Engine>): Promise<Setup> {
  const temp = await makeTempDir();
  const manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version, seed: 7, git: false, now: new Date() });
  const dataDir = join(temp.dir, 'data');
  const service = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
    engines,
  });
  const events: RunStatus[] = [];
  service.onEvent((e) => {
    if (e.event === 'consolidate.progress') events.push(e.payload);
  });
  cleanups.push(async () => {
    service.dispose();
    await new Promise((r) => setTimeout(r, 50));
    await temp.cleanup();
  });
  return { manifest, service, dataDir, events };
}

const rootOf = (m: HomeManifest, v: 'v1' | 'v2') => join(m.codexHome, v === 'v1' ? 'memories' : 'memories_v2');
const dbOf = (m: HomeManifest, v: 'v1' | 'v2') => join(m.codexHome, v === 'v1' ? 'memories_1.sqlite' : 'memories_v2_1.sqlite');

/** Every file under a root (except .git) with its hash: the live files must be byte-identical after a cancel. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === '.git') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(root, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(root);
  return out;
}

describe('consolidation runs', () => {
  it.each(['v1', 'v2'] as const)('builtin (%s): preview, run through every phase, review, apply under the held lease', async (version) => {
    const { manifest, service, events } = await setUp(version);
    const preview = await service.call('consolidate.preview', { version });
    expect(preview.selection.rows.length).toBeGreaterThan(0);
    expect(preview.lease.state).toBe('free');

    const started = await service.call('consolidate.start', { version, engine: 'builtin' });
    const done = await service.consolidation().settled(started.id);
    expect(done.error).toBeNull();
    expect(done.state).toBe('proposed');
    expect(done.validation?.ok).toBe(true);
    expect(done.phases.map((p) => p.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(new Set(events.map((e) => e.phase))).toEqual(new Set(['select', 'stage', 'engine', 'validate', 'diff']));
    // Held through the review: the row is ours while the proposal waits.
    expect(globalRow(dbOf(manifest, version))?.worker_id).toMatch(/^memory-studio:/);

    const proposal = await service.call('review.get', { id: done.proposalId as string });
    expect(proposal.source).toBe('consolidation');
    expect(proposal.files.some((f) => f.relPath === 'memory_summary.md')).toBe(true);
    expect(proposal.files.some((f) => f.relPath === 'phase2_workspace_diff.md')).toBe(false);
    await service.call('review.decide', {
      id: proposal.id,
      files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    const applied = await service.call('review.apply', { id: proposal.id });
    expect(applied.written.length).toBe(proposal.files.length);
    await new Promise((r) => setTimeout(r, 50));
    const summary = readFileSync(join(rootOf(manifest, version), 'memory_summary.md'), 'utf8');
    expect(summary.split('\n')[0]).toBe('v1');
    // Released after Apply as Codex's enqueue would leave it: pending, no cooldown, no backoff.
    const row = globalRow(dbOf(manifest, version));
    expect(row?.status).toBe('pending');
    expect(row?.retry_at).toBeNull();
    expect(codexClaim(dbOf(manifest, version)).claimed).toBe(true);
  });

  it('runs again on its own applied output and proposes no change', async () => {
    const { manifest, service } = await setUp('v2');
    const first = await service.consolidation().settled((await service.call('consolidate.start', { version: 'v2' })).id);
    const proposal = await service.call('review.get', { id: first.proposalId as string });
    await service.call('review.decide', {
      id: proposal.id,
      files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await service.call('review.apply', { id: proposal.id });
    const second = await service.consolidation().settled((await service.call('consolidate.start', { version: 'v2' })).id);
    expect(second.error).toBeNull();
    expect(second.state).toBe('unchanged');
    expect(second.proposalId).toBeNull();
    // Nothing to change: the lease is handed back at once, exactly as it was before the run.
    expect(second.lease.held).toBe(false);
    expect(globalRow(dbOf(manifest, 'v2'))?.worker_id ?? '').not.toMatch(/^memory-studio:/);
  });

  it('a second run supersedes the first one\u2019s held lease instead of being refused by it; the first proposal still applies', async () => {
    const { manifest, service } = await setUp('v2');
    const first = await service.consolidation().settled((await service.call('consolidate.start', { version: 'v2' })).id);
    expect(first.lease.held).toBe(true);
    const second = await service.consolidation().settled((await service.call('consolidate.start', { version: 'v2' })).id);
    expect(second.error).toBeNull();
    expect(second.state).toBe('proposed');
    expect(service.consolidation().status(first.id).lease.held).toBe(false);
    const proposal = await service.call('review.get', { id: first.proposalId as string });
    await service.call('review.decide', {
      id: proposal.id,
      files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await service.call('review.apply', { id: proposal.id });
    expect(readFileSync(join(rootOf(manifest, 'v2'), 'memory_summary.md'), 'utf8').startsWith('v1\n')).toBe(true);
  });

  it('stops before staging when Codex\u2019s DBs cannot be read (an unknown selection is not an empty one)', async () => {
    const { manifest, service, dataDir } = await setUp('v2');
    const before = snapshot(rootOf(manifest, 'v2'));
    await writeFile(join(manifest.codexHome, 'state_5.sqlite'), 'this is not a database');
    const done = await service.consolidation().settled((await service.call('consolidate.start', { version: 'v2' })).id);
    expect(done.state).toBe('failed');
    expect(done.error?.message).toMatch(/cannot be read, so nothing was staged/);
    expect(done.phases[1]?.state).toBe('pending');
    expect(done.proposalId).toBeNull();
    expect(snapshot(rootOf(manifest, 'v2'))).toEqual(before);
    expect(existsSync(join(dataDir, 'staging', done.id))).toBe(false);
  });

  it('a hand edit applied under the held lease leaves the row pending even when the consolidation is then rejected', async () => {
    const { manifest, service } = await setUp('v2');
    const run = await service.consolidation().settled((await service.call('consolidate.start', { version: 'v2' })).id);
    expect(run.lease.held).toBe(true);
    const live = readFileSync(join(rootOf(manifest, 'v2'), 'memory_summary.md'), 'utf8');
    const edit = await service.call('review.propose', {
      version: 'v2',
      path: 'memory_summary.md',
      content: `${live.trimEnd()}\n- a hand-written tip\n`,
    });
    await service.call('review.decide', {
      id: edit.id,
      files: edit.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await service.call('review.apply', { id: edit.id });
    expect(globalRow(dbOf(manifest, 'v2'))?.worker_id).toMatch(/^memory-studio:/);
    await service.call('review.reject', { id: run.proposalId as string });
    await new Promise((r) => setTimeout(r, 100));
    expect(globalRow(dbOf(manifest, 'v2'))).toMatchObject({ status: 'pending', retry_at: null });
  });

  it('is refused while Codex holds its lease, with nothing read or staged', async () => {
    const { manifest, service, dataDir } = await setUp('v1');
    expect(codexClaim(dbOf(manifest, 'v1'), { workerId: 'codex-thread' }).claimed).toBe(true);
    const before = globalRow(dbOf(manifest, 'v1'));
    const preview = await service.call('consolidate.preview', { version: 'v1' });
    expect(preview.lease.state).toBe('held');
    const result = await service.dispatch('consolidate.start', { version: 'v1' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.kind).toBe('Locked');
    expect(globalRow(dbOf(manifest, 'v1'))).toEqual(before);
    expect(existsSync(join(dataDir, 'staging'))).toBe(false);
  });

  const phases: RunPhase[] = ['select', 'stage', 'engine', 'validate', 'diff'];
  it.each(phases)('cancel during %s leaves the live files and the lease row as they were', async (phase) => {
    // The engine waits for the cancel when the test cancels in its phase; else it writes a valid summary at once.
    const engine: Engine = async (run) => {
      if (phase === 'engine') {
        await new Promise((_, reject) => {
          if (run.signal.aborted) reject(run.signal.reason);
          run.signal.addEventListener('abort', () => reject(run.signal.reason), { once: true });
        });
      }
      const current = readFileSync(join(run.stagingRoot, 'memory_summary.md'), 'utf8');
      await writeFile(join(run.stagingRoot, 'memory_summary.md'), `${current}\n- one more tip\n`);
      return { engine: 'builtin', model: null, wrote: ['memory_summary.md'], message: 'wrote' };
    };
    const { manifest, service, dataDir } = await setUp('v1', { builtin: engine });
    const before = snapshot(rootOf(manifest, 'v1'));
    const rowBefore = globalRow(dbOf(manifest, 'v1'));
    let cancelled: Promise<RunStatus> | null = null;
    service.onEvent((e) => {
      if (e.event === 'consolidate.progress' && e.payload.phase === phase && e.payload.state === 'running' && !cancelled) {
        cancelled = service.call('consolidate.cancel', { id: e.payload.id });
      }
    });
    const started = await service.call('consolidate.start', { version: 'v1' });
    const done = await service.consolidation().settled(started.id);
    expect(cancelled).not.toBeNull();
    expect(done.state).toBe('cancelled');
    expect(done.proposalId).toBeNull();
    expect(snapshot(rootOf(manifest, 'v1'))).toEqual(before);
    expect(globalRow(dbOf(manifest, 'v1'))).toEqual(rowBefore);
    expect(existsSync(join(dataDir, 'staging', started.id))).toBe(false);
  });

  it('an invalid result is proposed with its diagnostics, refused by Apply, and applies once fixed in the review', async () => {
    const broken: Engine = async (run) => {
      await writeFile(join(run.stagingRoot, 'memory_summary.md'), '## User Profile\nno version line\n');
      return { engine: 'builtin', model: null, wrote: ['memory_summary.md'], message: 'wrote a broken summary' };
    };
    const { manifest, service } = await setUp('v2', { builtin: broken });
    const done = await service.consolidation().settled((await service.call('consolidate.start', { version: 'v2' })).id);
    expect(done.state).toBe('proposed');
    expect(done.validation?.ok).toBe(false);
    expect(done.validation?.diagnostics.some((d) => d.severity === 'error' && d.path === 'memory_summary.md')).toBe(true);
    const proposal = await service.call('review.get', { id: done.proposalId as string });
    const file = proposal.files.find((f) => f.relPath === 'memory_summary.md');
    if (!file) throw new Error('no summary in the proposal');
    const acceptAll = (p: typeof proposal) =>
      service.call('review.decide', {
        id: p.id,
        files: p.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
      });
    await acceptAll(proposal);
    const refused = await service.dispatch('review.apply', { id: proposal.id });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.kind).toBe('Invalid');
      expect(refused.error.message).toContain('memory_summary.md');
    }
    const live = readFileSync(join(rootOf(manifest, 'v2'), 'memory_summary.md'), 'utf8');
    const fixed = `${live.trimEnd()}\n- a fixed tip\n`;
    const revised = await service.call('review.revise', { id: proposal.id, ord: file.ord, content: fixed });
    await acceptAll(revised);
    await service.call('review.apply', { id: proposal.id });
    expect(readFileSync(join(rootOf(manifest, 'v2'), 'memory_summary.md'), 'utf8')).toBe(fixed);
  });
});
