// The streaming chat-completions wire format (server-sent events): `data: {...}` lines ending with `data: [DONE]`.
import { StudioFailure } from '../../platform/errors';

export interface ChatStreamResult {
  text: string;
  finishReason: string | null;
  sawDone: boolean;
  usage?: { inputTokens: number; outputTokens: number };
}

export interface ChatStreamHandlers {
  /** Every chunk of bytes (keeps the idle timer alive, comments included). */
  onActivity: () => void;
  /** Every piece of answer text, with the running total of characters. */
  onDelta: (delta: string, totalChars: number) => void;
}

type Json = Record<string, unknown>;

/** Reads the whole stream; a bad JSON data line, an error event or an early end is a clear StudioFailure. */
export async function readChatStream(body: ReadableStream<Uint8Array>, handlers: ChatStreamHandlers): Promise<ChatStreamResult> {
  const result: ChatStreamResult = { text: '', finishReason: null, sawDone: false };
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let data: string[] = [];
  const dispatch = () => {
    if (data.length === 0) return;
    const payload = data.join('\n');
    data = [];
    handlePayload(result, payload, handlers);
  };
  const handleLine = (line: string) => {
    if (line === '') dispatch();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    // `event:`, `id:`, `retry:` and `:` comments carry nothing we need.
  };
  try {
    while (!result.sawDone) {
      const { done, value } = await reader.read();
      if (done) break;
      handlers.onActivity();
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\n|\r/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        handleLine(line);
        if (result.sawDone) break;
      }
    }
    if (!result.sawDone) {
      buffer += decoder.decode();
      if (buffer.length > 0) handleLine(buffer);
      dispatch();
    }
  } finally {
    if (result.sawDone) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  if (!result.sawDone && result.finishReason === null) {
    throw new StudioFailure(
      'Internal',
      `The endpoint's stream ended before the answer was complete (no "data: [DONE]" and no finish_reason) after ${result.text.length} characters.`,
      {
        hint: 'The connection or the server broke off. Run again; if it keeps happening, check the endpoint or a proxy in between.',
      },
    );
  }
  return result;
}

function handlePayload(result: ChatStreamResult, payload: string, handlers: ChatStreamHandlers): void {
  if (payload.trim() === '[DONE]') {
    result.sawDone = true;
    return;
  }
  let chunk: unknown;
  try {
    chunk = JSON.parse(payload);
  } catch {
    throw new StudioFailure('Internal', `The endpoint sent a malformed stream: a data line is not JSON (${excerpt(payload)}).`, {
      hint: 'Check that the base URL points to an OpenAI-compatible /v1 endpoint that supports streaming chat completions.',
    });
  }
  if (!isObject(chunk))
    throw new StudioFailure('Internal', `The endpoint sent a malformed stream: a data line is not a JSON object (${excerpt(payload)}).`);
  if (chunk.error !== undefined && chunk.error !== null) {
    const message =
      isObject(chunk.error) && typeof chunk.error.message === 'string' ? chunk.error.message : excerpt(JSON.stringify(chunk.error));
    throw new StudioFailure('Internal', `The endpoint reported an error in the middle of the answer: ${message}`, {
      hint: 'Run again; if it keeps happening, try another model.',
    });
  }
  readUsage(result, chunk.usage);
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (!isObject(choice)) return;
  const delta = isObject(choice.delta) ? choice.delta : null;
  if (delta && typeof delta.content === 'string' && delta.content.length > 0) {
    result.text += delta.content;
    handlers.onDelta(delta.content, result.text.length);
  }
  if (typeof choice.finish_reason === 'string') result.finishReason = choice.finish_reason;
}

function readUsage(result: ChatStreamResult, usage: unknown): void {
  if (!isObject(usage)) return;
  const input = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0;
  const output = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0;
  result.usage = { inputTokens: input, outputTokens: output };
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 119)}…` : line);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
