// A memory root cut into the entries the doctor judges: MEMORY.md task groups, summary entries and bullets, raw memories.
import { createHash } from 'node:crypto';
import type { MemoryVersion } from '../../../../shared/domain';
import type { DoctorEntry, DoctorFile, EntryKind } from '../../../../shared/doctor';
import type {
  MemoryBlock,
  MemoryMdParsed,
  MemorySummaryParsed,
  ParsedFile,
  RawMemoriesParsed,
  RawThread,
  SummaryPointer,
  SummaryTopic,
} from '../../../../shared/formats';
import { parseMemoryFile } from '../../formats';
import { blockTreeOf, type BlockNode } from './tree';

export interface NumberedLine {
  line: number;
  text: string;
}

/** An entry with what the checks and the fixes need beyond its public description. */
export interface EntryModel {
  entry: DoctorEntry;
  /** 0-based [start, end): the lines a removal takes (the entry and the blank lines after it). */
  start: number;
  end: number;
  /** The entry's own lines, numbered (what similarity reads). */
  lines: NumberedLine[];
  /** Bullets that state a rule or a learning (what AGENTS.md overlap compares, what a promotion writes). */
  statements: NumberedLine[];
  /** Summary entries: the date group and scope holding it, 0-based [start, end), removed with their last entry. */
  containers: { start: number; headEnd: number; end: number }[];
}

export interface ParsedMemoryFile {
  file: DoctorFile;
  text: string;
  parsed: ParsedFile;
}

const BULLET = /^\s*[-*]\s+/;
const ISO_SECONDS = (value: string | null | undefined): number | null => {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
};
const newest = (values: readonly (number | null)[]): number | null =>
  values.reduce<number | null>((max, v) => (v !== null && (max === null || v > max) ? v : max), null);
const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];
const clip = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function numbered(parsed: ParsedFile, start: number, end: number): NumberedLine[] {
  const out: NumberedLine[] = [];
  for (let i = start; i < end; i++) out.push({ line: i + 1, text: parsed.source.lines[i] ?? '' });
  return out;
}

/** The last non-blank line of [start, end), 1-based; `start + 1` when all are blank. */
function contentEnd(lines: readonly NumberedLine[], fallback: number): number {
  return lines.findLast((l) => l.text.trim() !== '')?.line ?? fallback;
}

const trimBlank = (lines: NumberedLine[]) => lines.filter((l) => l.text.trim() !== '');

interface Draft {
  kind: EntryKind;
  title: string;
  start: number;
  end: number;
  cwd: string | null;
  scope: string | null;
  threadIds: string[];
  pointers: string[];
  keywords: string[];
  updatedAt: number | null;
  statements?: NumberedLine[];
  containers?: EntryModel['containers'];
}

function taskGroupDraft(block: MemoryBlock, node: BlockNode, parsed: ParsedFile): Draft {
  const refs = block.tasks.flatMap((t) => t.rolloutSummaryFiles);
  const statements = block.sections.flatMap((s) =>
    s.bullets.map((b) => ({ line: b.line, text: parsed.source.lines[b.line - 1] ?? b.text })),
  );
  return {
    kind: 'task-group',
    title: block.title,
    start: node.start,
    end: node.end,
    cwd: block.appliesTo?.cwd ?? null,
    scope: block.scope,
    threadIds: unique(refs.map((r) => r.fields.thread_id).filter((id): id is string => !!id)),
    pointers: unique(refs.map((r) => r.file)),
    keywords: block.keywords,
    updatedAt: newest(refs.map((r) => ISO_SECONDS(r.fields.updated_at))),
    statements,
  };
}

function memoryMdDrafts(parsed: MemoryMdParsed): Draft[] {
  const tree = blockTreeOf(parsed);
  if (!tree) return [];
  const byStart = new Map(tree.root.children.filter((n) => n.type === 'task_group').map((n) => [n.start, n]));
  return parsed.blocks.flatMap((block) => {
    const node = byStart.get(block.line - 1);
    return node ? [taskGroupDraft(block, node, parsed)] : [];
  });
}

type SummaryItem = SummaryPointer | SummaryTopic;

/** Every entry node of the summary with the chain of containers above it (date group, scope). */
function summaryNodes(root: BlockNode): { node: BlockNode; chain: BlockNode[] }[] {
  const out: { node: BlockNode; chain: BlockNode[] }[] = [];
  const walk = (node: BlockNode, chain: BlockNode[]) => {
    for (const child of node.children) {
      if (child.type === 'entry') out.push({ node: child, chain });
      else walk(child, child.type === 'date_group' || (child.type === 'scope' && child.key !== 'older-topics') ? [child, ...chain] : chain);
    }
  };
  walk(root, []);
  return out;
}

function summaryItemDraft(item: SummaryItem, node: BlockNode, chain: BlockNode[], parsed: ParsedFile): Draft {
  const scopeNode = chain.find((n) => n.type === 'scope');
  const dateNode = chain.find((n) => n.type === 'date_group');
  const lines = numbered(parsed, node.start, node.end);
  const pointer = 'file' in item;
  const refs = pointer ? [item.file] : item.rolloutRefs.map((r) => r.file);
  const dated = dateNode ? ISO_SECONDS(`${dateNode.title}T00:00:00Z`) : null;
  return {
    kind: 'summary-entry',
    title: clip(pointer ? item.sentence || item.file : item.topic),
    start: node.start,
    end: node.end,
    cwd: null,
    scope: scopeNode?.title ?? null,
    threadIds: pointer && item.threadId ? [item.threadId] : [],
    pointers: unique(refs),
    keywords: pointer ? [] : item.keywords,
    updatedAt: dated,
    statements: trimBlank(lines),
    containers: chain.map((n) => ({ start: n.start, headEnd: n.headEnd, end: n.end })),
  };
}

/** Bullets of `## User preferences` and `## General Tips`: global rules and tips, one entry each. */
function sectionBulletDrafts(parsed: MemorySummaryParsed): Draft[] {
  const drafts: Draft[] = [];
  const lines = parsed.source.lines;
  for (const section of parsed.sections.filter((s) => s.level === 2 && /^(user preferences|general tips)$/i.test(s.title.trim()))) {
    for (let i = section.line; i < section.endLine; i++) {
      const text = lines[i] ?? '';
      if (!/^[-*]\s+/.test(text)) continue;
      let end = i + 1;
      while (end < section.endLine && ((lines[end] ?? '').trim() === '' || /^\s+\S/.test(lines[end] ?? ''))) end++;
      const own = numbered(parsed, i, end);
      drafts.push({
        kind: 'summary-bullet',
        title: clip(text.replace(BULLET, '')),
        start: i,
        end,
        cwd: null,
        scope: section.title.trim(),
        threadIds: [],
        pointers: [],
        keywords: [],
        updatedAt: null,
        statements: trimBlank(own),
      });
    }
  }
  return drafts;
}

function summaryDrafts(parsed: MemorySummaryParsed): Draft[] {
  const tree = blockTreeOf(parsed);
  const drafts = sectionBulletDrafts(parsed);
  if (!tree) return drafts;
  const items = new Map<number, SummaryItem>();
  for (const scope of parsed.scopes) {
    for (const item of [...scope.pointers, ...scope.topics, ...scope.dateGroups.flatMap((g) => [...g.pointers, ...g.topics])])
      items.set(item.line - 1, item);
  }
  for (const { node, chain } of summaryNodes(tree.root)) {
    const item = items.get(node.start);
    if (item) drafts.push(summaryItemDraft(item, node, chain, parsed));
  }
  return drafts.sort((a, b) => a.start - b.start);
}

function rawDraft(thread: RawThread, node: BlockNode): Draft {
  const fm = thread.frontMatter;
  const keywords = (fm.keywords ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return {
    kind: 'raw-memory',
    title: clip(fm.description || fm.task || `Thread ${thread.threadId}`),
    start: node.start,
    end: node.end,
    cwd: thread.cwd ?? fm.cwd ?? null,
    scope: fm.task_group ?? null,
    threadIds: [thread.threadId],
    pointers: thread.rolloutSummaryFile ? [`rollout_summaries/${thread.rolloutSummaryFile}`] : [],
    keywords,
    updatedAt: ISO_SECONDS(thread.updatedAt),
  };
}

function rawDrafts(parsed: RawMemoriesParsed): Draft[] {
  const tree = blockTreeOf(parsed);
  if (!tree) return [];
  const byStart = new Map(tree.root.children.filter((n) => n.type === 'thread').map((n) => [n.start, n]));
  return parsed.threads.flatMap((thread) => {
    const node = byStart.get(thread.line - 1);
    return node ? [rawDraft(thread, node)] : [];
  });
}

/** Raw memory header lines are Codex's bookkeeping (paths, times); similarity reads the memory itself. */
const RAW_HEADER = /^(?:## Thread\b|updated_at:|cwd:|rollout_path:|rollout_summary_file:)/;

function toModel(version: MemoryVersion, file: DoctorFile, draft: Draft, parsed: ParsedFile, seen: Map<string, number>): EntryModel {
  const all = numbered(parsed, draft.start, draft.end);
  const own = trimBlank(all);
  const text = own.map((l) => l.text).join('\n');
  const occurrence = seen.get(text) ?? 0;
  seen.set(text, occurrence + 1);
  const id = `m-${createHash('sha256').update(`${version}\0${file}\0${occurrence}\0${text}`).digest('hex').slice(0, 12)}`;
  const entry: DoctorEntry = {
    id,
    version,
    file,
    kind: draft.kind,
    title: draft.title,
    line: draft.start + 1,
    endLine: contentEnd(all, draft.start + 1),
    cwd: draft.cwd,
    scope: draft.scope,
    threadIds: draft.threadIds,
    pointers: draft.pointers,
    keywords: draft.keywords,
    updatedAt: draft.updatedAt,
  };
  const lines = draft.kind === 'raw-memory' ? own.filter((l) => !RAW_HEADER.test(l.text) && !/^cwd:/.test(l.text)) : own;
  return { entry, start: draft.start, end: draft.end, lines, statements: draft.statements ?? [], containers: draft.containers ?? [] };
}

export const DOCTOR_FILES: readonly DoctorFile[] = ['MEMORY.md', 'memory_summary.md', 'raw_memories.md'];

/** Parses one of the doctor's files and cuts it into entries (in file order). */
export function entriesOf(version: MemoryVersion, file: DoctorFile, text: string): { parsed: ParsedFile; entries: EntryModel[] } {
  const parsed = parseMemoryFile(text, { path: file, version });
  const drafts =
    parsed.kind === 'memory_md'
      ? memoryMdDrafts(parsed)
      : parsed.kind === 'memory_summary'
        ? summaryDrafts(parsed)
        : parsed.kind === 'raw_memories'
          ? rawDrafts(parsed)
          : [];
  const seen = new Map<string, number>();
  return { parsed, entries: drafts.map((d) => toModel(version, file, d, parsed, seen)) };
}
