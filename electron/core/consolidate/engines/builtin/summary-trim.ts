// Makes a merged memory_summary.md fit Codex's budget by dropping whole entries, oldest first, never rewording one.
import { itemAt } from '../../../platform/indexed';
import type { MemoryVersion } from '../../../../../shared/domain';
import { approxBytesForTokens } from '../../../budget/truncate';
import { SUMMARY_TOKEN_LIMIT, V2_SUMMARY_MAX_BYTES } from '../../../codex/constants';
import { summaryFits } from './summary';
import { ownLine, removeEntries, serializeSummaryDoc, wimPlaces, type Item } from './summary-doc';
import { timeOf, type PlaceCtx } from './summary-place';

/**
 * The order entries go in when the summary is over budget. The rebuild's rule (its compaction ladder) shows fewer
 * older topics first, then fewer recent days, and keeps imports and extensions to the very end; here the same
 * priorities drop whole entries instead of rewording every entry into a shorter form, so each step is a removal the
 * review shows as one hunk and everything that stays is byte for byte as it was: dated older topics (oldest first),
 * then recent entries (oldest day first, the last entry of a day before the first), then older entries with no date
 * (imports, extensions, hand-written topics). Staging holds no usage counts, so age is the measure of least use.
 */
function trimOrder(ctx: PlaceCtx): Item[] {
  const ranked = wimPlaces(ctx.doc)
    .filter((p) => p.item.kind === 'entry')
    .map((p) => {
      const item = p.item;
      const own = timeOf(ctx, item.lines);
      const day = p.group === null ? -Infinity : timeOf(ctx, [ownLine(itemAt(ctx.doc.items, p.group))]);
      const tier = p.older ? (own === -Infinity ? 2 : 0) : 1;
      return { item, tier, time: p.older ? own : Math.max(day, p.group === null ? own : -Infinity), index: p.index };
    });
  ranked.sort((a, b) => a.tier - b.tier || a.time - b.time || b.index - a.index);
  return ranked.map((r) => r.item);
}

/**
 * Drops entries in `trimOrder` until the text fits; null when even an index with no entry left does not fit (the
 * caller then falls back to the rebuild, which also shortens preferences, tips and the profile).
 */
export function fitBudget(ctx: PlaceCtx, version: MemoryVersion): { text: string; trimmed: number } | null {
  let text = serializeSummaryDoc(ctx.doc);
  if (summaryFits(text, version)) return { text, trimmed: 0 };
  const order = trimOrder(ctx);
  let trimmed = 0;
  // Drop in batches sized by the overflow (about four bytes a token), then check: one check per entry would
  // re-serialize the file hundreds of times on a big summary.
  while (trimmed < order.length) {
    const over = Buffer.byteLength(text, 'utf8') - budgetBytes(version);
    const batch = new Set<Item>();
    let freed = 0;
    while (trimmed < order.length && (batch.size === 0 || freed < over)) {
      const item = itemAt(order, trimmed);
      trimmed++;
      batch.add(item);
      freed += Buffer.byteLength(item.lines.join('\n'), 'utf8') + 1;
    }
    removeEntries(ctx.doc, batch);
    text = serializeSummaryDoc(ctx.doc);
    if (summaryFits(text, version)) return { text, trimmed };
  }
  return null;
}

/** The bytes Codex injects whole (its token budget at four bytes a token) and, for v2, its validator's size limit. */
function budgetBytes(version: MemoryVersion): number {
  const tokens = approxBytesForTokens(SUMMARY_TOKEN_LIMIT);
  return version === 'v1' ? tokens : Math.min(tokens, V2_SUMMARY_MAX_BYTES - 1);
}
