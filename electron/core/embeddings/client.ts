// One call of an OpenAI-compatible `/embeddings` endpoint: texts in, one vector each out (in input order).
import { maskSecretsInText } from '../lint/mask-secrets';
import { StudioFailure } from '../platform/errors';
import type { EmbeddingsSettings } from './settings';

const TIMEOUT_MS = 60_000;

interface EmbeddingsAnswer {
  data?: Array<{ index?: number; embedding?: unknown }>;
}

/** Where the key would come from, and the key (the variable's value); no variable named: none is sent. */
function keyOf(settings: EmbeddingsSettings, env: NodeJS.ProcessEnv): string | null {
  if (!settings.apiKeyEnv) return null;
  const key = env[settings.apiKeyEnv];
  if (!key)
    throw new StudioFailure('Invalid', `Hybrid search needs the key of ${settings.baseUrl} in $${settings.apiKeyEnv}, which is not set.`, {
      hint: `Set ${settings.apiKeyEnv} for Memory Studio, or start it without --embeddings-key-env for an endpoint that needs no key.`,
    });
  return key;
}

export async function embedTexts(
  settings: EmbeddingsSettings,
  texts: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const key = keyOf(settings, env);
  const url = `${settings.baseUrl}/embeddings`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ model: settings.model, input: texts }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new StudioFailure('Busy', `The embeddings endpoint ${url} did not answer (${(error as Error).message}).`, {
      hint: 'Check that it runs; search ranks by BM25 alone meanwhile.',
    });
  }
  if (!response.ok) {
    const body = maskSecretsInText((await response.text().catch(() => '')).slice(0, 300));
    throw new StudioFailure('Busy', `The embeddings endpoint ${url} answered ${response.status}${body ? `: ${body}` : ''}.`);
  }
  const answer = (await response.json().catch(() => null)) as EmbeddingsAnswer | null;
  const rows = answer?.data ?? [];
  const vectors: Float32Array[] = [];
  for (const [i, row] of rows.entries()) {
    if (!Array.isArray(row.embedding) || row.embedding.some((v) => typeof v !== 'number'))
      throw new StudioFailure('Invalid', `The embeddings endpoint ${url} answered without a vector for input ${i}.`);
    vectors[row.index ?? i] = Float32Array.from(row.embedding as number[]);
  }
  if (vectors.length !== texts.length || vectors.some((v) => !v))
    throw new StudioFailure('Invalid', `The embeddings endpoint ${url} answered ${rows.length} vectors for ${texts.length} texts.`);
  return vectors;
}
