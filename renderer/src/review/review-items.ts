// What the review steps through: one item per hunk, except a moved block whose removal and insertion are one item.
import type { FileBlocks, Hunk, ReviewBlock } from '../../../shared/review';

export interface ReviewItem {
  /** The first hunk's id: stable while the file's hunks are. */
  key: string;
  hunks: Hunk[];
  /** The block the hunks belong to, when the file is cut into blocks. */
  block: ReviewBlock | null;
  /** "Task group › Task 2": the block and its parents' titles. */
  path: string[];
  moved: boolean;
}

export interface ReviewItems {
  items: ReviewItem[];
  /** Hunk id -> index in `items`. */
  indexOf: Map<string, number>;
  /** Block id -> the ids of the change hunks in it and in its children (what Accept on a block decides). */
  subtree: Map<string, string[]>;
  /** Hunks with a line core marked as holding a secret (added, removed or context): their block is marked. */
  secretIds: ReadonlySet<string>;
  /** Of those, the hunks that would write a marked line (an added one): a block's Accept leaves them to their own decision. */
  addsSecretIds: ReadonlySet<string>;
}

function pathOf(block: ReviewBlock, byId: Map<string, ReviewBlock>): string[] {
  const out: string[] = [];
  for (let b: ReviewBlock | undefined = block; b; b = b.parent ? byId.get(b.parent) : undefined) out.unshift(b.title);
  return out;
}

function subtreeHunks(blocks: readonly ReviewBlock[], isChange: (id: string) => boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // Children follow their parent in the outline: walking backwards, each block's list is complete before its parent's.
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i] as ReviewBlock;
    const own = block.hunkIds.filter(isChange);
    const mine = out.get(block.id);
    out.set(block.id, mine ? [...own, ...mine] : own);
    if (block.parent) out.set(block.parent, [...(out.get(block.parent) ?? []), ...(out.get(block.id) ?? [])]);
  }
  return out;
}

/** Items in file order; without blocks (not loaded yet, or a file of another kind) every hunk is its own item. */
export function reviewItems(hunks: readonly Hunk[], blocks: FileBlocks | undefined): ReviewItems {
  const byId = new Map((blocks?.blocks ?? []).map((b) => [b.id, b]));
  const ownerOf = new Map<string, ReviewBlock>();
  for (const b of blocks?.blocks ?? []) for (const id of b.hunkIds) ownerOf.set(id, b);
  const items: ReviewItem[] = [];
  const indexOf = new Map<string, number>();
  const moveItem = new Map<string, number>();
  for (const hunk of hunks) {
    const block = ownerOf.get(hunk.id) ?? null;
    const moved = block?.status === 'moved' && hunk.kind === 'text';
    const existing = moved && block ? moveItem.get(block.id) : undefined;
    if (existing !== undefined) {
      items[existing]?.hunks.push(hunk);
      indexOf.set(hunk.id, existing);
      continue;
    }
    if (moved && block) moveItem.set(block.id, items.length);
    indexOf.set(hunk.id, items.length);
    items.push({ key: hunk.id, hunks: [hunk], block, path: block ? pathOf(block, byId) : [], moved });
  }
  const kinds = new Map(hunks.map((h) => [h.id, h.kind]));
  const secretIds = new Set(hunks.filter((h) => (h.secrets ?? []).length > 0).map((h) => h.id));
  const addsSecretIds = new Set(hunks.filter((h) => (h.secrets ?? []).some((s) => h.lines[s.index]?.startsWith('+'))).map((h) => h.id));
  const subtree = subtreeHunks(blocks?.blocks ?? [], (id) => kinds.get(id) !== 'conflict');
  return { items, indexOf, subtree, secretIds, addsSecretIds };
}

/** The ids an Accept or Reject of the item decides (a conflict is never decided that way). */
export const changeIds = (item: ReviewItem | undefined): string[] =>
  item ? item.hunks.filter((h) => h.kind !== 'conflict').map((h) => h.id) : [];
