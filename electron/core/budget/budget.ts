// The budget lens: what Codex's read path injects from memory_summary.md, and exactly which bytes and lines it cuts.
import type { BudgetFragment, BudgetLimitSource, BudgetRemoved, BudgetReport } from '../../../shared/budget';
import type { MemoryVersion } from '../../../shared/domain';
import { FILES, SUMMARY_TOKEN_LIMIT, V2_FRAGMENT_MAX_BYTES } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { ANALYSIS_CAP_BYTES, DEFAULT_READ_CAP_BYTES, readMemoryFile } from '../codex/workspace';
import { countO200kTokens } from './o200k';
import { floorCharBoundary, isLineBreakByte, isLineStart, lineOfByte, rustTrimRange } from '../codex/rust-str';
import { approxTokensFromByteCount, truncateMiddleWithTokenBudget } from './truncate';
import { findSecretSpans, maskSecret } from '../lint/secrets';
import { maskSecretsInText } from '../lint/mask-secrets';

export interface BudgetOptions {
  version: MemoryVersion;
  /** Tokens; Codex's current constant (2,500) when omitted. */
  limitTokens?: number;
  /** Where a given `limitTokens` came from; `override` by default. */
  limitSource?: Exclude<BudgetLimitSource, 'default'>;
  /** o200k counter; the index passes one that remembers counts by content (a warm `budget` never loads the tokenizer). */
  countTokens?: (text: string) => number;
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * `fragments` of the v2 extension (`codex-rs/ext/memories/src/extension.rs`, fork zibuyu2015831/codex@67e69213):
 * repeatedly take `floor_char_boundary(min(len, 8_900))` bytes until nothing is left.
 */
export function splitFragments(bytes: Uint8Array, maxBytes = V2_FRAGMENT_MAX_BYTES): BudgetFragment[] {
  const fragments: BudgetFragment[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = start + floorCharBoundary(bytes.subarray(start), Math.min(bytes.length - start, maxBytes));
    fragments.push({ index: fragments.length, startByte: start, endByte: end, bytes: end - start });
    start = end;
  }
  return fragments;
}

/** The cut in file coordinates; `keptHead` / `keptTail` say whether any text survives before / after it. */
function removedRange(fileBytes: Uint8Array, startByte: number, endByte: number, keptHead: boolean, keptTail: boolean): BudgetRemoved {
  const startLine = lineOfByte(fileBytes, startByte);
  const endLine = lineOfByte(fileBytes, Math.max(startByte, endByte - 1));
  return {
    startByte,
    endByte,
    startLine,
    endLine,
    startLinePartial: keptHead && !isLineStart(fileBytes, startByte),
    endLinePartial: keptTail && !isLineBreakByte(fileBytes, endByte) && !isLineStart(fileBytes, endByte),
  };
}

function checkLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new StudioFailure('Invalid', `The token limit must be a whole number of 0 or more; got ${limit}.`, {
      hint: `Codex uses ${SUMMARY_TOKEN_LIMIT}.`,
    });
  }
}

/** What Codex injects for this summary text under `options`, as a `BudgetReport` (docs/codex-facts.md, What the next session is told). */
export function computeBudget(summaryText: string, options: BudgetOptions): BudgetReport {
  const limitTokens = options.limitTokens ?? SUMMARY_TOKEN_LIMIT;
  const limitSource: BudgetLimitSource = options.limitTokens === undefined ? 'default' : (options.limitSource ?? 'override');
  checkLimit(limitTokens);
  const notes: string[] = [];
  const count = options.countTokens ?? countO200kTokens;

  const fileBytes = Buffer.from(summaryText, 'utf8');
  const { start, end } = rustTrimRange(summaryText);
  const leadingTrimBytes = Buffer.byteLength(summaryText.slice(0, start), 'utf8');
  const trimmed = summaryText.slice(start, end);
  const trimmedBytes = fileBytes.subarray(leadingTrimBytes, leadingTrimBytes + Buffer.byteLength(trimmed, 'utf8'));

  const cut = truncateMiddleWithTokenBudget(trimmedBytes, limitTokens);
  let injectedText = trimmed;
  let removed: BudgetRemoved | null = null;
  let markerText: string | null = null;
  if (cut.truncated) {
    markerText = cut.marker;
    injectedText =
      decoder.decode(trimmedBytes.subarray(0, cut.headEnd)) + cut.marker + decoder.decode(trimmedBytes.subarray(cut.tailStart));
    removed = removedRange(
      fileBytes,
      leadingTrimBytes + cut.headEnd,
      leadingTrimBytes + cut.tailStart,
      cut.headEnd > 0,
      cut.tailStart < trimmedBytes.length,
    );
  }
  const injectedBytes = Buffer.from(injectedText, 'utf8');

  let fragments: BudgetFragment[] = [];
  if (injectedBytes.length === 0) {
    notes.push('The summary is empty after trimming, so Codex injects no memory instructions at all.');
  } else if (options.version === 'v2') {
    fragments = splitFragments(injectedBytes);
    notes.push(
      `Codex v2 splits the whole rendered read_path_v2 prompt (about 2 KB of instructions and the memory folder path, then this text) into fragments of at most ${V2_FRAGMENT_MAX_BYTES} bytes. ` +
        'Memory Studio does not reproduce that template, so these fragments split the injected summary alone; the real cut points come earlier by the size of the instructions. Nothing is lost at a fragment cut.',
    );
  } else {
    fragments = [{ index: 0, startByte: 0, endByte: injectedBytes.length, bytes: injectedBytes.length }];
    notes.push('Codex v1 injects the rendered read_path prompt as one fragment.');
  }
  if (summaryText.startsWith('\uFEFF'))
    notes.push("The file starts with a byte-order mark; Codex keeps it in the injected text (Rust's trim does not remove it).");

  const trimmedTokens = count(trimmed);
  return {
    version: options.version,
    summaryExists: true,
    limitTokens,
    limitSource,
    limitBytes: limitTokens * 4,
    summaryBytes: fileBytes.length,
    trimmedBytes: trimmedBytes.length,
    leadingTrimBytes,
    estimatedTokens: approxTokensFromByteCount(trimmedBytes.length),
    o200kTokens: trimmedTokens,
    truncated: cut.truncated,
    injectedText,
    injectedBytes: injectedBytes.length,
    injectedO200kTokens: cut.truncated ? count(injectedText) : trimmedTokens,
    removed,
    markerText,
    fragments,
    notes,
  };
}

/**
 * The injected text of `computeBudget(summaryText, options)` with every secret masked, for output that leaves the app
 * (CLI text and JSON). Secrets are found in the whole summary, not in the injected text: the cut can drop the start of
 * a private key and leave its tail, which no pattern recognises on its own; such a tail shows as `****`.
 */
export function maskedInjectedText(summaryText: string, options: BudgetOptions): string {
  const { start, end } = rustTrimRange(summaryText);
  const trimmed = summaryText.slice(start, end);
  const trimmedBytes = Buffer.from(trimmed, 'utf8');
  const cut = truncateMiddleWithTokenBudget(trimmedBytes, options.limitTokens ?? SUMMARY_TOKEN_LIMIT);
  if (!cut.truncated) return maskSecretsInText(trimmed);
  const headChars = decoder.decode(trimmedBytes.subarray(0, cut.headEnd)).length;
  const tailChars = trimmed.length - decoder.decode(trimmedBytes.subarray(cut.tailStart)).length;
  let head = '';
  let tail = '';
  let headAt = 0;
  let tailAt = tailChars;
  for (const span of findSecretSpans(trimmed)) {
    if (span.secretStart < headChars) {
      head += trimmed.slice(headAt, span.secretStart) + maskSecret(trimmed.slice(span.secretStart, span.secretEnd));
      headAt = Math.min(headChars, span.secretEnd);
    }
    if (span.secretEnd > tailChars) {
      const from = Math.max(tailChars, span.secretStart);
      tail += trimmed.slice(tailAt, from) + (from === span.secretStart ? maskSecret(trimmed.slice(from, span.secretEnd)) : '****');
      tailAt = span.secretEnd;
    }
  }
  head += trimmed.slice(headAt, headChars);
  tail += trimmed.slice(tailAt);
  // A second pass over each side (never across the marker, which a key's BEGIN and END lines would swallow).
  return maskSecretsInText(head) + cut.marker + maskSecretsInText(tail);
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Said when the summary is past the editor's cap: the budget still reads it, as Codex does, but the editor does not. */
export function editorCapNote(summaryBytes: number): string {
  return `${FILES.summary} is ${mib(summaryBytes)}, more than the ${mib(DEFAULT_READ_CAP_BYTES)} Memory Studio opens in its editor, so the Files view does not show it; Codex reads it whole at every session start and injects only what this report shows.`;
}

/**
 * The budget of `<root>/memory_summary.md`, read safely; a missing file means Codex injects nothing. Codex reads the
 * whole file whatever its size and cuts it to the budget, so it is read up to the analysis cap (64 MiB), not the
 * editor's 16 MiB, and a note says when the editor cannot open it.
 */
export async function budgetForRoot(
  root: string,
  version: MemoryVersion,
  limitTokens?: number,
  countTokens?: (text: string) => number,
): Promise<BudgetReport> {
  const options: BudgetOptions = { version, limitTokens, countTokens };
  try {
    const file = await readMemoryFile(root, version, FILES.summary, ANALYSIS_CAP_BYTES);
    const report = computeBudget(file.content, options);
    if (report.summaryBytes > DEFAULT_READ_CAP_BYTES) report.notes.push(editorCapNote(report.summaryBytes));
    return report;
  } catch (error) {
    // Only the summary itself missing is Codex's "inject nothing"; a missing root stays an error.
    if (!(error instanceof StudioFailure) || error.kind !== 'NotFound' || error.path !== FILES.summary) throw error;
    const report = computeBudget('', options);
    return {
      ...report,
      summaryExists: false,
      notes: [`There is no ${FILES.summary} in this memory folder, so Codex injects no memory instructions.`],
    };
  }
}
