// A Codex memory file cut into a tree of blocks (from the format parsers' line ranges) that tile its lines exactly.
import type { ParsedFile, SummaryPointer, SummaryScope, SummaryTopic } from '../../../../shared/formats';
import type { BlockType } from '../../../../shared/review';
import { parseMemoryFile } from '../../formats';

/**
 * One block: lines [start, end) of the file (0-based), its own lines [start, headEnd) and children tiling
 * [headEnd, end). A block includes the blank lines after it, so blocks in order give the file back.
 */
export interface BlockNode {
  type: BlockType;
  /** Identity for matching across versions: the same key means the same block (title, thread id, pointer file…). */
  key: string;
  title: string;
  start: number;
  headEnd: number;
  end: number;
  children: BlockNode[];
}

export interface BlockTree {
  kind: 'memory_md' | 'memory_summary' | 'raw_memories' | 'skill';
  root: BlockNode;
}

interface Start {
  type: BlockType;
  key: string;
  title: string;
  /** 0-based first line. */
  at: number;
  /** Builds the children of this block once its range is known. */
  children?: (start: number, end: number) => BlockNode[];
}

/** Children from their first lines: each runs to the next one (or the parent's end); lines before the first stay the parent's. */
function tile(starts: readonly Start[], end: number): BlockNode[] {
  const sorted = [...starts].sort((x, y) => x.at - y.at);
  return sorted.map((s, i) => {
    const stop = sorted[i + 1]?.at ?? end;
    const children = s.children ? s.children(s.at, stop) : [];
    return { type: s.type, key: s.key, title: s.title, start: s.at, headEnd: children[0]?.start ?? stop, end: stop, children };
  });
}

/** The root: a preamble block for the lines before the first block, then the blocks. */
function rootOf(starts: readonly Start[], lineCount: number): BlockNode {
  const first = starts.reduce((min, s) => Math.min(min, s.at), lineCount);
  const all = first > 0 ? [{ type: 'preamble' as const, key: 'preamble', title: '(before the first block)', at: 0 }, ...starts] : starts;
  const children = tile(all, lineCount);
  return { type: 'preamble', key: 'root', title: '', start: 0, headEnd: children[0]?.start ?? lineCount, end: lineCount, children };
}

function memoryMdStarts(parsed: Extract<ParsedFile, { kind: 'memory_md' }>): Start[] {
  return parsed.blocks.map((b) => ({
    type: 'task_group',
    key: `tg\0${b.title}\0${b.appliesTo?.cwd ?? ''}`,
    title: b.title,
    at: b.line - 1,
  }));
}

function entryStart(entry: SummaryPointer | SummaryTopic): Start {
  if ('file' in entry)
    return { type: 'entry', key: `ptr\0${entry.file}`, title: entry.file.replace(/^rollout_summaries\//, ''), at: entry.line - 1 };
  return { type: 'entry', key: `topic\0${entry.topic}`, title: entry.topic, at: entry.line - 1 };
}

const entriesOf = (holder: { pointers: SummaryPointer[]; topics: SummaryTopic[] }): Start[] =>
  [...holder.pointers, ...holder.topics].map(entryStart);

function scopeStart(scope: SummaryScope): Start {
  const dateGroups: Start[] = scope.dateGroups.map((g) => ({
    type: 'date_group',
    key: `date\0${g.date}`,
    title: g.date,
    at: g.line - 1,
    children: (_s, e) => tile(entriesOf(g), e),
  }));
  const children = [...dateGroups, ...entriesOf(scope)];
  return {
    type: 'scope',
    key: `scope\0${scope.older ? 'older' : 'recent'}\0${scope.name}`,
    title: scope.name,
    at: scope.line - 1,
    children: (_s, e) => tile(children, e),
  };
}

function summaryStarts(parsed: Extract<ParsedFile, { kind: 'memory_summary' }>): Start[] {
  const older = parsed.olderTopics;
  const recent = parsed.scopes.filter((s) => !s.older).map(scopeStart);
  const olderScopes = parsed.scopes.filter((s) => s.older).map(scopeStart);
  const inside: Start[] = [...recent];
  if (older)
    inside.push({
      type: 'scope',
      key: 'older-topics',
      title: 'Older Memory Topics',
      at: older.line - 1,
      children: (_s, e) => tile(olderScopes, e),
    });
  return parsed.sections
    .filter((s) => s.level <= 2)
    .map((s) => {
      const hasEntries = inside.some((c) => c.at >= s.line && c.at < s.endLine);
      const children = hasEntries
        ? (_start: number, end: number) =>
            tile(
              inside.filter((c) => c.at >= s.line && c.at < end),
              end,
            )
        : undefined;
      return { type: 'section' as const, key: `sec\0${s.title.trim()}`, title: s.title.trim(), at: s.line - 1, children };
    });
}

function rawStarts(parsed: Extract<ParsedFile, { kind: 'raw_memories' }>): Start[] {
  return parsed.threads.map((t) => ({ type: 'thread', key: `thread\0${t.threadId}`, title: t.threadId, at: t.line - 1 }));
}

function skillStarts(parsed: Extract<ParsedFile, { kind: 'skill' }>): Start[] {
  const starts: Start[] = [];
  const fm = parsed.frontMatterRange;
  if (fm)
    starts.push({
      type: 'front_matter',
      key: 'front-matter',
      title: parsed.name ? `front matter (${parsed.name})` : 'front matter',
      at: fm.line - 1,
    });
  const top = Math.min(...parsed.sections.map((s) => s.level));
  for (const s of parsed.sections)
    if (s.level === top) starts.push({ type: 'section', key: `sec\0${s.title.trim()}`, title: s.title.trim(), at: s.line - 1 });
  if (fm && parsed.body && (starts[1]?.at ?? Infinity) > parsed.body.line - 1)
    starts.push({ type: 'section', key: 'skill-body', title: '(body before the first heading)', at: parsed.body.line - 1 });
  return starts;
}

function startsOf(parsed: ParsedFile): Start[] | null {
  switch (parsed.kind) {
    case 'memory_md':
      return memoryMdStarts(parsed);
    case 'memory_summary':
      return summaryStarts(parsed);
    case 'raw_memories':
      return rawStarts(parsed);
    case 'skill':
      return skillStarts(parsed);
    default:
      return null;
  }
}

/**
 * The block tree of `text` at `path`, or null when the file is not a block-structured Codex kind. `lineCount` is the
 * review's own count (lines split at `\n`): a file whose line model differs (lone CR line endings) gets no tree.
 */
export function blockTree(text: string, path: string, version: 'v1' | 'v2' | undefined, lineCount: number): BlockTree | null {
  const parsed = parseMemoryFile(text, { path, version });
  return parsed.lineCount === lineCount ? blockTreeOf(parsed) : null;
}

/** The block tree of an already parsed file (its own line model), or null when the kind has no blocks. */
export function blockTreeOf(parsed: ParsedFile): BlockTree | null {
  const starts = startsOf(parsed);
  if (!starts) return null;
  return { kind: parsed.kind as BlockTree['kind'], root: rootOf(starts, parsed.lineCount) };
}
