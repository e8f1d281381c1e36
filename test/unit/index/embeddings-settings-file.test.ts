// `<data>/embeddings.json` decides where memory text is sent, so it is parsed, not cast: a damaged or hand-edited file
// turns hybrid search off with a note that says which field is wrong (never a TypeError called "not valid JSON").
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDINGS_FILE, loadEmbeddingsSettings } from '../../../electron/core/embeddings/settings';
import { makeTempDir } from '../helpers';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir();
});
afterAll(async () => temp.cleanup());

describe('an embeddings.json that does not parse', () => {
  it.each([
    { name: 'a field of the wrong type', text: '{"baseUrl": 5, "model": "m", "apiKeyEnv": null}', says: 'baseUrl' },
    { name: 'valid JSON of another shape', text: '["https://api.example.com/v1"]', says: 'expected object' },
    { name: 'a model of the wrong type', text: '{"baseUrl": "https://api.example.com/v1", "model": 3}', says: 'model' },
  ])('$name: is ignored (search off), and the note names the file and what is wrong', async ({ text, says }) => {
    const path = join(temp.dir, EMBEDDINGS_FILE);
    await writeFile(path, text);
    const loaded = await loadEmbeddingsSettings(temp.dir);
    expect(loaded.settings).toBeNull();
    expect(loaded.note).toContain(path);
    expect(loaded.note).toContain(says);
    expect(loaded.note).not.toContain('not valid JSON');
  });

  it('written by this build or by hand without the optional fields, it still loads', async () => {
    await writeFile(join(temp.dir, EMBEDDINGS_FILE), '{"baseUrl": "https://api.example.com/v1/embeddings"}');
    expect(await loadEmbeddingsSettings(temp.dir)).toEqual({
      settings: { baseUrl: 'https://api.example.com/v1', model: 'text-embedding-3-small', apiKeyEnv: null },
      note: null,
    });
  });
});
