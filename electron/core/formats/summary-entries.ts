// Entries of memory_summary.md's "What's in Memory": v2 pointer lines, v1 topic bullets, scopes and date groups.
import { group, itemAt } from '../platform/indexed';
import { appendAll } from '../platform/append';
import type { SubBullet, SummaryDateGroup, SummaryPointer, SummaryScope, SummaryTopic } from '../../../shared/formats';
import { referencedPath } from '../codex/references';
import type { ParseContext } from './context';
import { bulletOf, headingOf, isBlank } from './markdown';

export const OLDER_TOPICS = 'Older Memory Topics';
const EM_DASH_SEPARATOR = ' — ';
const THREAD_MARK = '; thread_id=';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ROLLOUT_REF = /rollout_summaries\/[^\s()`'",;[\]<>]+?\.md/g;

/** A real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function splitPointer(body: string): { file: string; sentence: string; threadId: string | null; problems: string[] } {
  const problems: string[] = [];
  let sep = body.indexOf(EM_DASH_SEPARATOR);
  let sepLen = EM_DASH_SEPARATOR.length;
  if (sep < 0) {
    const alt = /\s+(?:--|–|-|—|:)\s+/.exec(body);
    sep = alt ? alt.index : -1;
    sepLen = alt ? alt[0].length : 0;
    problems.push('the file and the sentence must be separated by " — " (an em dash with a space on each side)');
  }
  const space = body.search(/\s/);
  const file = sep >= 0 ? body.slice(0, sep).trim() : space >= 0 ? body.slice(0, space) : body;
  if (!/^rollout_summaries\/[^/\s]+\.md$/.test(file))
    problems.push('the pointer must name one file as rollout_summaries/<exact file name>.md');
  const tidAt = body.lastIndexOf(THREAD_MARK);
  let threadId: string | null = null;
  let sentenceEnd = body.length;
  if (tidAt < 0 || tidAt < sep) {
    problems.push('the line must end with "; thread_id=<full thread id>"');
  } else {
    threadId = body.slice(tidAt + THREAD_MARK.length).trim();
    sentenceEnd = tidAt;
    if (!UUID.test(threadId)) problems.push(`"${threadId}" is not a full thread id (a UUID)`);
  }
  const sentenceStart = sep >= 0 ? sep + sepLen : file.length;
  const sentence = body.slice(sentenceStart, Math.max(sentenceStart, sentenceEnd)).trim();
  if (sentence === '') problems.push('the one-sentence description is missing');
  return { file, sentence, threadId, problems };
}

function subBulletOf(text: string, line: number): SubBullet {
  const m = /^([^:]{1,80}?):\s*(.*)$/.exec(text);
  return m
    ? { label: group(m, 1).trim(), value: group(m, 2).trim(), line, endLine: line }
    : { label: '', value: text.trim(), line, endLine: line };
}

function rolloutRefs(text: string, line: number): SummaryTopic['rolloutRefs'] {
  return Array.from(text.matchAll(ROLLOUT_REF), (m) => ({ file: m[0], path: referencedPath(m[0]), line }));
}

type Entry = { type: 'pointer'; value: SummaryPointer } | { type: 'topic'; value: SummaryTopic };

function entryOf(ctx: ParseContext, text: string, line: number): Entry {
  const body = text.trimEnd();
  if (/^`?rollout_summaries\//.test(body)) {
    const p = splitPointer(body.replace(/^`([^`]*)`/, '$1'));
    if (body.startsWith('`')) p.problems.unshift('the file name must not be wrapped in backticks');
    if (p.problems.length > 0) {
      ctx.diags.warning(
        'template/pointer-format',
        line,
        line,
        `Malformed pointer line: ${p.problems.join('; ')}. Expected "- rollout_summaries/<file>.md — <one sentence>; thread_id=<id>".`,
      );
    }
    return {
      type: 'pointer',
      value: {
        file: p.file,
        path: referencedPath(p.file),
        sentence: p.sentence,
        threadId: p.threadId,
        valid: p.problems.length === 0,
        line,
        endLine: line,
        subBullets: [],
      },
    };
  }
  const colon = /:(?:\s|$)/.exec(body);
  const topic = colon ? body.slice(0, colon.index).trim() : body.trim();
  const rest = colon ? body.slice(colon.index + 1) : '';
  const keywords = rest
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  return {
    type: 'topic',
    value: { topic, keywords, desc: null, learnings: null, line, endLine: line, subBullets: [], rolloutRefs: rolloutRefs(body, line) },
  };
}

interface EntryState {
  scopes: SummaryScope[];
  pointers: SummaryPointer[];
  topics: SummaryTopic[];
  olderTopics: { line: number; endLine: number } | null;
  older: boolean;
  scope: SummaryScope | null;
  group: SummaryDateGroup | null;
  entry: Entry | null;
}

function onHeading(ctx: ParseContext, st: EntryState, level: number, title: string, line: number): void {
  st.entry = null;
  if (level === 3) {
    st.group = null;
    st.scope = null;
    st.older = title.trim() === OLDER_TOPICS;
    if (st.older) st.olderTopics = { line, endLine: line };
    else st.scopes.push((st.scope = { name: title.trim(), older: false, line, endLine: line, dateGroups: [], topics: [], pointers: [] }));
    return;
  }
  if (level !== 4) return;
  if (st.older) {
    st.group = null;
    st.scopes.push((st.scope = { name: title.trim(), older: true, line, endLine: line, dateGroups: [], topics: [], pointers: [] }));
    return;
  }
  const date = title.trim();
  const valid = isIsoDate(date);
  if (!valid)
    ctx.diags.warning(
      'template/date-heading',
      line,
      line,
      `"#### ${date}" is not a date: recent memory groups are "#### YYYY-MM-DD" under a "### <scope>" heading.`,
    );
  st.group = { date, valid, line, endLine: line, topics: [], pointers: [] };
  if (st.scope) st.scope.dateGroups.push(st.group);
  else ctx.diags.warning('template/date-heading', line, line, `"#### ${date}" has no "### <scope>" heading above it.`);
}

function touch(st: EntryState, line: number): void {
  if (st.scope) st.scope.endLine = line;
  if (st.group) st.group.endLine = line;
  if (st.olderTopics && st.older) st.olderTopics.endLine = line;
  if (st.entry) st.entry.value.endLine = line;
}

function addEntry(st: EntryState, entry: Entry): void {
  st.entry = entry;
  const holder = st.group ?? st.scope;
  if (entry.type === 'pointer') {
    st.pointers.push(entry.value);
    holder?.pointers.push(entry.value);
  } else {
    st.topics.push(entry.value);
    holder?.topics.push(entry.value);
  }
}

function addSubBullet(entry: Entry, text: string, line: number): void {
  const sub = subBulletOf(text, line);
  entry.value.subBullets.push(sub);
  if (entry.type === 'topic') {
    const label = sub.label.toLowerCase();
    if (label === 'desc' && entry.value.desc === null) entry.value.desc = sub.value;
    if (label === 'learnings' && entry.value.learnings === null) entry.value.learnings = sub.value;
    appendAll(entry.value.rolloutRefs, rolloutRefs(text, line));
  }
}

/** Parses lines `from..to` (1-based, inclusive) of the "What's in Memory" section. */
export function parseEntries(
  ctx: ParseContext,
  mask: Uint8Array,
  from: number,
  to: number,
): Omit<EntryState, 'older' | 'scope' | 'group' | 'entry'> {
  const st: EntryState = { scopes: [], pointers: [], topics: [], olderTopics: null, older: false, scope: null, group: null, entry: null };
  for (let line = from; line <= to; line++) {
    if (mask[line - 1]) continue;
    const text = itemAt(ctx.lines, line - 1);
    if (isBlank(text)) continue;
    const h = headingOf(text);
    if (h) {
      onHeading(ctx, st, h.level, h.title, line);
      touch(st, line);
      continue;
    }
    const b = bulletOf(text);
    if (b && b.indent < 2) addEntry(st, entryOf(ctx, b.text, line));
    else if (b && st.entry) addSubBullet(st.entry, b.text, line);
    else if (!/^\s/.test(text)) st.entry = null;
    touch(st, line);
  }
  return { scopes: st.scopes, pointers: st.pointers, topics: st.topics, olderTopics: st.olderTopics };
}
