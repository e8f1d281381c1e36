// Front matter of imported memory files (flat keys, or the newer `metadata:` nesting) and index/topic/orphan kinds.
import type { ImportFileKind, ImportFrontMatter } from '../../../shared/import';

const NONE: ImportFrontMatter = { layout: 'none', name: null, description: null, type: null, other: {} };

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) {
    return v.startsWith('"') ? v.slice(1, -1).replace(/\\"/g, '"').replace(/\\\\/g, '\\') : v.slice(1, -1).replace(/''/g, "'");
  }
  return v;
}

/** Front matter never runs longer than this; the rest of a big file is not split into lines. */
const FRONT_MATTER_SCAN = 64 * 1024;

/** The lines between a leading `---` line and the next `---` (or `...`) line, or null when the file has no front matter. */
function frontMatterLines(text: string): string[] | null {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  if (!body.startsWith('---')) return null;
  const lines = body.slice(0, FRONT_MATTER_SCAN).split(/\r\n|\n|\r/);
  if ((lines[0] ?? '').trimEnd() !== '---') return null;
  const end = lines.findIndex((line, i) => i > 0 && (line.trimEnd() === '---' || line.trimEnd() === '...'));
  return end === -1 ? null : lines.slice(1, end);
}

/**
 * Where a leading front-matter block ends: the offset just past its closing `---` (or `...`) line and whether that
 * line had no line break (the file ends there). Null when the text has no front matter. Same rules as
 * `frontMatterLines`, so what is parsed as front matter is what stays at byte 0.
 */
export function frontMatterEnd(text: string): { offset: number; needsBreak: boolean } | null {
  const line = /([^\r\n]*)(\r\n|\n|\r|$)/y;
  let at = text.startsWith('\ufeff') ? 1 : 0;
  for (let first = true; at < Math.min(text.length, FRONT_MATTER_SCAN); first = false) {
    line.lastIndex = at;
    const m = line.exec(text);
    if (!m) return null;
    const content = (m[1] ?? '').trimEnd();
    const brk = m[2] ?? '';
    at += m[0].length;
    if (first ? content !== '---' : content === '---' || content === '...') {
      return first ? null : { offset: at, needsBreak: brk === '' };
    }
    if (brk === '') return null;
  }
  return null;
}

/** A tolerant reading of the YAML subset memory files use: `key: value` lines, one level of nesting under a key. */
export function parseFrontMatter(text: string): ImportFrontMatter {
  const lines = frontMatterLines(text);
  if (!lines) return NONE;
  const flat: Record<string, string> = {};
  let parent: string | null = null;
  let nested = false;
  for (const line of lines) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^(\s*)([A-Za-z_][\w.-]*)\s*:(.*)$/.exec(line);
    if (!match) continue;
    const [, indent = '', key = '', rawValue = ''] = match;
    const value = rawValue.trim();
    if (indent.length === 0) {
      parent = value === '' ? key : null;
      if (value !== '') flat[key] = unquote(value);
    } else if (parent) {
      flat[`${parent}.${key}`] = unquote(value);
      if (parent === 'metadata') nested = true;
    }
  }
  const pick = (key: string): string | null => {
    const value = flat[key] ?? flat[`metadata.${key}`];
    return value === undefined ? null : value;
  };
  const known = new Set(['name', 'description', 'type', 'metadata.name', 'metadata.description', 'metadata.type']);
  const other = Object.fromEntries(Object.entries(flat).filter(([key]) => !known.has(key)));
  return { layout: nested ? 'nested' : 'flat', name: pick('name'), description: pick('description'), type: pick('type'), other };
}

/** Relative paths an index links to: Markdown links `[..](file.md)` and `[[name]]` wiki links, resolved from the index folder. */
export function indexLinks(indexText: string, indexRelPath: string): Set<string> {
  const dir = indexRelPath.includes('/') ? indexRelPath.slice(0, indexRelPath.lastIndexOf('/') + 1) : '';
  const links = new Set<string>();
  for (const m of indexText.matchAll(/\]\(\s*<?([^)\s>#]+)>?(?:#[^)]*)?\s*(?:"[^"]*")?\)/g)) {
    const target = decodeURIComponentSafe(m[1] ?? '').replace(/^\.\//, '');
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.add(normalise(dir + target));
  }
  for (const m of indexText.matchAll(/\[\[([^\]|#]+)(?:[|#][^\]]*)?\]\]/g)) {
    const name = (m[1] ?? '').trim();
    links.add(normalise(dir + (name.endsWith('.md') ? name : `${name}.md`)));
  }
  return links;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/** `MEMORY.md` at the top is the index; a file it links to (by path or by name) is a topic; any other is an orphan. */
export function classifyMemoryFiles(relPaths: readonly string[], indexText: string | null): Map<string, ImportFileKind> {
  const links = indexText === null ? new Set<string>() : indexLinks(indexText, 'MEMORY.md');
  const linkedNames = new Set([...links].map((l) => l.slice(l.lastIndexOf('/') + 1)));
  const kinds = new Map<string, ImportFileKind>();
  for (const rel of relPaths) {
    if (rel === 'MEMORY.md') kinds.set(rel, 'index');
    else if (links.has(rel) || (!rel.includes('/') && linkedNames.has(rel))) kinds.set(rel, 'topic');
    else kinds.set(rel, 'orphan');
  }
  return kinds;
}
