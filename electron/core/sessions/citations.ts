// Codex's memory-citation parsing, mirrored rule for rule (`codex-rs/memories/read/src/citations.rs` and the citation stream parser).
import type { MemoryCitation, MemoryCitationEntry } from '../../../shared/sessions';
import { CITATION_TAGS } from '../codex/constants';

// Rust's `str::trim` and `str::lines` (not JS's trim: U+FEFF and U+0085 differ), so lines split exactly as Codex splits them.
export { rustLines, rustTrim } from '../codex/rust-str';
import { rustLines, rustTrim } from '../codex/rust-str';

/** Rust's `u32::from_str`: optional `+`, ASCII digits only, at most 4,294,967,295. */
export function parseU32(text: string): number | null {
  if (!/^\+?[0-9]+$/.test(text)) return null;
  const value = Number(text.startsWith('+') ? text.slice(1) : text);
  return Number.isSafeInteger(value) && value <= 0xffff_ffff ? value : null;
}

export interface ExtractedCitations {
  /** Bodies of `<oai-mem-citation>` (and web citation) spans, in order. */
  blocks: string[];
  /** Spans that reached the end of the text without a closing tag (Codex closes them itself). */
  unclosed: number;
}

const SPECS = [
  { open: CITATION_TAGS.open, close: CITATION_TAGS.close },
  { open: CITATION_TAGS.webOpen, close: CITATION_TAGS.webClose },
];

/** The earliest opening tag; ties go to the longer tag, then the first spec (InlineHiddenTagParser's rule). */
function nextOpen(text: string, from: number): { at: number; spec: (typeof SPECS)[number] } | null {
  let best: { at: number; spec: (typeof SPECS)[number] } | null = null;
  for (const spec of SPECS) {
    const at = text.indexOf(spec.open, from);
    if (at === -1) continue;
    if (!best || at < best.at || (at === best.at && spec.open.length > best.spec.open.length)) best = { at, spec };
  }
  return best;
}

/** `strip_citations`: literal, non-nested spans; an unterminated span runs to the end of the text. */
export function extractCitationBlocks(text: string): ExtractedCitations {
  const blocks: string[] = [];
  let unclosed = 0;
  let from = 0;
  for (;;) {
    const open = nextOpen(text, from);
    if (!open) break;
    const bodyStart = open.at + open.spec.open.length;
    const close = text.indexOf(open.spec.close, bodyStart);
    if (close === -1) {
      blocks.push(text.slice(bodyStart));
      unclosed++;
      break;
    }
    blocks.push(text.slice(bodyStart, close));
    from = close + open.spec.close.length;
  }
  return { blocks, unclosed };
}

/** `extract_block`: text after the first `open`, up to the first `close` after it; null when either is missing. */
function extractBlock(text: string, open: string, close: string): string | null {
  const start = text.indexOf(open);
  if (start === -1) return null;
  const rest = text.slice(start + open.length);
  const end = rest.indexOf(close);
  return end === -1 ? null : rest.slice(0, end);
}

export type EntryRejection = 'no-note' | 'note-not-closed' | 'no-colon' | 'no-range-dash' | 'bad-number' | 'empty-path' | 'reversed-range';

/** `parse_memory_citation_entry`, returning why a line is dropped (Codex drops it silently). */
export function parseCitationEntryDetailed(rawLine: string): MemoryCitationEntry | EntryRejection | null {
  const line = rustTrim(rawLine);
  if (line === '') return null;
  const noteAt = line.lastIndexOf(CITATION_TAGS.noteSeparator);
  if (noteAt === -1) return 'no-note';
  const location = line.slice(0, noteAt);
  const noteRaw = line.slice(noteAt + CITATION_TAGS.noteSeparator.length);
  if (!noteRaw.endsWith(']')) return 'note-not-closed';
  const note = rustTrim(noteRaw.slice(0, -1));
  const colon = location.lastIndexOf(':');
  if (colon === -1) return 'no-colon';
  const range = location.slice(colon + 1);
  const dash = range.indexOf('-');
  if (dash === -1) return 'no-range-dash';
  const path = rustTrim(location.slice(0, colon));
  const lineStart = parseU32(rustTrim(range.slice(0, dash)));
  const lineEnd = parseU32(rustTrim(range.slice(dash + 1)));
  if (lineStart === null || lineEnd === null) return 'bad-number';
  // The newest upstream parser also refuses an empty path and a reversed range (older builds kept them).
  if (path === '') return 'empty-path';
  if (lineStart > lineEnd) return 'reversed-range';
  return { path, lineStart, lineEnd, note };
}

export function parseCitationEntry(line: string): MemoryCitationEntry | null {
  const result = parseCitationEntryDetailed(line);
  return typeof result === 'object' ? result : null;
}

/** `extract_ids_block`: `<rollout_ids>` first, the legacy `<thread_ids>` only when that block is absent or unclosed. */
function extractIdsBlock(text: string): string | null {
  return (
    extractBlock(text, CITATION_TAGS.rolloutIdsOpen, CITATION_TAGS.rolloutIdsClose) ??
    extractBlock(text, CITATION_TAGS.legacyThreadIdsOpen, CITATION_TAGS.legacyThreadIdsClose)
  );
}

/**
 * `parse_memory_citation(citations: Vec<String>) -> Option<MemoryCitation>`: entries from the first
 * `<citation_entries>` block of each citation, ids from its ids block, de-duplicated in order across all of them;
 * null when there are neither entries nor ids. Ids are kept as written (Codex validates them only when counting usage).
 */
export function parseMemoryCitation(citations: readonly string[]): MemoryCitation | null {
  const entries: MemoryCitationEntry[] = [];
  const threadIds: string[] = [];
  const seen = new Set<string>();
  for (const citation of citations) {
    const block = extractBlock(citation, CITATION_TAGS.entriesOpen, CITATION_TAGS.entriesClose);
    if (block !== null) {
      for (const line of rustLines(block)) {
        const entry = parseCitationEntry(line);
        if (entry) entries.push(entry);
      }
    }
    const ids = extractIdsBlock(citation);
    if (ids === null) continue;
    for (const id of rustLines(ids).map(rustTrim)) {
      if (id === '' || seen.has(id)) continue;
      seen.add(id);
      threadIds.push(id);
    }
  }
  return entries.length === 0 && threadIds.length === 0 ? null : { entries, threadIds };
}

export interface DroppedEntry {
  text: string;
  reason: EntryRejection;
}

/** Lines inside `<citation_entries>` that Codex drops, with the reason, for diagnostics only. */
export function droppedCitationEntries(citations: readonly string[]): DroppedEntry[] {
  const dropped: DroppedEntry[] = [];
  for (const citation of citations) {
    const block = extractBlock(citation, CITATION_TAGS.entriesOpen, CITATION_TAGS.entriesClose);
    if (block === null) continue;
    for (const line of rustLines(block)) {
      const result = parseCitationEntryDetailed(line);
      if (typeof result === 'string') dropped.push({ text: rustTrim(line), reason: result });
    }
  }
  return dropped;
}

const UUID_HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_SIMPLE = /^[0-9a-f]{32}$/i;

/**
 * `ThreadId::try_from(&str)` (uuid's `parse_str`: hyphenated, simple, `{braced}` or `urn:uuid:`), printed the way
 * Codex prints a ThreadId (lowercase, hyphenated); null for anything else, which Codex skips when counting usage.
 */
export function canonicalThreadId(text: string): string | null {
  let id = text;
  if (id.length === 45 && id.toLowerCase().startsWith('urn:uuid:')) id = id.slice(9);
  else if (id.length === 38 && id.startsWith('{') && id.endsWith('}')) id = id.slice(1, -1);
  if (UUID_HYPHENATED.test(id)) return id.toLowerCase();
  if (UUID_SIMPLE.test(id)) {
    const h = id.toLowerCase();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  return null;
}
