// Codex's config.toml with `[mcp_servers.memory-studio]` added or replaced by a minimal text edit: every other line stays
// byte for byte (the file is never re-serialised), and the result is parsed to prove nothing else changed.
import { isDeepStrictEqual } from 'node:util';
import { parse, TomlError } from 'smol-toml';
import { StudioFailure } from '../platform/errors';
import { alreadyConnected, SERVER_NAME, type ServerCommand } from './targets';

type Table = Record<string, unknown>;

/** A table header line (`[a.b]`, `[[a]]`), not an array's continuation line such as `  [1, 2],`. */
const HEADER = /^[ \t]*\[{1,2}[ \t]*[A-Za-z0-9_"'][^\]\r\n]*\]{1,2}[ \t]*(#.*)?$/;
/** Our own table's header, whichever way the key is quoted. */
const OURS = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:memory-studio|"memory-studio"|'memory-studio')[ \t]*\][ \t]*(#.*)?$/;

/** A TOML basic string: JSON's escapes are all TOML's, and the text stays readable. */
const tomlString = (value: string) => JSON.stringify(value);

/** The table as written, in the file's line ending. */
export function codexServerTable(server: ServerCommand, eol = '\n'): string {
  return [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${tomlString(server.command)}`,
    `args = [${server.args.map(tomlString).join(', ')}]`,
    '',
  ].join(eol);
}

export function parseToml(text: string, path: string): Table {
  try {
    return parse(text);
  } catch (error) {
    const where = error instanceof TomlError ? ` (line ${error.line})` : '';
    throw new StudioFailure('Invalid', `${path} is not valid TOML${where}; Codex would refuse it too, so nothing was proposed.`, {
      path,
      hint: 'Fix the file first (codex prints the same error when it starts), then connect again.',
    });
  }
}

/** Our entry as Codex would read it from a parsed config, or undefined. */
export function codexEntryOf(config: Table): unknown {
  const servers = config.mcp_servers;
  return servers && typeof servers === 'object' ? (servers as Table)[SERVER_NAME] : undefined;
}

/** The config without our entry (and without an `mcp_servers` left empty): what must not change. */
const withoutOurs = (config: Table): Table => {
  // Always a plain copy: the parser's own objects and a spread copy differ in prototype, which a deep compare sees.
  const copy: Table = { ...config };
  const servers = config.mcp_servers;
  if (!servers || typeof servers !== 'object') return copy;
  const rest = { ...(servers as Table) };
  delete rest[SERVER_NAME];
  copy.mcp_servers = rest;
  if (Object.keys(rest).length === 0) delete copy.mcp_servers;
  return copy;
};

/** Replaces our table (header to the next header) in `lines`, or returns null when the file has none. */
function replaceOurs(lines: string[], table: string, eol: string): string | null {
  const start = lines.findIndex((l) => OURS.test(l));
  if (start < 0) return null;
  let end = lines.findIndex((l, i) => i > start && HEADER.test(l));
  if (end < 0) end = lines.length;
  // Blank lines before the next header stay as they were.
  let keep = end;
  while (keep > start + 1 && (lines[keep - 1] ?? '').trim() === '') keep--;
  const before = lines.slice(0, start).join(eol);
  const after = lines.slice(keep).join(eol);
  return `${start > 0 ? before + eol : ''}${table}${after}`;
}

/**
 * `text` (null: no config.toml yet) with our server added, or our old entry replaced. Refused when the file is not
 * TOML, when it already has exactly this entry, or when a text edit cannot express the change (an inline
 * `mcp_servers = {…}` table, dotted keys): then the person adds it by hand.
 */
export function withCodexServer(text: string | null, server: ServerCommand, path: string): string {
  if (text === null || text.trim() === '') return `${text ?? ''}${codexServerTable(server)}`;
  const before = parseToml(text, path);
  const wanted = { command: server.command, args: server.args };
  const current = codexEntryOf(before) as Table | undefined;
  if (current && current.command === wanted.command && isDeepStrictEqual(current.args, wanted.args)) throw alreadyConnected(path);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const table = codexServerTable(server, eol);
  const lines = text.split(eol);
  const replaced = replaceOurs(lines, table, eol);
  const result = replaced ?? `${text}${text.endsWith(eol) ? '' : eol}${eol}${table}`;
  let after: Table | null = null;
  try {
    after = parse(result);
  } catch {
    after = null;
  }
  const entry = after ? (codexEntryOf(after) as Table | undefined) : undefined;
  const same = after !== null && isDeepStrictEqual(withoutOurs(after), withoutOurs(before));
  if (!entry || entry.command !== wanted.command || !isDeepStrictEqual(entry.args, wanted.args) || !same) {
    throw new StudioFailure(
      'Unsupported',
      `${path} declares its MCP servers in a way a new [mcp_servers.${SERVER_NAME}] table cannot extend without rewriting other lines, so nothing was proposed.`,
      { path, hint: `Add this table to it by hand:\n${codexServerTable(server)}` },
    );
  }
  return result;
}
