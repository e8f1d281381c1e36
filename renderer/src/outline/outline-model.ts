// Flattens a parsed memory file into outline rows (headings to jump to, pointers to follow), nested by line ranges.
import type { ParsedOutline } from '../../../shared/formats';

interface RowBase {
  key: string;
  /** Indentation: 0 for top-level headings. */
  depth: number;
  label: string;
  /** A second, quieter line (a pointer's sentence, a block's scope). */
  detail?: string;
  line: number;
  endLine: number;
  chips?: readonly string[];
  /** Why this row deserves a second look (an invalid date heading, a malformed pointer). */
  warning?: string;
  badge?: string;
}

/** `jump` rows scroll the editor; `pointer` rows open the rollout summary they name (core resolved its path). */
export type OutlineRow = (RowBase & { type: 'jump' }) | (RowBase & { type: 'pointer'; file: string; threadId: string | null });

type Outline<K extends ParsedOutline['kind']> = Extract<ParsedOutline, { kind: K }>;
type Span = { line: number; endLine: number };

/**
 * The short name people recognise: Codex names summaries `<timestamp>-<4 random chars>-<slug>.md`; the slug
 * says what the session was about (the full path stays in the row's title).
 */
export function summaryLabel(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1).replace(/\.md$/, '');
  const slug = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[A-Za-z0-9]{4}-(.+)$/.exec(name)?.[1];
  return slug ?? name;
}

/** How many containers start strictly before `line` and still cover it. */
function depthIn(containers: readonly Span[], line: number): number {
  let depth = 0;
  for (const container of containers) if (container.line < line && line <= container.endLine) depth += 1;
  return depth;
}

/** A reference as the parser hands it over: the text as written and the root-relative path core resolved (or null). */
interface Reference {
  file: string;
  path: string | null;
}

/** A reference that names no rollout summary stays in the outline, as a line to look at rather than a link. */
const UNRESOLVED = 'This reference names no file in rollout_summaries/, so it cannot be opened';

function pointerRow(
  key: string,
  depth: number,
  ref: Reference,
  line: number,
  extra: Partial<RowBase> & { threadId?: string | null },
): OutlineRow {
  const { threadId = null, ...rest } = extra;
  if (ref.path === null)
    return { type: 'jump', key, depth, label: summaryLabel(ref.file), line, endLine: line, ...rest, warning: UNRESOLVED };
  return { type: 'pointer', key, depth, label: summaryLabel(ref.path), file: ref.path, threadId, line, endLine: line, ...rest };
}

function summaryRows(outline: Outline<'memory_summary'>): OutlineRow[] {
  const headings = outline.sections.filter((section) => section.level <= 2);
  const dateGroups = outline.scopes.flatMap((scope) => scope.dateGroups);
  const containers: Span[] = [...headings, ...(outline.olderTopics ? [outline.olderTopics] : []), ...outline.scopes, ...dateGroups];
  const rows: OutlineRow[] = [];
  const jump = (key: string, label: string, span: Span, extra: Partial<RowBase> = {}) =>
    rows.push({ type: 'jump', key, depth: depthIn(containers, span.line), label, line: span.line, endLine: span.endLine, ...extra });

  headings.forEach((section, i) => jump(`h${i}`, section.title, section));
  if (outline.olderTopics) jump('older', 'Older Memory Topics', outline.olderTopics);
  outline.scopes.forEach((scope, i) => jump(`s${i}`, scope.name, scope, { badge: scope.older ? 'older' : 'scope' }));
  dateGroups.forEach((group, i) => jump(`d${i}`, group.date, group, group.valid ? {} : { warning: 'Not a YYYY-MM-DD date heading' }));
  outline.topics.forEach((topic, i) => {
    const depth = depthIn(containers, topic.line);
    rows.push({ type: 'jump', key: `t${i}`, depth, label: topic.topic, line: topic.line, endLine: topic.endLine, chips: topic.keywords });
    const seen = new Set<string>();
    topic.rolloutRefs.forEach((ref, j) => {
      if (seen.has(ref.file)) return;
      seen.add(ref.file);
      // Sort key: just after the topic's own line, so the reference stays under its topic.
      rows.push(pointerRow(`t${i}r${j}`, depth + 1, ref, Math.max(ref.line, topic.line), {}));
    });
  });
  outline.pointers.forEach((pointer, i) => {
    const branch = pointer.subBullets.find((sub) => sub.label === 'branch')?.value;
    rows.push(
      pointerRow(`p${i}`, depthIn(containers, pointer.line), pointer, pointer.line, {
        detail: pointer.sentence,
        threadId: pointer.threadId,
        endLine: pointer.endLine,
        ...(branch ? { chips: [branch] } : {}),
        ...(pointer.valid ? {} : { warning: 'This pointer line does not follow the template (see diagnostics)' }),
      }),
    );
  });
  // Every row starts after its container, so line order is the tree's pre-order; ties keep parents first.
  return rows.sort((a, b) => a.line - b.line || a.depth - b.depth);
}

function memoryRows(outline: Outline<'memory_md'>): OutlineRow[] {
  const rows: OutlineRow[] = [];
  outline.blocks.forEach((block, b) => {
    const cwd = block.appliesTo?.cwd;
    rows.push({
      type: 'jump',
      key: `b${b}`,
      depth: 0,
      label: block.title,
      line: block.line,
      endLine: block.endLine,
      chips: block.keywords,
      ...(block.scope ? { detail: block.scope } : {}),
      ...(cwd ? { badge: cwd.slice(cwd.lastIndexOf('/') + 1) || cwd } : {}),
    });
    block.tasks.forEach((task, t) => {
      const label = task.number === null ? task.title : `Task ${task.number}: ${task.title}`;
      rows.push({ type: 'jump', key: `b${b}t${t}`, depth: 1, label, line: task.line, endLine: task.endLine });
      task.rolloutSummaryFiles.forEach((ref, r) =>
        rows.push(pointerRow(`b${b}t${t}r${r}`, 2, ref, ref.line, { detail: ref.note, threadId: ref.fields.thread_id ?? null })),
      );
    });
  });
  return rows;
}

function rawRows(outline: Outline<'raw_memories'>): OutlineRow[] {
  const rows: OutlineRow[] = [];
  outline.threads.forEach((thread, i) => {
    const project = thread.cwd ? thread.cwd.slice(thread.cwd.lastIndexOf('/') + 1) : null;
    rows.push({
      type: 'jump',
      key: `r${i}`,
      depth: 0,
      label: thread.tasks[0]?.title ?? `Thread ${thread.threadId}`,
      line: thread.line,
      endLine: thread.endLine,
      detail: `thread ${thread.threadId}${thread.updatedAt ? ` · ${thread.updatedAt}` : ''}`,
      ...(project ? { badge: project } : {}),
    });
    if (thread.rolloutSummaryFile)
      rows.push(
        pointerRow(`r${i}s`, 1, { file: thread.rolloutSummaryFile, path: thread.rolloutSummaryPath }, thread.line, {
          threadId: thread.threadId,
        }),
      );
  });
  return rows;
}

function sectionRows(sections: ReadonlyArray<{ title: string; level: number; line: number; endLine: number }>): OutlineRow[] {
  const top = Math.min(...sections.map((section) => section.level));
  return sections.map((section, i) => ({
    type: 'jump',
    key: `h${i}`,
    depth: section.level - top,
    label: section.title,
    line: section.line,
    endLine: section.endLine,
  }));
}

/** The outline of a parsed file, or an empty list when the kind has nothing worth outlining. */
export function buildOutline(outline: ParsedOutline): OutlineRow[] {
  switch (outline.kind) {
    case 'memory_summary':
      return summaryRows(outline);
    case 'memory_md':
      return memoryRows(outline);
    case 'raw_memories':
      return rawRows(outline);
    case 'rollout_summary':
    case 'skill':
    case 'ad_hoc_note':
    case 'extension_instructions':
    case 'claude_memory_index':
    case 'unknown':
      return outline.sections.length > 0 ? sectionRows(outline.sections) : [];
    default:
      return [];
  }
}

/** What the outline panel is called for each kind. */
export function outlineTitle(kind: ParsedOutline['kind']): string {
  if (kind === 'memory_summary') return 'Summary outline';
  if (kind === 'memory_md') return 'Task groups';
  if (kind === 'raw_memories') return 'Threads';
  return 'Outline';
}

/**
 * The row of the section holding `line`: of the rows to jump to whose span covers it, the one starting last (the
 * innermost); past the end of every span (a blank line after a section), the row starting last before it. -1 when no
 * row starts at or before the line (the cursor above the first heading) or there is no cursor yet.
 */
export function rowAtLine(rows: readonly OutlineRow[], line: number | null): number {
  if (line === null) return -1;
  let covering = -1;
  let before = -1;
  rows.forEach((row, index) => {
    if (row.type !== 'jump' || row.line > line) return;
    if (before < 0 || row.line >= (rows[before] as OutlineRow).line) before = index;
    if (line <= row.endLine && (covering < 0 || row.line >= (rows[covering] as OutlineRow).line)) covering = index;
  });
  return covering >= 0 ? covering : before;
}
