// What one rollout JSONL line means: session metadata, an assistant message, or something else (both wrapped and legacy shapes).
import type { UnixTime } from '../../../shared/health';
import type { SessionCitation } from '../../../shared/sessions';
import { isoToUnixTime } from '../codex-db/time';
import { extractCitationBlocks, parseMemoryCitation } from './citations';

export interface SessionMeta {
  id: string | null;
  cwd: string | null;
  startedAt: UnixTime | null;
  source?: string;
  cliVersion?: string;
}

export type RolloutLine =
  | { kind: 'meta'; meta: SessionMeta; time: UnixTime | null }
  | { kind: 'assistant'; text: string; time: UnixTime | null }
  | { kind: 'other'; time: UnixTime | null };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function toMeta(payload: Json): SessionMeta {
  const meta: SessionMeta = { id: str(payload.id), cwd: str(payload.cwd), startedAt: isoToUnixTime(payload.timestamp) };
  // `source` is a string ("cli", "vscode", "exec") or, for sub-agents, an object; keep a readable form either way.
  if (typeof payload.source === 'string') meta.source = payload.source;
  else if (payload.source !== undefined && payload.source !== null) meta.source = JSON.stringify(payload.source);
  const cli = str(payload.cli_version);
  if (cli) meta.cliVersion = cli;
  return meta;
}

/** Text of an assistant message: its `output_text` parts joined, as Codex builds the raw assistant output. */
function assistantText(item: Json): string | null {
  if (item.type !== 'message' || item.role !== 'assistant' || !Array.isArray(item.content)) return null;
  let text = '';
  for (const part of item.content) {
    if (isObject(part) && part.type === 'output_text' && typeof part.text === 'string') text += part.text;
  }
  return text;
}

/**
 * Current rollouts wrap every line as `{timestamp, type, payload}` (`session_meta`, `response_item`, `event_msg`,
 * `turn_context`…). The oldest ones started with a bare `{id, timestamp, instructions}` line followed by bare
 * response items. Only `response_item` assistant messages are read: they carry the model's raw text with the
 * citation block, while `event_msg` agent messages repeat the (possibly stripped) text and would double count.
 */
export function interpretLine(value: unknown, lineNo: number): RolloutLine {
  if (!isObject(value)) return { kind: 'other', time: null };
  const time = isoToUnixTime(value.timestamp);
  if (value.type === 'session_meta' && isObject(value.payload)) return { kind: 'meta', meta: toMeta(value.payload), time };
  if (lineNo === 1 && value.type === undefined && typeof value.id === 'string') return { kind: 'meta', meta: toMeta(value), time };
  const item = value.type === 'response_item' ? value.payload : value.type === 'message' ? value : null;
  if (isObject(item)) {
    const text = assistantText(item);
    if (text !== null) return { kind: 'assistant', text, time };
  }
  return { kind: 'other', time };
}

/** The memory citation an assistant message carries, as Codex would record it, or null. */
export function citationOf(
  text: string,
  line: number,
  time: UnixTime | null,
): (SessionCitation & { unclosed: number; blocks: string[] }) | null {
  if (!text.includes('<') && !text.includes('\u{e200}')) return null;
  const { blocks, unclosed } = extractCitationBlocks(text);
  if (blocks.length === 0) return null;
  const parsed = parseMemoryCitation(blocks);
  if (!parsed) return null;
  return { line, time, entries: parsed.entries, threadIds: parsed.threadIds, unclosed, blocks };
}

/** Byte patterns tested on raw lines before decoding: does this line need JSON.parse at all? */
export const MARKERS = {
  citation: Buffer.from('oai-mem-citation'),
  webCitation: Buffer.from('\u{e200}cite\u{e202}'),
  sessionMeta: Buffer.from('"session_meta"'),
  v2Summary: Buffer.from('memories_v2/memory_summary.md'),
  v1Summary: Buffer.from('memories/memory_summary.md'),
} as const;
