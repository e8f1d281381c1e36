// AGENTS.md / CLAUDE.md overlap: memory statements that restate a project rule, or speak about the same thing.
import { group, itemAt } from '../platform/indexed';
import type { Finding, OverlapMatch } from '../../../shared/doctor';
import type { EntryModel, NumberedLine } from '../review/blocks/entries';
import { findingId, fixOption, quote } from './finding-ids';
import type { RuleFileModel } from './rule-files';

/**
 * Words that carry no subject: articles, modal and linking words, and the consolidation's own phrasing
 * ("the user insisted …"). "never" and "always" are here too: a rule and a memory that only share a modality are
 * about nothing in common.
 */
const STOP = new Set(
  `a an the and or but if then else when while for to of in on at by with without from into onto is are was were be
  been being it its this that these those as so not no nor do does did done can could should would will must may
  might have has had we you your i me my they them their he she his her our us user users said say says asked ask
  want wants wanted prefer prefers preferred insisted insist always never use used uses using run runs make sure
  before after instead only all any each every one also than there here what which who how why about over under up
  down out via per eg ie etc task just like keep keeps need needs get set`.split(/\s+/),
);

/** Two statements must share at least this many subject words to be compared at all. */
const MIN_SHARED = 2;
/**
 * `restates`: the subject words of the two are mostly the same (Jaccard ≥ 0.5 with three or more in common, or the
 * rule's words nearly all in the memory). "never use float for money" restates "Use Decimal for every amount of
 * money; never float" (0.5); a tip about rounding does not restate a rule about floats (nothing in common).
 */
const RESTATES_JACCARD = 0.5;
const RESTATES_CONTAINMENT = 0.75;
/**
 * `same-subject`: the words they share are rare ones (weighted by inverse frequency over every statement and rule
 * compared) and at least one of them is a name from code (a command, file, flag, identifier or version):
 * "install dependencies with `npm ci`" and "Use pnpm, never npm or yarn" share `npm` and "install" (0.5 of the
 * memory's weight). A shared tool alone ("pytest") is one word and never enough.
 */
const SAME_SUBJECT_WEIGHT = 0.3;
const MAX_MATCHES = 5;

interface Terms {
  all: Set<string>;
  code: Set<string>;
}

function stem(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  return word;
}

/** A word that names something in code: it has digits, dots, slashes, underscores or inner capitals, or was in backticks. */
const codeLike = (raw: string) => /[\d._/]/.test(raw) || /[a-z][A-Z]/.test(raw) || /^[A-Z0-9_]{3,}$/.test(raw);

export function termsOf(text: string): Terms {
  const all = new Set<string>();
  const code = new Set<string>();
  const spans = new Set<string>();
  for (const m of text.matchAll(/`([^`]+)`/g)) for (const w of group(m, 1).split(/[\s=,;:()"'[\]{}<>|]+/)) spans.add(w.toLowerCase());
  for (const raw of text.replace(/\[task \d+\]|\[ad-hoc note\]/gi, ' ').split(/[\s=,;:()"'!?[\]{}<>|`→]+|->/)) {
    const word = raw.replace(/^[.\-*_~#]+(?=[A-Za-z0-9])|[.\-*_~]+$/g, '');
    if (word.length < 2) continue;
    const lower = word.toLowerCase();
    if (STOP.has(lower)) continue;
    const term = stem(lower);
    if (STOP.has(term)) continue;
    all.add(term);
    if (codeLike(word) || spans.has(lower) || spans.has(raw.toLowerCase())) code.add(term);
  }
  return { all, code };
}

export interface StatementMatch extends OverlapMatch {
  entry: EntryModel;
  ruleFile: RuleFileModel;
}

interface Side {
  line: NumberedLine;
  terms: Terms;
}

function idfOf(sides: readonly Side[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const side of sides) for (const t of side.terms.all) df.set(t, (df.get(t) ?? 0) + 1);
  const n = sides.length;
  return (term) => Math.log((n + 1) / ((df.get(term) ?? 0) + 1)) + 1;
}

function compare(
  memory: Side,
  rule: Side,
  idf: (t: string) => number,
): Omit<OverlapMatch, 'memoryLine' | 'memoryText' | 'ruleLine' | 'ruleText'> | null {
  const shared = [...memory.terms.all].filter((t) => rule.terms.all.has(t));
  if (shared.length < MIN_SHARED) return null;
  const union = new Set([...memory.terms.all, ...rule.terms.all]).size;
  const jaccard = shared.length / union;
  const contained = shared.length / rule.terms.all.size;
  if (shared.length >= 3 && (jaccard >= RESTATES_JACCARD || contained >= RESTATES_CONTAINMENT)) {
    return { relation: 'restates', score: Math.round(Math.max(jaccard, contained) * 100) / 100, terms: shared };
  }
  const weigh = (terms: Iterable<string>) => [...terms].reduce((sum, t) => sum + idf(t), 0);
  const weight = weigh(shared) / Math.min(weigh(memory.terms.all), weigh(rule.terms.all));
  const named = shared.some((t) => memory.terms.code.has(t) || rule.terms.code.has(t));
  if (named && weight >= SAME_SUBJECT_WEIGHT) return { relation: 'same-subject', score: Math.round(weight * 100) / 100, terms: shared };
  return null;
}

/**
 * Every (entry, rule file) pair with at least one statement that restates or speaks about one of the file's rules,
 * with its best matches (restatements first). `applies(entry, file)` says which rule files an entry is held to.
 */
export function findOverlaps(
  entries: readonly EntryModel[],
  ruleFiles: readonly RuleFileModel[],
  applies: (entry: EntryModel, file: RuleFileModel) => boolean,
): StatementMatch[][] {
  const rules = ruleFiles.flatMap((file) => file.rules.map((line) => ({ file, side: { line, terms: termsOf(line.text) } })));
  if (rules.length === 0) return [];
  const statements = entries.flatMap((entry) => entry.statements.map((line) => ({ entry, side: { line, terms: termsOf(line.text) } })));
  const idf = idfOf([...statements.map((s) => s.side), ...rules.map((r) => r.side)]);
  const index = new Map<string, number[]>();
  rules.forEach((r, i) => {
    for (const t of r.side.terms.all) {
      const list = index.get(t);
      if (list) list.push(i);
      else index.set(t, [i]);
    }
  });
  const groups = new Map<string, StatementMatch[]>();
  for (const { entry, side } of statements) {
    const candidates = new Set<number>();
    for (const t of side.terms.all) for (const i of index.get(t) ?? []) candidates.add(i);
    for (const i of candidates) {
      const rule = itemAt(rules, i);
      if (!applies(entry, rule.file)) continue;
      const found = compare(side, rule.side, idf);
      if (!found) continue;
      const key = `${entry.entry.id}\0${rule.file.path}`;
      const match: StatementMatch = {
        ...found,
        entry,
        ruleFile: rule.file,
        memoryLine: side.line.line,
        memoryText: side.line.text.trim(),
        ruleLine: rule.side.line.line,
        ruleText: rule.side.line.text,
      };
      const group = groups.get(key);
      if (group) group.push(match);
      else groups.set(key, [match]);
    }
  }
  const rank = (m: StatementMatch) => (m.relation === 'restates' ? 1 : 0) + m.score;
  return [...groups.values()].map((matches) =>
    matches.sort((a, b) => rank(b) - rank(a) || a.memoryLine - b.memoryLine).slice(0, MAX_MATCHES),
  );
}

/** One finding per (entry, rule file): the memory lines beside the rules they restate or speak about. */
export function overlapFinding(matches: readonly StatementMatch[]): Finding {
  const first = itemAt(matches, 0);
  const { entry } = first.entry;
  const file = first.ruleFile;
  const id = findingId('agents-overlap', entry.id, file.path, ...matches.map((m) => m.ruleText).sort());
  const restates = matches.some((m) => m.relation === 'restates');
  const lines = [...new Set(matches.map((m) => m.memoryLine))];
  const wholeEntry = lines.includes(entry.line);
  const what = wholeEntry
    ? `the whole ${entry.kind === 'summary-bullet' ? 'bullet' : 'entry'} ${quote(entry.title, 60)}`
    : `the ${lines.length} line${lines.length === 1 ? '' : 's'} of ${quote(entry.title, 50)} that ${restates ? 'repeat' : 'speak about'} the rule`;
  return {
    id,
    kind: 'agents-overlap',
    version: entry.version,
    file: entry.file,
    severity: restates ? 'info' : 'warning',
    title: `${entry.file} line ${first.memoryLine} ${restates ? 'restates' : 'speaks about the same thing as'} ${file.name} line ${first.ruleLine}`,
    line: entry.line,
    endLine: entry.endLine,
    message:
      `${quote(first.memoryText, 90)} ${first.relation === 'restates' ? 'restates' : 'is about the same thing as'} ${quote(first.ruleText, 90)} (${file.path}:${first.ruleLine}; shared: ${first.terms.join(', ')}). ` +
      (restates
        ? 'The rule already says it; the memory copy only costs budget and can go stale.'
        : 'Codex reads both, and a stale memory can override the rule (openai/codex#39223): check they agree.'),
    entryIds: [entry.id],
    evidence: { kind: 'agents-overlap', ruleFile: file.path, matches: matches.map(({ entry: _e, ruleFile: _f, ...m }) => m) },
    fixes: [
      fixOption(id, 'retire', `Remove ${what} from ${entry.file} (the rule in ${file.name} stays as it is).`, {
        label: wholeEntry ? 'Retire the entry' : 'Retire these lines',
      }),
    ],
  };
}
