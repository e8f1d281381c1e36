// `duplicate` findings: clusters of near-duplicate entries of one file and kind, with the lines they share.
import { itemAt } from '../platform/indexed';
import type { DuplicateMember, Finding, FixOption } from '../../../shared/doctor';
import type { EntryModel } from '../review/blocks/entries';
import { findingId, fixOption, kindWords, quote } from './finding-ids';
import { DUPLICATE_THRESHOLD, lineShingles, normalisedLine, shinglesOfNormalised, similarityGraph, starClusters } from './similarity';

/**
 * What a report shows of a cluster: the first members with their shared lines (a cluster of 400 raw memories stays
 * a readable report; the fix recomputes the whole cluster).
 */
const SHARED_LINES_SHOWN = 4;
const MEMBERS_SHOWN = 20;
const MEMBERS_WITH_LINES = 10;
const LINE_CHARS = 200;

export interface Judged {
  model: EntryModel;
  /** `normalisedLine` of each of the model's lines, computed once. */
  norm: string[];
}

/** A member line counts as shared when the kept entry has it, or most of its word shingles (a line reworded a little). */
const MOSTLY = 0.6;

function sharedLines(
  kept: KeptLines,
  member: Judged,
  withLines: boolean,
): Pick<DuplicateMember, 'sharedLines' | 'sharedCount' | 'lineCount'> {
  const own = member.model.lines.filter((_, i) => member.norm[i] !== '');
  const shared = member.model.lines.filter((_, i) => {
    const norm = itemAt(member.norm, i);
    if (norm === '') return false;
    if (kept.lines.has(norm)) return true;
    const hashes = lineShingles(norm, kept.cache);
    return hashes.filter((h) => kept.shingles.has(h)).length >= MOSTLY * hashes.length;
  });
  return {
    sharedLines: withLines
      ? shared
          .slice(0, SHARED_LINES_SHOWN)
          .map((l) => ({ line: l.line, text: l.text.length > LINE_CHARS ? `${l.text.slice(0, LINE_CHARS - 1)}…` : l.text }))
      : [],
    sharedCount: shared.length,
    lineCount: own.length,
  };
}

interface KeptLines {
  lines: Set<string>;
  shingles: Set<number>;
  cache: Map<string, number[]>;
}

function keptLines(kept: Judged, cache: Map<string, number[]>): KeptLines {
  const lines = new Set(kept.norm.filter((n) => n !== ''));
  return { lines, shingles: new Set([...lines].flatMap((l) => lineShingles(l, cache))), cache };
}

/** The finding id of a cluster: its file and every member, wherever they sit in it. */
export function clusterId(kept: EntryModel, members: readonly EntryModel[]): string {
  return findingId('duplicate', kept.entry.version, kept.entry.file, ...[kept, ...members].map((m) => m.entry.id).sort());
}

function fixesFor(id: string, kept: EntryModel, members: readonly EntryModel[]): FixOption[] {
  const others = members.length;
  if (kept.entry.kind === 'raw-memory') {
    return [
      fixOption(
        id,
        'forget',
        `raw_memories.md is rebuilt from Codex's DB at every consolidation, so editing it changes nothing: forget the ${others} repeated session${others === 1 ? '' : 's'} as Codex's own forget does (their extracted memory is deleted, memory is turned off for them) and keep ${quote(kept.entry.title, 60)}.`,
      ),
    ];
  }
  const pointers = new Set(members.flatMap((m) => m.entry.pointers).filter((p) => !kept.entry.pointers.includes(p))).size;
  const fixes = [
    fixOption(
      id,
      'merge',
      `Keep ${quote(kept.entry.title, 60)} (line ${kept.entry.line}), add the ${pointers} rollout pointer${pointers === 1 ? '' : 's'}, keywords and lines only the others have, and remove the other ${others}.`,
    ),
  ];
  if (kept.statements.length > 0) {
    fixes.push(
      fixOption(
        id,
        'promote',
        `A learning repeated ${others + 1} times is a rule: write it into the project's AGENTS.md and remove all ${others + 1} copies from memory, in one proposal.`,
        {
          needsProject: !kept.entry.cwd,
        },
      ),
    );
  }
  return fixes;
}

function finding(
  keptJudged: Judged,
  members: { judged: Judged; similarity: number }[],
  threshold: number,
  cache: Map<string, number[]>,
): Finding {
  const kept = keptJudged.model;
  const keptSide = keptLines(keptJudged, cache);
  const all = [kept, ...members.map((m) => m.judged.model)];
  const id = clusterId(
    kept,
    members.map((m) => m.judged.model),
  );
  const low = Math.min(...members.map((m) => m.similarity));
  const range =
    low >= 0.995
      ? 'identical after numbers and dates'
      : `similarity ${low.toFixed(2)}–${Math.max(...members.map((m) => m.similarity)).toFixed(2)} to the first`;
  return {
    id,
    kind: 'duplicate',
    version: kept.entry.version,
    file: kept.entry.file,
    severity: 'warning',
    title: `${kindWords(kept.entry.kind, all.length)} repeat ${quote(kept.entry.title, 70)}`,
    line: kept.entry.line,
    endLine: kept.entry.endLine,
    message: `${kept.entry.file} says the same thing ${all.length} times (${range}): lines ${all
      .map((m) => m.entry.line)
      .slice(0, 6)
      .join(', ')}${all.length > 6 ? ', …' : ''}. Codex reads every copy.`,
    entryIds: all.slice(0, MEMBERS_SHOWN + 1).map((m) => m.entry.id),
    evidence: {
      kind: 'duplicate',
      keptId: kept.entry.id,
      threshold,
      memberCount: members.length,
      members: members.slice(0, MEMBERS_SHOWN).map((m, i) => ({
        entryId: m.judged.model.entry.id,
        similarity: Math.round(m.similarity * 1000) / 1000,
        ...sharedLines(keptSide, m.judged, i < MEMBERS_WITH_LINES),
      })),
    },
    fixes: fixesFor(
      id,
      kept,
      members.map((m) => m.judged.model),
    ),
    // raw_memories.md is rebuilt from Codex's DB at every consolidation: a merged text there would not last.
    modelMergeable: kept.entry.file !== 'raw_memories.md',
  };
}

export interface DuplicateCluster {
  kept: Judged;
  members: { judged: Judged; similarity: number }[];
}

/** Clusters per (file, kind) in file order, each kept at its topmost entry (Codex writes the freshest first). */
export function duplicateClusters(entries: readonly EntryModel[], threshold = DUPLICATE_THRESHOLD): DuplicateCluster[] {
  const groups = new Map<string, EntryModel[]>();
  for (const model of entries) {
    const key = `${model.entry.version}\0${model.entry.file}\0${model.entry.kind}`;
    const group = groups.get(key);
    if (group) group.push(model);
    else groups.set(key, [model]);
  }
  const clusters: DuplicateCluster[] = [];
  const lines = new Map<string, string>();
  const normalised = (text: string) => {
    let n = lines.get(text);
    if (n === undefined) lines.set(text, (n = normalisedLine(text)));
    return n;
  };
  const cache = new Map<string, number[]>();
  for (const group of groups.values()) {
    const judged = group.map((model) => ({ model, norm: model.lines.map((l) => normalised(l.text)) }));
    const graph = similarityGraph(
      judged.map((j) => shinglesOfNormalised(j.norm, cache)),
      threshold,
    );
    for (const cluster of starClusters(graph)) {
      clusters.push({
        kept: itemAt(judged, cluster.keep),
        members: cluster.members.map((m) => ({ judged: itemAt(judged, m.index), similarity: m.similarity })),
      });
    }
  }
  return clusters;
}

export function duplicateFindings(entries: readonly EntryModel[], threshold = DUPLICATE_THRESHOLD): Finding[] {
  const cache = new Map<string, number[]>();
  return duplicateClusters(entries, threshold).map((c) => finding(c.kept, c.members, threshold, cache));
}

/** A cluster by its entries' places in the list it was found in: what the index keeps of a run. */
export interface ClusterPlaces {
  keep: number;
  members: { index: number; similarity: number }[];
}

export function clusterPlaces(entries: readonly EntryModel[], clusters: readonly DuplicateCluster[]): ClusterPlaces[] {
  const place = new Map(entries.map((m, i) => [m, i]));
  const at = (model: EntryModel) => place.get(model) as number;
  return clusters.map((c) => ({
    keep: at(c.kept.model),
    members: c.members.map((m) => ({ index: at(m.judged.model), similarity: m.similarity })),
  }));
}

/** The findings of clusters kept by place: the same as `duplicateFindings` on the entries they were found in. */
export function findingsOfPlaces(
  entries: readonly EntryModel[],
  places: readonly ClusterPlaces[],
  threshold = DUPLICATE_THRESHOLD,
): Finding[] {
  // A cluster of 400 raw memories shows its first members' lines only: the others' are normalised if ever read.
  const judged = (index: number): Judged => {
    const model = itemAt(entries, index);
    let norm: string[] | undefined;
    return {
      model,
      get norm() {
        return (norm ??= model.lines.map((l) => normalisedLine(l.text)));
      },
    };
  };
  const cache = new Map<string, number[]>();
  return places.map((p) =>
    finding(
      judged(p.keep),
      p.members.map((m) => ({ judged: judged(m.index), similarity: m.similarity })),
      threshold,
      cache,
    ),
  );
}
