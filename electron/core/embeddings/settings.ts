// Hybrid search's one setting: an OpenAI-compatible /embeddings endpoint, kept in `<data>/embeddings.json` (absent: off,
// and search is BM25 alone, fully offline). Set only by a host's flags, never by a page: it decides where memory text goes.
import { statSync, type BigIntStats } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { validateBaseUrl } from '../consolidate/engine-settings';
import { writeFileAtomic } from '../platform/atomic-write';
import { StudioFailure } from '../platform/errors';
import { parseRecord } from '../platform/record-json';
import { NO_CAP, readRegularFile } from '../platform/regular-file';

export const EMBEDDINGS_FILE = 'embeddings.json';

export interface EmbeddingsSettings {
  /** The endpoint root, before `/embeddings` (https, or http only to this machine: the openai engine's rule). */
  baseUrl: string;
  model: string;
  /** The environment variable holding the key, or null for an endpoint that wants none (a local Ollama). */
  apiKeyEnv: string | null;
}

/** What the flags give and the file holds: this build writes all three; a file written by hand may leave two out. */
const EmbeddingsSettingsInputSchema = z.object({
  baseUrl: z.string(),
  model: z.string().nullish(),
  apiKeyEnv: z.string().nullish(),
});
export type EmbeddingsSettingsInput = z.infer<typeof EmbeddingsSettingsInputSchema>;

const KEY_VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checked as the openai engine's settings are; throws Invalid with what to change. */
export function normalizeEmbeddingsSettings(input: EmbeddingsSettingsInput): EmbeddingsSettings {
  const model = (input.model ?? '').trim() || 'text-embedding-3-small';
  const apiKeyEnv = input.apiKeyEnv?.trim() || null;
  if (apiKeyEnv !== null && !KEY_VARIABLE.test(apiKeyEnv))
    throw new StudioFailure('Invalid', `"${apiKeyEnv}" is not an environment variable name.`, { hint: 'For example OPENAI_API_KEY.' });
  if (model.length > 200) throw new StudioFailure('Invalid', 'The embeddings model name is longer than 200 characters.');
  return { baseUrl: validateBaseUrl(input.baseUrl).replace(/\/embeddings$/, ''), model, apiKeyEnv };
}

/** The settings, or null when hybrid search is off; a file that no longer validates is said in `note` and treated as off. */
export async function loadEmbeddingsSettings(
  dataDir: string,
): Promise<{ settings: EmbeddingsSettings | null; note: string | null; unread?: true }> {
  const path = join(dataDir, EMBEDDINGS_FILE);
  let bytes: Buffer;
  try {
    // The data folder's own file, read as its other settings are: a FIFO here held a pool thread on every search.
    bytes = (await readRegularFile(path, path, NO_CAP, undefined, { follow: true })).bytes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: null, note: null };
    return { settings: null, note: `${path} could not be read (${(error as Error).message}); search ranks by BM25 alone.`, unread: true };
  }
  const ignored = (why: string) => ({ settings: null, note: `${path} was ignored (${why}); search ranks by BM25 alone.` });
  // Parsed, not cast: a field of the wrong type (a hand edit) is said by name, never a TypeError called "not JSON".
  const parsed = parseRecord(EmbeddingsSettingsInputSchema, bytes);
  if (!parsed.ok) return ignored(parsed.problem);
  try {
    return { settings: normalizeEmbeddingsSettings(parsed.value), note: null };
  } catch (error) {
    return ignored(error instanceof Error ? error.message : String(error));
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

/** The last load per data folder, with the stat it was read at. */
const kept = new Map<string, { stamp: string; loaded: ReturnType<typeof loadEmbeddingsSettings> }>();

/**
 * `loadEmbeddingsSettings` for every search: read again only when the file's stat changed (a host's flags or a hand
 * edit), so a search costs one stat here, not an open, read and close (and, with no file, no error built per search).
 */
export function currentEmbeddingsSettings(dataDir: string): ReturnType<typeof loadEmbeddingsSettings> {
  const path = join(dataDir, EMBEDDINGS_FILE);
  let info: BigIntStats | undefined;
  try {
    info = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return loadEmbeddingsSettings(dataDir); // a refusal (EACCES, ENOTDIR): said in the note, as a read says it
  }
  if (!info) return Promise.resolve({ settings: null, note: null });
  const stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  const held = kept.get(dataDir);
  if (held?.stamp === stamp) return held.loaded;
  const loaded = loadEmbeddingsSettings(dataDir);
  kept.set(dataDir, { stamp, loaded });
  // Kept only what the file said: a read that failed (EMFILE, EIO under load) is tried again at the next search.
  const forget = () => {
    if (kept.get(dataDir)?.loaded === loaded) kept.delete(dataDir);
  };
  loaded.then((result) => result.unread && forget(), forget);
  return loaded;
}
