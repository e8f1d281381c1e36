// Port of Codex's `truncate_text(_, TruncationPolicy::Tokens(n))` (codex-rs/utils/string/src/truncate.rs at
// openai/codex@b24d7f3c, reached through codex-rs/utils/output-truncation/src/lib.rs), on UTF-8 bytes.
import { APPROX_BYTES_PER_TOKEN, TOKEN_TRUNCATION_MARKER } from '../codex/constants';
import { ceilCharBoundary, floorCharBoundary } from '../codex/rust-str';

/** `approx_token_count` / `approx_tokens_from_byte_count`: ceil(bytes / 4). */
export function approxTokensFromByteCount(bytes: number): number {
  return Math.ceil(bytes / APPROX_BYTES_PER_TOKEN);
}

/** `approx_bytes_for_tokens`: tokens * 4. */
export function approxBytesForTokens(tokens: number): number {
  return tokens * APPROX_BYTES_PER_TOKEN;
}

/** `format_truncation_marker(use_tokens = true, n)`: `…{n} tokens truncated…` (U+2026, no newlines around it). */
export function tokenTruncationMarker(removedTokens: number): string {
  return `${TOKEN_TRUNCATION_MARKER.before}${removedTokens}${TOKEN_TRUNCATION_MARKER.after}`;
}

/** `split_budget`: the head gets the floor half, the tail the rest (equal for the even budgets tokens * 4 give). */
export function splitBudget(budget: number): { head: number; tail: number } {
  const head = Math.floor(budget / 2);
  return { head, tail: budget - head };
}

/** What `truncate_middle_with_token_budget` keeps, as byte offsets into the input. */
export type TokenTruncation =
  | { truncated: false }
  | {
      truncated: true;
      /** Bytes `0..headEnd` are kept before the marker. */
      headEnd: number;
      /** Bytes `tailStart..len` are kept after the marker. */
      tailStart: number;
      /** N in the marker: ceil((len - byte budget) / 4), or ceil(len / 4) when the budget is 0. */
      removedTokens: number;
      marker: string;
    };

/**
 * `truncate_middle_with_token_budget(s, max_tokens)`: empty stays empty; with a positive limit, a text of at
 * most `limit * 4` bytes is kept whole; otherwise the head keeps the chars that END within the first half of the
 * byte budget and the tail starts at the first char that STARTS at or after `len - second half`. A zero limit
 * leaves only the marker (`max_bytes == 0` branch of `truncate_with_byte_estimate`).
 */
export function truncateMiddleWithTokenBudget(bytes: Uint8Array, maxTokens: number): TokenTruncation {
  const len = bytes.length;
  if (len === 0) return { truncated: false };
  const maxBytes = approxBytesForTokens(maxTokens);
  if (maxTokens > 0 && len <= maxBytes) return { truncated: false };
  if (maxBytes === 0) {
    const removedTokens = approxTokensFromByteCount(len);
    return { truncated: true, headEnd: 0, tailStart: len, removedTokens, marker: tokenTruncationMarker(removedTokens) };
  }
  const { head, tail } = splitBudget(maxBytes);
  // split_string: prefix_end is the end of the last char with char_end <= head, i.e. the floor boundary;
  // suffix_start is the first char index >= len - tail (len > maxBytes, so it never falls inside the head).
  const headEnd = floorCharBoundary(bytes, head);
  const tailStart = Math.max(headEnd, ceilCharBoundary(bytes, Math.max(0, len - tail)));
  // The marker counts the bytes over budget, not the bytes actually dropped (the char-boundary cuts can drop up to 6 more).
  const removedTokens = approxTokensFromByteCount(len - maxBytes);
  return { truncated: true, headEnd, tailStart, removedTokens, marker: tokenTruncationMarker(removedTokens) };
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The string Codex produces: the text itself, or head + marker + tail. */
export function truncateText(text: string, maxTokens: number): string {
  const bytes = Buffer.from(text, 'utf8');
  const cut = truncateMiddleWithTokenBudget(bytes, maxTokens);
  if (!cut.truncated) return text;
  return decoder.decode(bytes.subarray(0, cut.headEnd)) + cut.marker + decoder.decode(bytes.subarray(cut.tailStart));
}
