// The block-first diff of two versions: blocks matched level by level, lines diffed only inside matched blocks.
import type { BlockStatus, BlockType } from '../../../../shared/review';
import { StudioFailure } from '../../platform/errors';
import { itemAt } from '../../platform/indexed';
import { type ChangeBlock, diffLineArrays } from '../lines';
import { anchorsOf, contentOf, matchBlocks, type Pairs } from './match';
import type { BlockNode } from './tree';

/** Units at or below this mark a blank-line change at the end of an otherwise unchanged block (`SEPARATOR - id`). */
const SEPARATOR = -1;

/** A change block and the outline entry it belongs to (hunks never mix two entries). */
export interface TaggedChange extends ChangeBlock {
  unit: number;
}

/** An outline entry with 0-based, end-exclusive ranges. */
export interface OutlineEntry {
  id: number;
  parent: number | null;
  depth: number;
  type: BlockType;
  key: string;
  title: string;
  renamedFrom: string | null;
  status: BlockStatus;
  edited: boolean;
  old: { start: number; end: number } | null;
  new: { start: number; end: number } | null;
}

export interface BlockDiff {
  changes: TaggedChange[];
  outline: OutlineEntry[];
}

interface Walk {
  a: readonly string[];
  b: readonly string[];
  changes: TaggedChange[];
  outline: OutlineEntry[];
  nextId: number;
}

const range = (n: BlockNode) => ({ start: n.start, end: n.end });

function sameLines(w: Walk, o: BlockNode, n: BlockNode): boolean {
  if (o.end - o.start !== n.end - n.start) return false;
  for (let k = 0; k < o.end - o.start; k++) if (w.a[o.start + k] !== w.b[n.start + k]) return false;
  return true;
}

/** Line diff of old [oFrom, oTo) against new [nFrom, nTo), tagged with `unit`. */
function diffLines(w: Walk, oFrom: number, oTo: number, nFrom: number, nTo: number, unit: number): void {
  if (oFrom === oTo && nFrom === nTo) return;
  for (const c of diffLineArrays(w.a.slice(oFrom, oTo), w.b.slice(nFrom, nTo))) {
    w.changes.push({ oldIdx: c.oldIdx + oFrom, oldLen: c.oldLen, newIdx: c.newIdx + nFrom, newLen: c.newLen, unit });
  }
}

function entry(
  w: Walk,
  node: BlockNode,
  fields: Partial<OutlineEntry> & Pick<OutlineEntry, 'status' | 'parent' | 'depth'>,
  id = w.nextId++,
): OutlineEntry {
  const e: OutlineEntry = {
    id,
    type: node.type,
    key: node.key,
    title: node.title,
    renamedFrom: null,
    edited: false,
    old: null,
    new: null,
    ...fields,
  };
  w.outline.push(e);
  return e;
}

/** A matched pair: its own lines diffed, then its children matched and diffed (a leaf is diffed whole). */
function diffPair(w: Walk, o: BlockNode, n: BlockNode, parent: number | null, depth: number): void {
  const same = sameLines(w, o, n);
  const renamedFrom = o.title !== n.title ? o.title : null;
  // Only the blank lines after it differ: the separator moved with a neighbour (see `adoptSeparators`).
  const separator = !same && contentOf(w.a, o) === contentOf(w.b, n);
  const e = entry(w, n, { status: same || separator ? 'unchanged' : 'changed', parent, depth, renamedFrom, old: range(o), new: range(n) });
  if (same) return;
  if (separator) return diffLines(w, o.start, o.end, n.start, n.end, SEPARATOR - e.id);
  if (o.children.length === 0 && n.children.length === 0) return diffLines(w, o.start, o.end, n.start, n.end, e.id);
  diffLines(w, o.start, o.headEnd, n.start, n.headEnd, e.id);
  diffChildren(w, { nodes: o.children, from: o.headEnd, to: o.end }, { nodes: n.children, from: n.headEnd, to: n.end }, e.id, depth + 1);
}

interface Level {
  nodes: readonly BlockNode[];
  /** The children's region: [from, to). */
  from: number;
  to: number;
}

interface Gap {
  oldNodes: number[];
  newNodes: number[];
  oldEnd: number;
  newStart: number;
}

/** Blocks between two kept pairs: removals first (old order), then additions and moved blocks' new places (new order). */
function emitGap(w: Walk, levels: [Level, Level], gap: Gap, moves: Map<string, number>, parent: number | null, depth: number): void {
  const [ol, nl] = levels;
  for (const i of gap.oldNodes) {
    const node = itemAt(ol.nodes, i);
    const unit = moves.get(`o${i}`) ?? entry(w, node, { status: 'removed', parent, depth, old: range(node) }).id;
    w.changes.push({ oldIdx: node.start, oldLen: node.end - node.start, newIdx: gap.newStart, newLen: 0, unit });
  }
  for (const j of gap.newNodes) {
    const node = itemAt(nl.nodes, j);
    const moved = moves.get(`n${j}`);
    const unit = moved ?? entry(w, node, { status: 'added', parent, depth, new: range(node) }).id;
    if (moved !== undefined) {
      const from = movedFrom(moves, j, ol);
      entry(
        w,
        node,
        {
          status: 'moved',
          parent,
          depth,
          old: range(from),
          new: range(node),
          edited: contentOf(w.a, from) !== contentOf(w.b, node),
          renamedFrom: from.title !== node.title ? from.title : null,
        },
        moved,
      );
    }
    w.changes.push({ oldIdx: gap.oldEnd, oldLen: 0, newIdx: node.start, newLen: node.end - node.start, unit });
  }
}

function movedFrom(moves: Map<string, number>, j: number, ol: Level): BlockNode {
  const from = moves.get(`from${j}`);
  if (from === undefined) throw new StudioFailure('Internal', `Moved block ${j} has no recorded old place.`);
  return itemAt(ol.nodes, from);
}

/** One level: match the children, keep the longest in-order run, diff kept pairs, and emit the gaps around them. */
function diffChildren(w: Walk, ol: Level, nl: Level, parent: number | null, depth: number): void {
  const pairs: Pairs = matchBlocks({ lines: w.a, nodes: ol.nodes }, { lines: w.b, nodes: nl.nodes });
  const anchors = anchorsOf(pairs);
  const moves = new Map<string, number>();
  pairs.forEach(([i, j], k) => {
    if (anchors.has(k)) return;
    const id = w.nextId++;
    moves.set(`o${i}`, id).set(`n${j}`, id).set(`from${j}`, i);
  });
  const oldPaired = new Set(pairs.map((p) => p[0]));
  const newPaired = new Set(pairs.map((p) => p[1]));
  let oi = 0;
  let ni = 0;
  const kept = pairs.filter((_, k) => anchors.has(k));
  for (const [i, j] of [...kept, [ol.nodes.length, nl.nodes.length] as [number, number]]) {
    const oldNodes = range2(oi, i).filter((x) => !oldPaired.has(x) || moves.has(`o${x}`));
    const newNodes = range2(ni, j).filter((x) => !newPaired.has(x) || moves.has(`n${x}`));
    // The last (i, j) is the end of both lists, past every node.
    const oldNode = i < ol.nodes.length ? itemAt(ol.nodes, i) : null;
    const oldEnd = oldNode ? oldNode.start : ol.to;
    const newStart = ni > 0 ? itemAt(nl.nodes, ni - 1).end : nl.from;
    emitGap(w, [ol, nl], { oldNodes, newNodes, oldEnd, newStart }, moves, parent, depth);
    if (oldNode) diffPair(w, oldNode, itemAt(nl.nodes, j), parent, depth);
    oi = i + 1;
    ni = j + 1;
  }
}

function range2(from: number, to: number): number[] {
  const out: number[] = [];
  for (let k = from; k < to; k++) out.push(k);
  return out;
}

/** A block removed in one place and added, byte for byte, under another parent is one move (a summary entry re-dated). */
function foldCrossParentMoves(w: Walk): void {
  const added = new Map<string, OutlineEntry[]>();
  for (const e of w.outline) {
    if (e.status !== 'added' || !e.new) continue;
    const k = `${e.key}\u0001${contentOf(w.b, e.new)}`;
    const list = added.get(k);
    if (list) list.push(e);
    else added.set(k, [e]);
  }
  const dropped = new Map<number, number>();
  for (const e of w.outline) {
    if (e.status !== 'removed' || !e.old) continue;
    const target = added.get(`${e.key}\u0001${contentOf(w.a, e.old)}`)?.shift();
    if (!target) continue;
    Object.assign(target, { status: 'moved', old: e.old });
    dropped.set(e.id, target.id);
  }
  if (dropped.size === 0) return;
  w.outline = w.outline.filter((e) => !dropped.has(e.id));
  for (const c of w.changes) c.unit = dropped.get(c.unit) ?? c.unit;
}

/**
 * A blank line that moved from one block's end to another's (a block moved to or from the end of its parent) belongs
 * to the neighbouring change it touches; with no such neighbour it stays its block's own change.
 */
function adoptSeparators(w: Walk): void {
  const touch = (x: TaggedChange, y: TaggedChange | undefined) =>
    y !== undefined && y.unit > SEPARATOR && (x.oldIdx + x.oldLen === y.oldIdx || y.oldIdx + y.oldLen === x.oldIdx);
  w.changes.forEach((c, k) => {
    if (c.unit > SEPARATOR) return;
    const adopted = [w.changes[k + 1], w.changes[k - 1]].find((n) => touch(c, n));
    if (adopted) c.unit = adopted.unit;
    else {
      c.unit = SEPARATOR - c.unit;
      const owner = w.outline.find((e) => e.id === c.unit);
      if (owner) owner.status = 'changed';
    }
  });
}

/** The block diff of two block trees over their line arrays. */
export function diffBlockTrees(a: readonly string[], b: readonly string[], oldRoot: BlockNode, newRoot: BlockNode): BlockDiff {
  const w: Walk = { a, b, changes: [], outline: [], nextId: 0 };
  diffChildren(w, { nodes: oldRoot.children, from: 0, to: a.length }, { nodes: newRoot.children, from: 0, to: b.length }, null, 0);
  adoptSeparators(w);
  foldCrossParentMoves(w);
  return { changes: w.changes, outline: w.outline };
}
