// Hybrid search's flags (serve, start, mcp): the embeddings endpoint decides where memory text goes, so only a host's
// command line sets it, never a page; written to `<data>/embeddings.json` before the host starts.
import { toStudioError } from '../core/platform/errors';
import { CliUsageError } from './cli-errors';

export const embeddingFlagOptions = {
  'embeddings-base-url': { type: 'string' },
  'embeddings-model': { type: 'string' },
  'embeddings-key-env': { type: 'string' },
} as const;

export interface EmbeddingFlags {
  'embeddings-base-url'?: string;
  'embeddings-model'?: string;
  'embeddings-key-env'?: string;
}

/** Applies the flags (`--embeddings-base-url off` turns hybrid search off); returns what is in force, in words. */
export async function applyEmbeddingFlags(dataDir: string, flags: EmbeddingFlags): Promise<string[]> {
  const url = flags['embeddings-base-url'];
  if (url === undefined && flags['embeddings-model'] === undefined && flags['embeddings-key-env'] === undefined) return [];
  // Loaded only when a flag is given: the settings' modules cost ~12 ms of an mcp start, which loads nothing else of them.
  const { loadEmbeddingsSettings, normalizeEmbeddingsSettings, saveEmbeddingsSettings } =
    await import('../core/service/use-cases/settings.js');
  try {
    if (url === 'off') {
      await saveEmbeddingsSettings(dataDir, null);
      return ['Hybrid search: off (search ranks by BM25 alone, offline).'];
    }
    const current = (await loadEmbeddingsSettings(dataDir)).settings;
    const baseUrl = url ?? current?.baseUrl;
    if (!baseUrl) throw new CliUsageError('--embeddings-model and --embeddings-key-env need --embeddings-base-url URL.');
    const settings = normalizeEmbeddingsSettings({
      baseUrl,
      model: flags['embeddings-model'] ?? current?.model,
      apiKeyEnv: flags['embeddings-key-env'] ?? current?.apiKeyEnv,
    });
    await saveEmbeddingsSettings(dataDir, settings);
    const key = settings.apiKeyEnv ? `, key from $${settings.apiKeyEnv}` : ', no key';
    return [`Hybrid search: ${settings.model} at ${settings.baseUrl}${key} (memory passages, secrets masked, are sent there).`];
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    const failure = toStudioError(error);
    throw new CliUsageError(`${failure.message}${failure.hint ? ` ${failure.hint}` : ''}`);
  }
}
