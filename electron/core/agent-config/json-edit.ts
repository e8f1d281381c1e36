// Claude Code's and Cursor's MCP JSON with `mcpServers["memory-studio"]` added or replaced by a minimal text edit: the
// bytes around the edit stay as they were (the file is never re-serialised), in the file's own indentation and line
// ending, and the result is parsed to prove nothing else changed.
import { isDeepStrictEqual } from 'node:util';
import { StudioFailure } from '../platform/errors';
import { alreadyConnected, SERVER_NAME } from './targets';

interface Member {
  key: string;
  /** Where the member starts (its key's opening quote) and where its value ends. */
  start: number;
  valueStart: number;
  valueEnd: number;
  value: Node;
}

interface Node {
  start: number;
  end: number;
  /** Objects only: their members in order. */
  members?: Member[];
}

/** A position-keeping reader of strict JSON: only what the edit needs (where each member of an object is). */
class Scanner {
  at = 0;
  constructor(private readonly text: string) {}
  private ws(): void {
    while (/[ \t\r\n]/.test(this.text[this.at] ?? '')) this.at++;
  }
  private string(): string {
    const start = this.at;
    this.at++;
    while (this.text[this.at] !== '"') this.at += this.text[this.at] === '\\' ? 2 : 1;
    this.at++;
    return JSON.parse(this.text.slice(start, this.at)) as string;
  }
  value(): Node {
    this.ws();
    const start = this.at;
    const c = this.text[this.at];
    if (c === '{') return this.object(start);
    if (c === '[') {
      this.at++;
      this.ws();
      while (this.text[this.at] !== ']') {
        this.value();
        this.ws();
        if (this.text[this.at] === ',') this.at++;
        this.ws();
      }
      this.at++;
    } else if (c === '"') this.string();
    else while (this.at < this.text.length && !/[,}\] \t\r\n]/.test(this.text.charAt(this.at))) this.at++;
    return { start, end: this.at };
  }
  private object(start: number): Node {
    const members: Member[] = [];
    this.at++;
    this.ws();
    while (this.text[this.at] !== '}') {
      const memberStart = this.at;
      const key = this.string();
      this.ws();
      this.at++; // ':'
      const value = this.value();
      members.push({ key, start: memberStart, valueStart: value.start, valueEnd: value.end, value });
      this.ws();
      if (this.text[this.at] === ',') this.at++;
      this.ws();
    }
    this.at++;
    return { start, end: this.at, members };
  }
}

/** The file's indentation unit and line ending, read from its first member; none for a one-line file. */
function styleOf(text: string, top: Node): { unit: string; eol: string } {
  const first = top.members?.[0];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (!first) return { unit: '  ', eol };
  const lineStart = text.lastIndexOf('\n', first.start) + 1;
  if (lineStart <= top.start) return { unit: '', eol: '' };
  return { unit: text.slice(lineStart, first.start), eol };
}

/** `value` as JSON at nesting `depth`, in the file's style. */
function render(value: unknown, depth: number, style: { unit: string; eol: string }): string {
  if (style.eol === '') return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit || '  ').replace(/\n/g, `${style.eol}${style.unit.repeat(depth)}`);
}

function parseStrict(text: string, path: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StudioFailure('Invalid', `${path} is not valid JSON (${(error as Error).message}), so nothing was proposed.`, {
      path,
      hint: 'Fix the file first (the agent cannot read it either), then connect again.',
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new StudioFailure('Invalid', `${path} is not a JSON object, so nothing was proposed.`, { path });
  return parsed as Record<string, unknown>;
}

/** The edit itself: where our member goes, in the file's style. */
function edit(text: string, top: Node, entry: Record<string, unknown>, path: string): string {
  const style = styleOf(text, top);
  const nl = (depth: number) => `${style.eol}${style.unit.repeat(depth)}`;
  const sep = style.eol === '' ? '' : ' ';
  const servers = top.members?.find((m) => m.key === 'mcpServers');
  const splice = (from: number, to: number, insert: string) => text.slice(0, from) + insert + text.slice(to);
  if (!servers) {
    const member = `"mcpServers":${sep}${render({ [SERVER_NAME]: entry }, 1, style)}`;
    const last = top.members?.at(-1);
    if (!last) return splice(top.start, top.end, render({ mcpServers: { [SERVER_NAME]: entry } }, 0, style));
    return splice(last.valueEnd, last.valueEnd, `,${nl(1)}${member}`);
  }
  if (!servers.value.members)
    throw new StudioFailure('Unsupported', `${path} has an "mcpServers" that is not an object, so nothing was proposed.`, { path });
  const ours = servers.value.members.find((m) => m.key === SERVER_NAME);
  if (ours) return splice(ours.valueStart, ours.valueEnd, render(entry, 2, style));
  const last = servers.value.members.at(-1);
  const member = `"${SERVER_NAME}":${sep}${render(entry, 2, style)}`;
  if (!last) return splice(servers.valueStart, servers.valueEnd, `{${nl(2)}${member}${nl(1)}}`);
  return splice(last.valueEnd, last.valueEnd, `,${nl(2)}${member}`);
}

const without = (config: Record<string, unknown>) => {
  const copy: Record<string, unknown> = { ...config };
  const servers = config.mcpServers as Record<string, unknown> | undefined;
  if (!servers || typeof servers !== 'object') return copy;
  const rest = { ...servers };
  delete rest[SERVER_NAME];
  copy.mcpServers = rest;
  if (Object.keys(rest).length === 0) delete copy.mcpServers;
  return copy;
};

/** `text` (null: no file yet) with `mcpServers["memory-studio"]` set to `entry`; refused when it already is, or not JSON. */
export function withJsonServer(text: string | null, entry: Record<string, unknown>, path: string): string {
  if (text === null || text.trim() === '') return `${JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2)}\n`;
  const before = parseStrict(text, path);
  if (isDeepStrictEqual((before.mcpServers as Record<string, unknown> | undefined)?.[SERVER_NAME], entry)) throw alreadyConnected(path);
  const result = edit(text, new Scanner(text).value(), entry, path);
  const after = parseStrict(result, path);
  if (
    !isDeepStrictEqual((after.mcpServers as Record<string, unknown>)[SERVER_NAME], entry) ||
    !isDeepStrictEqual(without(after), without(before))
  ) {
    throw new StudioFailure(
      'Internal',
      `The edit of ${path} would have changed more than the ${SERVER_NAME} entry, so nothing was proposed.`,
      {
        path,
      },
    );
  }
  return result;
}

/** Our entry in a parsed file, or undefined. */
export function jsonEntryOf(text: string, path: string): unknown {
  return (parseStrict(text, path).mcpServers as Record<string, unknown> | undefined)?.[SERVER_NAME];
}
