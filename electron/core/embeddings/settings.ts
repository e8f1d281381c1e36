// Hybrid search's one setting: an OpenAI-compatible /embeddings endpoint, kept in `<data>/embeddings.json` (absent: off,
// and search is BM25 alone, fully offline). Set only by a host's flags, never by a page: it decides where memory text goes.
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { validateBaseUrl } from '../consolidate/engine-settings';
import { writeFileAtomic } from '../platform/atomic-write';
import { StudioFailure } from '../platform/errors';
import { NO_CAP, readRegularFile } from '../platform/regular-file';

export const EMBEDDINGS_FILE = 'embeddings.json';

export interface EmbeddingsSettings {
  /** The endpoint root, before `/embeddings` (https, or http only to this machine: the openai engine's rule). */
  baseUrl: string;
  model: string;
  /** The environment variable holding the key, or null for an endpoint that wants none (a local Ollama). */
  apiKeyEnv: string | null;
}

const KEY_VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checked as the openai engine's settings are; throws Invalid with what to change. */
export function normalizeEmbeddingsSettings(input: {
  baseUrl: string;
  model?: string | null;
  apiKeyEnv?: string | null;
}): EmbeddingsSettings {
  const model = (input.model ?? '').trim() || 'text-embedding-3-small';
  const apiKeyEnv = input.apiKeyEnv?.trim() || null;
  if (apiKeyEnv !== null && !KEY_VARIABLE.test(apiKeyEnv))
    throw new StudioFailure('Invalid', `"${apiKeyEnv}" is not an environment variable name.`, { hint: 'For example OPENAI_API_KEY.' });
  if (model.length > 200) throw new StudioFailure('Invalid', 'The embeddings model name is longer than 200 characters.');
  return { baseUrl: validateBaseUrl(input.baseUrl).replace(/\/embeddings$/, ''), model, apiKeyEnv };
}

/** The settings, or null when hybrid search is off; a file that no longer validates is said in `note` and treated as off. */
export async function loadEmbeddingsSettings(dataDir: string): Promise<{ settings: EmbeddingsSettings | null; note: string | null }> {
  const path = join(dataDir, EMBEDDINGS_FILE);
  let text: string;
  try {
    // The data folder's own file, read as its other settings are: a FIFO here held a pool thread on every search.
    text = (await readRegularFile(path, path, NO_CAP, undefined, { follow: true })).bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: null, note: null };
    return { settings: null, note: `${path} could not be read (${(error as Error).message}); search ranks by BM25 alone.` };
  }
  try {
    return { settings: normalizeEmbeddingsSettings(JSON.parse(text) as EmbeddingsSettings), note: null };
  } catch (error) {
    const why = error instanceof StudioFailure ? error.message : 'it is not valid JSON';
    return { settings: null, note: `${path} was ignored (${why}); search ranks by BM25 alone.` };
  }
}

/** Writes the settings (null: turns hybrid search off and removes the file). */
export async function saveEmbeddingsSettings(dataDir: string, settings: EmbeddingsSettings | null): Promise<void> {
  const path = join(dataDir, EMBEDDINGS_FILE);
  if (settings === null) {
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    return;
  }
  await writeFileAtomic(path, Buffer.from(`${JSON.stringify(settings, null, 2)}\n`, 'utf8'), 0o644);
}
