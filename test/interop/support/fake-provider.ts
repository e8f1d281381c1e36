// A fake OpenAI Responses provider on 127.0.0.1 that real Codex talks to: phase 1, phase 2's agent, ordinary turns.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How Codex's requests are told apart (docs/codex-facts.md, A fake model provider). */
export type RequestKind = 'phase1' | 'phase2' | 'ordinary' | 'models' | 'other';

export interface RecordedRequest {
  kind: RequestKind;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (null for a GET or a body that is not JSON). */
  body: ResponsesBody | null;
  at: number;
}

export interface ResponsesInputItem {
  type?: string;
  role?: string;
  content?: Array<{ type?: string; text?: string }> | string;
  call_id?: string;
  output?: unknown;
  [key: string]: unknown;
}

export interface ResponsesBody {
  model?: string;
  input?: ResponsesInputItem[];
  text?: { format?: { type?: string; schema?: { properties?: Record<string, unknown> } } };
  [key: string]: unknown;
}

/** What phase 1 answers for one rollout: v2 wants summary and slug, v1 adds raw_memory. */
export interface Phase1Answer {
  rollout_summary: string;
  rollout_slug: string | null;
  raw_memory?: string;
}

export interface FakeProviderHooks {
  /** Phase 1's JSON answer; `wantsRawMemory` is true when the schema asks for `raw_memory` (v1). */
  phase1?: (request: RecordedRequest, wantsRawMemory: boolean) => Phase1Answer;
  /** The shell command phase 2's agent runs in the memory root through the `exec` tool (null: answer with a message only). */
  phase2Command?: (request: RecordedRequest) => string | null;
  /** Resolves when phase 2's first answer may be sent (holds Codex's lease while pending). */
  phase2Gate?: ((request: RecordedRequest) => Promise<void>) | undefined;
  /** Resolves when an ordinary turn may be answered (keeps the root session, and so phase 2, alive). */
  ordinaryGate?: (request: RecordedRequest) => Promise<void>;
  /** The assistant's text for an ordinary turn. */
  ordinaryText?: (request: RecordedRequest) => string;
  /**
   * A shell command an ordinary turn runs first through Codex's `exec_command` function tool (null: answer at once).
   * Once the tool's output comes back, the turn ends with `ordinaryText`.
   */
  ordinaryCommand?: ((request: RecordedRequest) => string | null) | undefined;
  /**
   * A function call an ordinary turn answers with instead (an MCP tool: `namespace` is `mcp__<server>`), or null to
   * answer with `ordinaryText`. Asked again after each tool output, so a turn can call several tools in a row.
   */
  ordinaryToolCall?: ((request: RecordedRequest) => ToolCall | null) | undefined;
}

/** A function call the fake model makes: Codex 0.171.0 routes one with a `namespace` to that MCP server's tool. */
export interface ToolCall {
  name: string;
  namespace?: string;
  arguments: Record<string, unknown>;
}

const USAGE = { input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 };

/** The default phase-1 answer: a short, valid summary in the shape the stage-1 prompt asks for. */
export function defaultPhase1Answer(wantsRawMemory: boolean): Phase1Answer {
  const answer: Phase1Answer = {
    rollout_summary:
      '# Greeted the fake model and checked the memory pipeline.\n\nRollout context: interop test.\n\n## Task 1: say hi\nOutcome: success\n',
    rollout_slug: 'interop_hello',
  };
  if (wantsRawMemory) {
    answer.raw_memory = [
      '---',
      'description: greeted the fake model during an interop test',
      'task: say hi',
      'task_group: interop',
      'task_outcome: success',
      'keywords: interop, fake provider',
      '---',
      '',
      '### Task 1: say hi',
      'task: say hi',
      'task_group: interop',
      'task_outcome: success',
      '',
    ].join('\n');
  }
  return answer;
}

function classify(method: string, path: string, headers: IncomingMessage['headers'], body: ResponsesBody | null): RequestKind {
  if (method === 'GET' && path.endsWith('/models')) return 'models';
  if (method !== 'POST' || !path.endsWith('/responses') || !body) return 'other';
  if (body.text?.format?.type === 'json_schema') return 'phase1';
  if (headers['x-openai-subagent'] === 'memory_consolidation') return 'phase2';
  return 'ordinary';
}

/** Every text of a request's input items, joined: what the model was told. */
export function requestText(request: RecordedRequest): string {
  const parts: string[] = [];
  for (const item of request.body?.input ?? []) {
    if (typeof item.content === 'string') parts.push(item.content);
    else for (const c of item.content ?? []) if (typeof c.text === 'string') parts.push(c.text);
  }
  return parts.join('\n');
}

/**
 * What the agent's `exec` tool returned, as Codex sent it back to the model: each `custom_tool_call_output` part,
 * with the command's own output unwrapped from the exec_command result JSON (`{"exit_code":…,"output":"…"}`).
 */
export function toolOutputs(request: RecordedRequest): string[] {
  const out: string[] = [];
  for (const item of request.body?.input ?? []) {
    if (item.type !== 'custom_tool_call_output' || !Array.isArray(item.output)) continue;
    for (const part of item.output as Array<{ text?: unknown }>) {
      if (typeof part.text !== 'string') continue;
      try {
        const parsed = JSON.parse(part.text) as { output?: unknown };
        out.push(typeof parsed.output === 'string' ? parsed.output : part.text);
      } catch {
        out.push(part.text);
      }
    }
  }
  return out;
}

const SUMMARY_BEGIN = '========= MEMORY_SUMMARY BEGINS =========';
const SUMMARY_END = '========= MEMORY_SUMMARY ENDS =========';

/**
 * The memory summary the session was given (between Codex's markers), or null when none was injected. v2 splits the
 * rendered prompt into content parts of at most 8,900 bytes inside one developer message: the parts are joined first.
 */
export function injectedSummary(request: RecordedRequest): string | null {
  for (const item of request.body?.input ?? []) {
    const text = typeof item.content === 'string' ? item.content : (item.content ?? []).map((c) => c.text ?? '').join('');
    const begin = text.indexOf(SUMMARY_BEGIN);
    if (begin < 0) continue;
    const end = text.indexOf(SUMMARY_END, begin);
    if (end < 0) continue;
    // Codex writes the markers on their own lines around the summary.
    return text
      .slice(begin + SUMMARY_BEGIN.length, end)
      .replace(/^\n/, '')
      .replace(/\n$/, '');
  }
  return null;
}

/** The byte sizes of the content parts of the message carrying the summary (v2's fragments). */
export function summaryMessageParts(request: RecordedRequest): number[] | null {
  for (const item of request.body?.input ?? []) {
    if (typeof item.content === 'string' || !item.content) continue;
    if (
      !item.content
        .map((c) => c.text ?? '')
        .join('')
        .includes(SUMMARY_BEGIN)
    )
      continue;
    return item.content.map((c) => Buffer.byteLength(c.text ?? ''));
  }
  return null;
}

function writeEvents(res: ServerResponse, events: Array<Record<string, unknown>>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

function messageEvents(id: string, text: string): Array<Record<string, unknown>> {
  const item = { type: 'message', role: 'assistant', id, content: [{ type: 'output_text', text, annotations: [] }] };
  return [
    { type: 'response.created', response: { id: `resp_${id}` } },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } },
    { type: 'response.output_text.delta', item_id: id, output_index: 0, content_index: 0, delta: text },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { id: `resp_${id}`, usage: USAGE } },
  ];
}

/** A `function_call` of Codex's `exec_command` tool (what an ordinary session offers the model), or of any tool. */
function functionCallEvents(id: string, call: string | ToolCall): Array<Record<string, unknown>> {
  const tool: ToolCall = typeof call === 'string' ? { name: 'exec_command', arguments: { cmd: call, login: false, tty: false } } : call;
  const item = {
    type: 'function_call',
    id: `fc_${id}`,
    call_id: `call_${id}`,
    name: tool.name,
    ...(tool.namespace ? { namespace: tool.namespace } : {}),
    arguments: JSON.stringify(tool.arguments),
    status: 'completed',
  };
  return [
    { type: 'response.created', response: { id: `resp_${id}` } },
    { type: 'response.output_item.added', output_index: 0, item },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { id: `resp_${id}`, usage: USAGE } },
  ];
}

/** A `custom_tool_call` of Codex's `exec` tool that runs one shell command and returns its result. */
function execToolEvents(id: string, command: string): Array<Record<string, unknown>> {
  const input = `const r = await tools.exec_command({cmd: ${JSON.stringify(command)}, login: false, tty: false}); text(JSON.stringify(r));`;
  const item = { type: 'custom_tool_call', id: `ctc_${id}`, call_id: `call_${id}`, name: 'exec', input, status: 'completed' };
  return [
    { type: 'response.created', response: { id: `resp_${id}` } },
    { type: 'response.output_item.added', output_index: 0, item },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { id: `resp_${id}`, usage: USAGE } },
  ];
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export class FakeProvider {
  readonly requests: RecordedRequest[] = [];
  hooks: FakeProviderHooks = {};
  private server: Server | null = null;
  private port = 0;
  private counter = 0;
  private readonly failures: string[] = [];

  /** `base_url` for config.toml. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.failures.push(String(error));
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Requests of one kind, oldest first. */
  of(kind: RequestKind): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === kind);
  }

  /** Problems the provider met (a request it could not read); a test asserts this is empty. */
  problems(): string[] {
    return [...this.failures];
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let body: ResponsesBody | null = null;
    if (raw.length > 0) {
      if (req.headers['content-encoding'] && req.headers['content-encoding'] !== 'identity') {
        this.failures.push(
          `a request arrived with Content-Encoding ${String(req.headers['content-encoding'])}, which this provider cannot read`,
        );
      } else {
        try {
          body = JSON.parse(raw.toString('utf8')) as ResponsesBody;
        } catch {
          this.failures.push(`a ${method} ${path} body was not JSON`);
        }
      }
    }
    const request: RecordedRequest = {
      kind: classify(method, path, req.headers, body),
      method,
      path,
      headers: { ...req.headers },
      body,
      at: Date.now(),
    };
    this.requests.push(request);
    const id = `msg_${++this.counter}`;
    switch (request.kind) {
      case 'models':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
        return;
      case 'phase1': {
        const wantsRaw = Object.hasOwn(body?.text?.format?.schema?.properties ?? {}, 'raw_memory');
        const answer = this.hooks.phase1?.(request, wantsRaw) ?? defaultPhase1Answer(wantsRaw);
        writeEvents(res, messageEvents(id, JSON.stringify(answer)));
        return;
      }
      case 'phase2':
        return this.answerPhase2(request, id, res);
      case 'ordinary': {
        const call = this.hooks.ordinaryToolCall?.(request) ?? null;
        if (call !== null) {
          writeEvents(res, functionCallEvents(id, call));
          return;
        }
        const toolRan = (body?.input ?? []).some((item) => item.type === 'function_call_output');
        const command = toolRan ? null : (this.hooks.ordinaryCommand?.(request) ?? null);
        if (command !== null) {
          writeEvents(res, functionCallEvents(id, command));
          return;
        }
        await this.hooks.ordinaryGate?.(request);
        writeEvents(res, messageEvents(id, this.hooks.ordinaryText?.(request) ?? 'Hello from the fake provider.'));
        return;
      }
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not a Responses endpoint');
    }
  }

  private async answerPhase2(request: RecordedRequest, id: string, res: ServerResponse): Promise<void> {
    const input = request.body?.input ?? [];
    const toolRan = input.some((item) => item.type === 'custom_tool_call_output');
    if (toolRan) {
      writeEvents(res, messageEvents(id, 'Consolidation finished.'));
      return;
    }
    await this.hooks.phase2Gate?.(request);
    const command = this.hooks.phase2Command?.(request) ?? null;
    writeEvents(res, command === null ? messageEvents(id, 'Nothing to consolidate.') : execToolEvents(id, command));
  }
}
