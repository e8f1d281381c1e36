// Real token counts with the o200k_base encoding (gpt-tokenizer ships the ranks in the package: offline, no fetch).
import { createRequire } from 'node:module';
import type * as O200kModule from 'gpt-tokenizer/encoding/o200k_base';

type O200k = typeof O200kModule;

// Loaded on first use: the ranks take ~150 ms to load, which the app's start-up should not pay.
let encoding: O200k | null = null;

function load(): O200k {
  encoding ??= createRequire(__filename)('gpt-tokenizer/encoding/o200k_base') as O200k;
  return encoding;
}

/** Special-token strings such as `<|endoftext|>` are counted as the plain text they are in a memory file. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** o200k_base token count of `text` (0 for the empty string). */
export function countO200kTokens(text: string): number {
  if (text.length === 0) return 0;
  return load().countTokens(text, PLAIN_TEXT);
}
