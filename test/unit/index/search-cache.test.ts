// The search's kept answers: the same query again is answered from the index's generation it was made at, and a file
// changed between two identical queries is in the second answer.
import Database from 'better-sqlite3';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchIndex } from '../../../electron/core/index-store/search';
import { bumpGeneration } from '../../../electron/core/index-store/write';
import type { StudioService } from '../../../electron/core/service/service';
import type { HomeManifest } from '../../fixtures';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

let home: GeneratedHomeService;
let service: StudioService;
let manifest: HomeManifest;

const NOTE = 'extensions/ad_hoc/notes/2026-11-20T12-00-00-marsupials.md';

beforeAll(async () => {
  // No watcher: every request refreshes the index first (a stat-only pass), as a host without one does.
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 4, now: new Date('2026-11-20T12:00:00Z') });
  ({ service, manifest } = home);
  await writeFile(join(manifest.codexHome, 'memories', NOTE), '# Marsupials\n\nThe wombat digs.\n');
});

afterAll(() => home.dispose());

describe('kept search answers', () => {
  it('answers a file changed between two identical queries from its new text', async () => {
    const first = await service.call('search.query', { query: 'wombat', limit: 10 });
    expect(first.hits.map((h) => [h.relPath, h.line, h.snippet])).toEqual([[NOTE, 3, 'The wombat digs.']]);
    await writeFile(join(manifest.codexHome, 'memories', NOTE), '# Marsupials\n\nA numbat eats.\n\nThe wombat sleeps.\n');
    const second = await service.call('search.query', { query: 'wombat', limit: 10 });
    expect(second.hits.map((h) => [h.relPath, h.line, h.snippet])).toEqual([[NOTE, 5, 'The wombat sleeps.']]);
    expect((await service.call('search.query', { query: 'numbat', limit: 10 })).hits.map((h) => h.line)).toEqual([3]);
  });

  it('reads the embeddings settings again when the file changes between two searches', async () => {
    const settings = join(home.dir, 'data', 'embeddings.json');
    expect((await service.call('search.query', { query: 'wombat' })).notes).toEqual([]);
    await writeFile(settings, '{"baseUrl": 5}\n');
    const typed = (await service.call('search.query', { query: 'wombat' })).notes;
    expect(typed.join(' ')).toMatch(/embeddings\.json was ignored/);
    await writeFile(settings, '{"baseUrl": "ftp://example.com"}\n');
    const scheme = (await service.call('search.query', { query: 'wombat' })).notes;
    expect(scheme.join(' ')).toMatch(/embeddings\.json was ignored/);
    expect(scheme).not.toEqual(typed);
    await rm(settings);
    expect((await service.call('search.query', { query: 'wombat' })).notes).toEqual([]);
  });

  it('keeps an answer while the index generation stands, and answers afresh once it moves', async () => {
    await service.call('search.query', { query: 'quoll' });
    const { path } = await service.call('index.status', {});
    expect(path).not.toBeNull();
    const db = new Database(path as string);
    try {
      expect(searchIndex(db, { query: 'quoll' }).hits).toEqual([]);
      // A row written without the generation's bump (no writer of the index does that): the kept answer stands.
      db.prepare('INSERT INTO chunks_fts (body, meta, version, path, kind, line, project) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
        'A quoll hunts.',
        'quoll.md',
        'v1',
        'quoll.md',
        'ad-hoc-note',
        1,
        null,
      );
      expect(searchIndex(db, { query: 'quoll' }).hits).toEqual([]);
      bumpGeneration(db);
      expect(searchIndex(db, { query: 'quoll' }).hits.map((h) => h.snippet)).toEqual(['A quoll hunts.']);
    } finally {
      db.close();
    }
  });
});
