// `codex exec --json` event stream: tolerant JSONL parsing into run log lines, progress and a run summary.

/** What the stream told us so far; unknown event types and fields are ignored (the set keeps growing). */
export interface CodexStreamState {
  threadId: string | null;
  turnsCompleted: number;
  usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number } | null;
  /** A `turn.failed` message, or an `error` event not followed by a completed turn. */
  failure: string | null;
  /** Paths from completed `file_change` items, as Codex reported them (absolute or relative). */
  fileChanges: string[];
  commands: number;
  lastAgentMessage: string | null;
  garbageLines: number;
}

type Log = (line: string) => void;
type Progress = (message: string, fraction?: number) => void;
type Json = Record<string, unknown>;

const MAX_GARBAGE_LOGGED = 20;

export function createCodexStreamState(): CodexStreamState {
  return {
    threadId: null,
    turnsCompleted: 0,
    usage: null,
    failure: null,
    fileChanges: [],
    commands: 0,
    lastAgentMessage: null,
    garbageLines: 0,
  };
}

/** Shortens a text to one line of at most `max` characters. */
export function shorten(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Handles one stdout line: a JSON event, a blank line, or garbage (logged, never fatal). */
export function handleCodexLine(state: CodexStreamState, raw: string, log: Log, progress: Progress): void {
  const line = raw.trim();
  if (line.length === 0) return;
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    event = null;
  }
  if (!isObject(event) || typeof event.type !== 'string') {
    state.garbageLines++;
    if (state.garbageLines <= MAX_GARBAGE_LOGGED) log(`codex (not a JSON event): ${shorten(line, 160)}`);
    return;
  }
  handleEvent(state, event, log, progress);
}

function handleEvent(state: CodexStreamState, event: Json, log: Log, progress: Progress): void {
  switch (event.type) {
    case 'thread.started':
      state.threadId = str(event.thread_id);
      log(`Codex thread ${state.threadId ?? '(no id)'} started.`);
      return;
    case 'turn.started':
      progress('The Codex agent is working in the staging folder.');
      return;
    case 'turn.completed':
      state.turnsCompleted++;
      state.failure = null;
      addUsage(state, event.usage, log);
      return;
    case 'turn.failed':
      state.failure = str(isObject(event.error) ? event.error.message : null) ?? 'the turn failed';
      log(`Codex turn failed: ${shorten(state.failure, 400)}`);
      return;
    case 'error':
      state.failure = str(event.message) ?? 'stream error';
      log(`Codex error: ${shorten(state.failure, 400)}`);
      return;
    case 'item.started':
    case 'item.completed':
      if (isObject(event.item)) handleItem(state, event.item, event.type === 'item.completed', log, progress);
      return;
    default:
      return;
  }
}

function handleItem(state: CodexStreamState, item: Json, completed: boolean, log: Log, progress: Progress): void {
  switch (item.type) {
    case 'command_execution': {
      const command = shorten(str(item.command) ?? '(command)', 160);
      if (!completed) {
        progress(`Running: ${command}`);
        return;
      }
      state.commands++;
      const exit = typeof item.exit_code === 'number' ? ` → exit ${item.exit_code}` : '';
      const status = str(item.status);
      log(`$ ${command}${exit}${status && status !== 'completed' ? ` (${status})` : ''}`);
      return;
    }
    case 'file_change':
      if (completed) handleFileChange(state, item, log, progress);
      return;
    case 'agent_message':
      if (completed && str(item.text)) {
        state.lastAgentMessage = str(item.text);
        log(`Agent: ${shorten(state.lastAgentMessage ?? '', 200)}`);
      }
      return;
    case 'mcp_tool_call':
      if (completed) log(`Tool call ${str(item.server) ?? '?'}.${str(item.tool) ?? '?'} (${str(item.status) ?? 'done'})`);
      return;
    case 'web_search':
      if (completed) log(`Web search: ${shorten(str(item.query) ?? '', 120)}`);
      return;
    case 'error':
      if (completed) log(`Codex warning: ${shorten(str(item.message) ?? '', 300)}`);
      return;
    default:
      return;
  }
}

function handleFileChange(state: CodexStreamState, item: Json, log: Log, progress: Progress): void {
  const changes = Array.isArray(item.changes) ? item.changes : [];
  const status = str(item.status);
  for (const change of changes) {
    if (!isObject(change)) continue;
    const path = str(change.path);
    if (!path) continue;
    state.fileChanges.push(path);
    log(`${str(change.kind) ?? 'change'} ${path}${status && status !== 'completed' ? ` (${status})` : ''}`);
  }
  if (changes.length > 0) progress(`The agent changed ${state.fileChanges.length} file(s) so far.`);
}

function addUsage(state: CodexStreamState, usage: unknown, log: Log): void {
  if (!isObject(usage)) {
    log('Codex turn completed.');
    return;
  }
  const input = num(usage.input_tokens);
  const cached = num(usage.cached_input_tokens);
  const output = num(usage.output_tokens);
  const total = state.usage ?? { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  state.usage = {
    inputTokens: total.inputTokens + input,
    cachedInputTokens: total.cachedInputTokens + cached,
    outputTokens: total.outputTokens + output,
  };
  log(`Codex turn completed: ${input} input tokens (${cached} cached), ${output} output tokens.`);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
