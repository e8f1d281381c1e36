// A tolerant reader for the YAML subset memory files use in front matter: scalars, quotes, lists, one nesting level.
import { group, itemAt } from '../platform/indexed';
import { appendAll } from '../platform/append';
import type { FrontMatter, FrontMatterValue, LineRange } from '../../../shared/formats';
import { setOwn } from './context';
import { isBlank } from './markdown';

export interface FrontMatterProblem {
  line: number;
  message: string;
}

export interface FrontMatterBlock {
  /** Lines of the block including both `---` lines; null when the file has no front matter. */
  range: LineRange | null;
  /** False when an opening `---` is never closed (then `fields` is empty). */
  closed: boolean;
  fields: FrontMatter;
  problems: FrontMatterProblem[];
}

const KEY_LINE = /^([A-Za-z0-9_][\w.-]*(?: [\w.-]+)*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/;
const DOUBLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '/': '/', '0': '\0' };

function unquoteDouble(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) =>
    e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (DOUBLE_ESCAPES[e] ?? e),
  );
}

/** A scalar as YAML reads it: quoted strings unescaped, plain text with a ` #` comment dropped. */
export function readScalar(raw: string): { value: string; ok: boolean } {
  const t = raw.trim();
  if (t.startsWith('"')) {
    const m = /^"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$/.exec(t);
    return m ? { value: unquoteDouble(group(m, 1)), ok: true } : { value: t, ok: false };
  }
  if (t.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'\s*(?:#.*)?$/.exec(t);
    return m ? { value: group(m, 1).replace(/''/g, "'"), ok: true } : { value: t, ok: false };
  }
  const comment = t.search(/(?:^|[ \t])#/);
  return { value: (comment >= 0 ? t.slice(0, comment) : t).trim(), ok: true };
}

/** `[a, "b", c]` as a list, or null when `raw` is not a flow sequence. */
function readFlowList(raw: string): string[] | null {
  const t = raw.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return null;
  const inner = t.slice(1, -1).trim();
  if (inner === '') return [];
  const items: string[] = [];
  let quote = '';
  let start = 0;
  for (let i = 0; i <= inner.length; i++) {
    const ch = inner[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ',' || ch === undefined) {
      items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  return items.map((item) => readScalar(item).value).filter((v) => v !== '');
}

function valueOf(raw: string, line: number, problems: FrontMatterProblem[]): string | string[] {
  const list = readFlowList(raw);
  if (list) return list;
  const s = readScalar(raw);
  if (!s.ok) problems.push({ line, message: `The quoted value ${raw.trim()} is not closed.` });
  return s.value;
}

/** The leading blanks' width, a tab counting 4 (a loop: called for every front-matter line of every file). */
function indentOf(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 32) width += 1;
    else if (ch === 9) width += 4;
    else break;
  }
  return width;
}

interface Cursor {
  lines: readonly string[];
  i: number;
  end: number;
  problems: FrontMatterProblem[];
}

/** Lines indented deeper than `indent` after a `key: |` or `key: >` block-scalar indicator. */
function readBlockScalar(c: Cursor, indent: number, folded: boolean): string {
  const parts: string[] = [];
  while (c.i < c.end) {
    const text = itemAt(c.lines, c.i);
    if (!isBlank(text) && indentOf(text) <= indent) break;
    parts.push(text.trim());
    c.i++;
  }
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return folded ? parts.join(' ').replace(/ {2,}/g, ' ') : parts.join('\n');
}

/** The nested value of `key:` with nothing after it: a list of `- x`, a map of `k: v`, or plain continuation. */
function readNested(c: Cursor, indent: number): FrontMatterValue {
  const list: string[] = [];
  const map: Record<string, string | string[]> = {};
  let isMap = false;
  while (c.i < c.end) {
    const text = itemAt(c.lines, c.i);
    if (isBlank(text) || /^\s*#/.test(text)) {
      c.i++;
      continue;
    }
    const own = indentOf(text);
    if (own <= indent && !(own === indent && /^\s*- /.test(text) && !isMap)) break;
    const item = /^\s*-(?:[ \t]+(.*)|[ \t]*)$/.exec(text);
    const kv = item ? null : KEY_LINE.exec(text.trim());
    c.i++;
    if (item) {
      const value = valueOf(item[1] ?? '', c.i, c.problems);
      appendAll(list, Array.isArray(value) ? value : [value]);
    } else if (kv) {
      isMap = true;
      const raw = kv[2] ?? '';
      setOwn(map, group(kv, 1), raw === '' ? toScalar(readNested(c, own)) : valueOf(raw, c.i, c.problems));
    } else {
      c.problems.push({ line: c.i, message: `Cannot read "${text.trim()}" as "key: value" or "- item".` });
    }
  }
  if (isMap) return map;
  return list.length > 0 ? list : '';
}

const toScalar = (v: FrontMatterValue): string | string[] => (typeof v === 'string' || Array.isArray(v) ? v : JSON.stringify(v));

/** YAML folds more-indented lines after a plain scalar into it (multi-line descriptions). */
function continuePlain(c: Cursor, value: string | string[]): string | string[] {
  if (Array.isArray(value)) return value;
  let out = value;
  while (c.i < c.end) {
    const text = itemAt(c.lines, c.i);
    if (isBlank(text) || indentOf(text) === 0) break;
    out = `${out} ${text.trim()}`.trim();
    c.i++;
  }
  return out;
}

/** Parses `lines[from..to)` (0-based) as the YAML subset. */
export function parseYamlSubset(
  lines: readonly string[],
  from: number,
  to: number,
): { fields: FrontMatter; problems: FrontMatterProblem[] } {
  const c: Cursor = { lines, i: from, end: to, problems: [] };
  const fields: FrontMatter = {};
  while (c.i < c.end) {
    const text = itemAt(c.lines, c.i);
    if (isBlank(text) || /^\s*#/.test(text)) {
      c.i++;
      continue;
    }
    const kv = indentOf(text) === 0 ? KEY_LINE.exec(text) : null;
    c.i++;
    if (!kv) {
      c.problems.push({ line: c.i, message: `Cannot read "${text.trim()}" as "key: value".` });
      continue;
    }
    const key = group(kv, 1);
    const raw = kv[2] ?? '';
    if (/^[|>][+-]?$/.test(raw.trim())) setOwn(fields, key, readBlockScalar(c, 0, raw.trim().startsWith('>')));
    else if (raw === '') setOwn(fields, key, readNested(c, 0));
    else setOwn(fields, key, continuePlain(c, valueOf(raw, c.i, c.problems)));
  }
  return { fields, problems: c.problems };
}

/** Front matter between `---` lines at the very start (`start`, 0-based) of `lines`. */
export function readFrontMatter(lines: readonly string[], start = 0): FrontMatterBlock {
  if ((lines[start] ?? '').trimEnd() !== '---') return { range: null, closed: false, fields: {}, problems: [] };
  const close = lines.findIndex((line, i) => i > start && /^(?:---|\.\.\.)$/.test(line.trimEnd()));
  if (close < 0) {
    return {
      range: { line: start + 1, endLine: start + 1 },
      closed: false,
      fields: {},
      problems: [{ line: start + 1, message: 'The front matter opened here is never closed with "---".' }],
    };
  }
  const { fields, problems } = parseYamlSubset(lines, start + 1, close);
  return { range: { line: start + 1, endLine: close + 1 }, closed: true, fields, problems };
}

/** A front-matter value as one string (lists joined with ", "), or null when absent or a map. */
export function fieldText(fields: FrontMatter, key: string): string | null {
  const v = fields[key];
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.join(', ');
  return null;
}
