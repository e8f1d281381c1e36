// The core service behind every host: dispatch validation, errors as data, the demo switch, and the listing on a generated home.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../shared/contract';
import { createStudioService } from '../../electron/core/service/service';
import { generateHome } from '../fixtures';
import { withTempDir } from './helpers';

const make = (codexHome: string, dataDir: string) =>
  createStudioService({ home: { codexHome, source: 'flag' }, dataDir, host: 'serve', appVersion: '0.0.0-test', log: () => undefined });

describe('studio service', () => {
  it('refuses unknown channels and malformed input as Invalid data, never throwing', async () => {
    await withTempDir(async (dir) => {
      const service = make(join(dir, 'home'), join(dir, 'data'));
      expect(await service.dispatch('workspace.delete', {})).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
      expect(await service.dispatch('constructor', {})).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
      const bad = await service.dispatch('workspace.read', { version: 'v1', path: 42 });
      expect(bad).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
      if (!bad.ok) expect(bad.error.message).toContain('workspace.read');
      service.dispose();
    });
  });

  it('answers NotFound with a hint when the home has no such root', async () => {
    await withTempDir(async (dir) => {
      const service = make(join(dir, 'home'), join(dir, 'data'));
      const result = await service.dispatch('workspace.list', { version: 'v2' });
      expect(result).toMatchObject({ ok: false, error: { kind: 'NotFound' } });
      if (!result.ok) expect(result.error.hint).toMatch(/demo/);
      service.dispose();
    });
  });

  it('lists a generated home exactly as its manifest counts it, and reads every listed file', async () => {
    await withTempDir(async (dir) => {
      const manifest = await generateHome({
        dir: join(dir, 'home'),
        scale: 'small',
        version: 'both',
        seed: 5,
        now: new Date('2026-11-01T00:00:00Z'),
      });
      const service = make(manifest.codexHome, join(dir, 'data'));
      for (const version of ['v1', 'v2'] as const) {
        const list = await service.call('workspace.list', { version });
        expect(list.counts).toEqual(manifest.roots[version]?.counts);
        expect(list.files).toHaveLength(manifest.roots[version]?.files ?? -1);
        for (const file of list.files) {
          const read = await service.dispatch('workspace.read', { version, path: file.path });
          expect(read.ok, file.path).toBe(true);
        }
      }
      const home = await service.call('home.get', {});
      expect(home.isDemo).toBe(false);
      expect(home.config.featureMemories).toBe(true);
      // The generated home with both roots sets version = "v1": Codex reads v1, v2 is only written.
      expect(home.codexReads).toEqual({ version: 'v1', source: 'config', off: null });
      expect(home.returnHome).toBeNull();
      expect(home.roots.map((r) => [r.version, r.exists, r.dbExists, r.hasGitBaseline])).toEqual([
        ['v1', true, true, manifest.roots.v1?.gitBaseline],
        ['v2', true, true, manifest.roots.v2?.gitBaseline],
      ]);
      service.dispose();
    });
  });

  it('opens the demo home under the data folder, marks it, and tells listeners', async () => {
    await withTempDir(async (dir) => {
      const service = make(join(dir, 'empty-home'), join(dir, 'data'));
      const events: EventEnvelope[] = [];
      service.onEvent((event) => events.push(event));
      const before = await service.call('home.get', {});
      expect(before.roots.some((r) => r.exists)).toBe(false);
      const demo = await service.call('home.openDemo', {});
      expect(demo.codexHome).toBe(join(dir, 'data', 'demo-home'));
      expect(demo.isDemo).toBe(true);
      expect(demo.source).toBe('demo');
      expect(demo.roots.every((r) => r.exists)).toBe(true);
      expect(events).toContainEqual({ event: 'home.changed', payload: { codexHome: demo.codexHome } });
      expect(demo.returnHome).toBe(join(dir, 'empty-home'));
      const list = await service.call('workspace.list', { version: 'v1' });
      expect(list.counts.summary).toBe(1);
      // The way back: the home the service started with, and the demo no longer answers home.get.
      const back = await service.call('home.leaveDemo', {});
      expect(back).toMatchObject({ codexHome: join(dir, 'empty-home'), isDemo: false, returnHome: null });
      expect((await service.call('home.get', {})).codexHome).toBe(join(dir, 'empty-home'));
      expect(events).toContainEqual({ event: 'home.changed', payload: { codexHome: join(dir, 'empty-home') } });
      service.dispose();
    });
  });
});
