// Provenance rows are part of the import proposal (one transaction) and are read only for the proposals asked about.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadProvenance, proposeImport } from '../../../electron/core/import';
import { recordProvenance } from '../../../electron/core/studio-db/provenance';
import { listProposals } from '../../../electron/core/review';
import { openStudioDb } from '../../../electron/core/studio-db';
import { makeTempDir, openGeneratedHome } from '../helpers';
import { makeClaudeHome } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0)) await c();
});

describe('import provenance', () => {
  it('a proposal whose provenance cannot be stored is not left behind without it', async () => {
    const temp = await makeTempDir();
    const f = await makeClaudeHome(temp.dir);
    const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 3, git: false });
    cleanups.push(async () => {
      await g.dispose();
      await temp.cleanup();
    });
    const studio = openStudioDb(join(temp.dir, 'data'));
    try {
      studio.raw.exec("CREATE TEMP TRIGGER no_provenance BEFORE INSERT ON proposal_provenance BEGIN SELECT RAISE(ABORT, 'disk full'); END");
      const home = await g.service.call('home.get', {});
      await expect(
        proposeImport(
          studio,
          home,
          { from: 'claude', sourceHome: f.claudeHome, choices: { secretDefault: 'redact' } },
          { env: f.env, managedSettingsDir: f.managedDir },
        ),
      ).rejects.toThrow(/disk full/);
      expect(listProposals(studio).proposals).toEqual([]);
    } finally {
      studio.close();
    }
  });

  it('reads only the rows of the proposals asked for', async () => {
    const temp = await makeTempDir();
    cleanups.push(temp.cleanup);
    const studio = openStudioDb(temp.dir);
    try {
      const row = (id: string) => ({ id, title: 't', source: 'import', created_at: 1, status: 'pending', applied_at: null, note: null });
      const insert = studio.raw.prepare(
        'INSERT INTO proposals (id, title, source, created_at, status, applied_at, note) VALUES (@id, @title, @source, @created_at, @status, @applied_at, @note)',
      );
      for (const id of ['p-a', 'p-b', 'p-c']) {
        insert.run(row(id));
        recordProvenance(studio, id, [
          { version: 'v1', relPath: `x/${id}.md`, tool: 'claude', sourcePath: `/s/${id}.md`, sourceMtimeMs: 1, sourceSha256: 'ab' },
        ]);
      }
      const stmt = vi.spyOn(studio, 'stmt');
      const out = loadProvenance(studio, ['p-a', 'p-c']);
      expect([...out.keys()].sort()).toEqual(['p-a', 'p-c']);
      expect(out.get('p-c')?.[0]?.relPath).toBe('x/p-c.md');
      expect(stmt.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/WHERE proposal_id IN \(/);
    } finally {
      studio.close();
    }
  });
});
