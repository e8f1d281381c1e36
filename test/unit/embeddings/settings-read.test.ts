// The data folder's embeddings.json is read the product's one safe way: a FIFO there is said in the note, never
// waited on (search loads this file on every query, so each wait held one of libuv's four pool threads for good).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMBEDDINGS_FILE, loadEmbeddingsSettings, saveEmbeddingsSettings } from '../../../electron/core/embeddings/settings';
import { releaseFifoAfter, withTempDir } from '../helpers';

describe('embeddings settings', () => {
  it('a FIFO named embeddings.json is refused with a note that says so, and search falls back to BM25', async () => {
    await withTempDir(async (dataDir) => {
      const fifo = join(dataDir, EMBEDDINGS_FILE);
      execFileSync('mkfifo', [fifo]);
      const release = releaseFifoAfter(fifo, 20_000);
      try {
        const loaded = await loadEmbeddingsSettings(dataDir);
        expect(loaded.settings).toBeNull();
        expect(loaded.note).toMatch(/embeddings\.json is a named pipe \(FIFO\), not a regular file.*BM25 alone/);
      } finally {
        release();
      }
    });
  });

  it('a missing file is off without a note; a saved one reads back', async () => {
    await withTempDir(async (dataDir) => {
      expect(await loadEmbeddingsSettings(dataDir)).toEqual({ settings: null, note: null });
      const settings = { baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', apiKeyEnv: null };
      await saveEmbeddingsSettings(dataDir, settings);
      expect(await loadEmbeddingsSettings(dataDir)).toEqual({ settings, note: null });
    });
  });
});
