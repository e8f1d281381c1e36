// Masks the texts Memory Studio keeps in its data folder (proposals, history, trash), so no secret rests there in clear.
import { itemAt } from '../platform/indexed';
import { StudioFailure } from '../platform/errors';
import type { TaskContext } from '../runtime/task-types';
import { findSecretSpans, maskSecret, secretLabel } from './secrets';
import type { SecretCandidate } from './secret-rules';

/** What the data folder keeps of a group of texts that belong together (one file's base, proposal, merge base...). */
export interface MaskedTexts {
  /** Each text with every secret as `abcd****`, its line breaks kept (so every line keeps its number); null stays null. */
  texts: (string | null)[];
  /** Per text, the 0-based numbers of the lines that hold (part of) a masked secret, ascending. */
  maskedLines: number[][];
  /**
   * Per text, what each of those lines held, in words ("an AWS access key id"), never the secret: found on the real
   * text before masking, so the review can still mark a line whose secret it only shows masked.
   */
  kinds: Map<number, string>[];
  /** Per text, the distinct secret values it held (in memory only, never stored): what a change kept or removed. */
  values: Set<string>[];
}

/**
 * A secret found in one text of the group is masked wherever it occurs in the others too: the engine judges some
 * secrets by their context (a bare AWS key near "aws"), and a value masked in the base but left in the proposal
 * would rest in clear, or make two equal lines differ. Values this short are not chased across texts: a
 * password-like word of a few letters would mask ordinary words elsewhere.
 */
const MIN_SHARED_VALUE = 8;

interface Span {
  start: number;
  end: number;
  /** What the secret is, in words (the engine's label for the rule that found it). */
  label: string;
}

function occurrences(text: string, value: string, label: string, out: Span[]): void {
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length))
    out.push({ start: at, end: at + value.length, label });
}

/** Sorted, with overlapping or touching spans joined (a value found twice masks once). */
function merged(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (itemAt(starts, mid) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

function maskOne(text: string, spans: readonly Span[]): { text: string; lines: Map<number, string> } {
  const lines = new Map<number, string>();
  if (spans.length === 0) return { text, lines };
  const starts = lineStarts(text);
  let out = '';
  let at = 0;
  for (const s of spans) {
    const secret = text.slice(s.start, s.end);
    out += text.slice(at, s.start) + maskSecret(secret) + '\n'.repeat(secret.split('\n').length - 1);
    at = s.end;
    const first = lineAt(starts, s.start);
    const last = lineAt(starts, Math.max(s.start, s.end - 1));
    for (let line = first; line <= last; line++) if (!lines.has(line)) lines.set(line, s.label);
  }
  return { text: out + text.slice(at), lines };
}

/** The pool task: each text's secret spans, in order (many small texts, such as an import's source files, per task). */
export function secretSpansManyTask(input: { texts: string[] }, context?: TaskContext): SecretCandidate[][] {
  return input.texts.map((text) => {
    context?.throwIfCancelled(); // cooperative: a superseded plan stops between texts, and the worker stays
    return findSecretSpans(text);
  });
}

/** The pool task: one text's secret spans (a large text is scanned off the main loop, several at once). */
export function secretSpansTask(input: { text: string }): SecretCandidate[] {
  return findSecretSpans(input.text);
}

/**
 * Masks a group of texts together (see MIN_SHARED_VALUE): the form `lint/mask-secrets.ts` gives, line numbers kept.
 * `scanned` holds each text's `findSecretSpans` when the caller had it worked out elsewhere (on the pool); null: here.
 */
export function maskForStorage(texts: readonly (string | null)[], scanned?: readonly (SecretCandidate[] | null)[]): MaskedTexts {
  const found = texts.map((text, i) => {
    if (text === null) return null;
    const spans = (scanned?.[i] ?? findSecretSpans(text)).map((s): Span => ({
      start: s.secretStart,
      end: s.secretEnd,
      label: secretLabel(s.rule),
    }));
    return { text, spans, values: new Set(spans.map((s) => text.slice(s.start, s.end))) };
  });
  const labelOf = new Map(found.flatMap((f) => (f === null ? [] : f.spans.map((s) => [f.text.slice(s.start, s.end), s.label] as const))));
  const shared = [...labelOf.keys()].filter((v) => v.length >= MIN_SHARED_VALUE);
  const result: MaskedTexts = { texts: [], maskedLines: [], kinds: [], values: [] };
  for (const f of found) {
    if (f === null) {
      result.texts.push(null);
      result.maskedLines.push([]);
      result.kinds.push(new Map());
      result.values.push(new Set());
      continue;
    }
    const { text } = f;
    const spans = [...f.spans];
    for (const value of shared) if (!f.values.has(value)) occurrences(text, value, labelOf.get(value) as string, spans);
    const joined = merged(spans);
    const masked = maskOne(text, joined);
    result.texts.push(masked.text);
    result.maskedLines.push([...masked.lines.keys()].sort((a, b) => a - b));
    result.kinds.push(masked.lines);
    result.values.push(new Set(joined.map((s) => text.slice(s.start, s.end))));
  }
  return result;
}

/** One text, masked for storage (a title, a note, a trash copy). */
export function maskTextForStorage(text: string): string {
  const [masked] = maskForStorage([text]).texts;
  // One text in, one masked text out; never the unmasked text in its place.
  if (masked === undefined || masked === null) throw new StudioFailure('Internal', 'Masking one text for storage returned no text.');
  return masked;
}
