// Parses one session rollout JSONL into metadata, assistant messages and memory citations; bad lines become diagnostics.
import type { SessionDiagnostic, SessionRollout } from '../../../shared/sessions';
import { decodeUtf8Strict } from '../platform/utf8';
import { droppedCitationEntries } from './citations';
import { DEFAULT_MAX_LINE_BYTES, readLines } from './line-reader';
import { citationOf, interpretLine, type SessionMeta } from './rollout-lines';
import { threadIdFromRolloutPath } from './session-files';

export interface ParseRolloutOptions {
  /** Assistant messages whose text is kept (all are counted). Default 200. */
  maxMessagesWithText?: number;
  /** Characters of one message's text kept. Default 8,000. */
  maxTextChars?: number;
  maxLineBytes?: number;
  /** Diagnostics kept after coalescing runs of the same problem. Default 200. */
  maxDiagnostics?: number;
}

type Severity = SessionDiagnostic['severity'];

/** Collects diagnostics, merging a run of consecutive lines with the same rule into one line..endLine entry. */
class Diagnostics {
  readonly items: SessionDiagnostic[] = [];
  private dropped = 0;

  constructor(private readonly cap: number) {}

  add(severity: Severity, rule: string, line: number, message: string): void {
    const last = this.items[this.items.length - 1];
    if (last && last.rule === rule && last.endLine === line - 1) {
      last.endLine = line;
      last.message = `${message} (lines ${last.line}-${line})`;
      return;
    }
    if (this.items.length >= this.cap) {
      this.dropped++;
      return;
    }
    this.items.push({ severity, rule, line, endLine: line, message });
  }

  finish(lastLine: number): SessionDiagnostic[] {
    if (this.dropped > 0) {
      this.items.push({
        severity: 'info',
        rule: 'session/too-many-diagnostics',
        line: lastLine,
        endLine: lastLine,
        message: `${this.dropped} more problems were not listed.`,
      });
    }
    return this.items;
  }
}

interface State {
  out: SessionRollout;
  diagnostics: Diagnostics;
  meta: SessionMeta | null;
  options: Required<ParseRolloutOptions>;
}

function onAssistant(state: State, lineNo: number, text: string, time: SessionRollout['startedAt']): void {
  const { out, options } = state;
  out.assistantMessageCount++;
  if (out.assistantMessages.length < options.maxMessagesWithText) {
    const cut = text.length > options.maxTextChars;
    out.assistantMessages.push(cut ? { line: lineNo, text: text.slice(0, options.maxTextChars), truncated: true } : { line: lineNo, text });
  } else {
    out.assistantMessages.push({ line: lineNo });
  }
  const citation = citationOf(text, lineNo, time);
  if (!citation) return;
  out.citations.push({ line: citation.line, time: citation.time, entries: citation.entries, threadIds: citation.threadIds });
  if (citation.unclosed > 0) {
    state.diagnostics.add(
      'info',
      'session/citation-unclosed',
      lineNo,
      'A <oai-mem-citation> block has no closing tag; Codex reads it to the end of the message.',
    );
  }
  for (const d of droppedCitationEntries(citation.blocks)) {
    state.diagnostics.add(
      'warning',
      'session/citation-entry-dropped',
      lineNo,
      `Codex ignores the citation entry "${d.text.slice(0, 120)}" (${d.reason}).`,
    );
  }
}

function onLine(state: State, lineNo: number, bytes: Buffer | null, length: number): void {
  const { diagnostics } = state;
  if (bytes === null) {
    diagnostics.add(
      'warning',
      'session/line-too-long',
      lineNo,
      `Line of ${length} bytes skipped: longer than the ${state.options.maxLineBytes}-byte cap.`,
    );
    return;
  }
  if (bytes.length === 0) return;
  const text = decodeUtf8Strict(bytes);
  if (text === null) {
    diagnostics.add('error', 'session/invalid-utf8', lineNo, 'Line is not valid UTF-8; Codex cannot read it either.');
    return;
  }
  if (text.trim() === '') return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    diagnostics.add('error', 'session/invalid-json', lineNo, `Line is not valid JSON (${(error as Error).message}).`);
    return;
  }
  const line = interpretLine(value, lineNo);
  if (line.kind === 'meta' && !state.meta) state.meta = line.meta;
  else if (line.kind === 'assistant') onAssistant(state, lineNo, line.text, line.time);
}

function finish(state: State): SessionRollout {
  const { out, meta } = state;
  out.threadId = meta?.id ?? out.fileThreadId;
  out.cwd = meta?.cwd ?? null;
  out.startedAt = meta?.startedAt ?? null;
  if (meta?.source) out.source = meta.source;
  if (meta?.cliVersion) out.cliVersion = meta.cliVersion;
  if (!meta)
    state.diagnostics.add(
      'warning',
      'session/missing-meta',
      1,
      'No session_meta line: thread id, cwd and start time come from the file name, if at all.',
    );
  else if (meta.id && out.fileThreadId && meta.id.toLowerCase() !== out.fileThreadId) {
    state.diagnostics.add(
      'warning',
      'session/thread-id-mismatch',
      1,
      `session_meta says thread ${meta.id} but the file name says ${out.fileThreadId}.`,
    );
  }
  out.diagnostics = state.diagnostics.finish(out.lineCount);
  return out;
}

/** Streams the file; never throws for content problems (a missing or unreadable file still rejects). */
export async function parseSessionRollout(path: string, options: ParseRolloutOptions = {}): Promise<SessionRollout> {
  const resolved: Required<ParseRolloutOptions> = {
    maxMessagesWithText: options.maxMessagesWithText ?? 200,
    maxTextChars: options.maxTextChars ?? 8_000,
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    maxDiagnostics: options.maxDiagnostics ?? 200,
  };
  const fileThreadId = threadIdFromRolloutPath(path);
  const state: State = {
    out: {
      kind: 'session_rollout',
      path,
      threadId: null,
      fileThreadId,
      cwd: null,
      startedAt: null,
      lineCount: 0,
      bytes: 0,
      assistantMessages: [],
      assistantMessageCount: 0,
      citations: [],
      diagnostics: [],
    },
    diagnostics: new Diagnostics(resolved.maxDiagnostics),
    meta: null,
    options: resolved,
  };
  const result = await readLines(path, (lineNo, bytes, length) => onLine(state, lineNo, bytes, length), {
    maxLineBytes: resolved.maxLineBytes,
  });
  state.out.lineCount = result.lines;
  state.out.bytes = result.bytes;
  return finish(state);
}
