// Renders memory_summary.md (v1 topic index or v2 pointer lines) and compacts it step by step until it fits.
import type { MemoryVersion } from '../../../../../shared/domain';
import { SUMMARY_TOKEN_LIMIT, V2_SUMMARY_MAX_BYTES } from '../../../codex/constants';
import { StudioFailure } from '../../../platform/errors';
import { rustTrim } from '../../../codex/rust-str';
import { truncateMiddleWithTokenBudget } from '../../../budget/truncate';
import type { Entry } from './model';
import { clip, clipWords } from './parse';
import { olderLines, recentLines, type ScopeView } from './summary-scopes';

/** How much detail one rendering keeps; the ladder below goes from most to least. */
export interface Level {
  /** Recent memory days per scope, and topics (v1) or pointers (v2) per day. */
  days: number;
  perDay: number;
  /** Older topics per scope, and how their `desc` reads (v1). */
  older: number;
  olderDesc: 'full' | 'clip' | 'stats';
  /** v1 `learnings:` lines, v2 `branch:` sub-bullets. */
  detail: boolean;
  prefs: number;
  tips: number;
  notes: number;
  kept: number;
  importFiles: number;
}

type Desc = Level['olderDesc'];
const L = (
  days: number,
  perDay: number,
  older: number,
  olderDesc: Desc,
  detail: boolean,
  prefs: number,
  tips: number,
  notes: number,
  kept: number,
  importFiles: number,
): Level => ({
  days,
  perDay,
  older,
  olderDesc,
  detail,
  prefs,
  tips,
  notes,
  kept,
  importFiles,
});

/** The last rendering level: the least detail the summary can have. */
const MOST_COMPACT: Level = L(0, 0, 0, 'stats', false, 2, 1, 3, 4, 0);

/** Most detail first; never empty. */
export const LEVELS: readonly [Level, ...Level[]] = [
  L(3, 4, 8, 'full', true, 10, 6, 12, 12, 8),
  L(3, 3, 6, 'full', true, 8, 6, 12, 12, 4),
  L(3, 3, 6, 'clip', false, 8, 6, 12, 12, 4),
  L(3, 2, 5, 'clip', false, 8, 5, 10, 12, 2),
  L(2, 2, 5, 'clip', false, 8, 5, 10, 10, 2),
  L(2, 2, 4, 'stats', false, 6, 4, 8, 10, 1),
  L(2, 2, 3, 'stats', false, 6, 4, 8, 10, 1),
  L(2, 1, 4, 'stats', false, 6, 4, 8, 10, 1),
  L(2, 1, 3, 'stats', false, 6, 4, 8, 10, 1),
  L(1, 2, 4, 'stats', false, 6, 4, 8, 10, 1),
  L(1, 1, 3, 'stats', false, 6, 4, 8, 8, 1),
  L(1, 1, 2, 'stats', false, 4, 3, 6, 8, 1),
  L(1, 1, 1, 'stats', false, 4, 3, 6, 6, 1),
  L(0, 0, 1, 'stats', false, 3, 2, 4, 6, 1),
  MOST_COMPACT,
];

/** Everything a summary rendering chooses from, already ranked and de-duplicated. */
export interface SummarySource {
  version: MemoryVersion;
  profile: string;
  keptPreferences: string[];
  derivedPreferences: string[];
  noteFacts: string[];
  keptTips: string[];
  derivedTips: string[];
  scopes: ScopeView[];
  /** Older-topic groups that are not rollout scopes: imports and other extensions. */
  extras: Array<{ heading: string; files: readonly string[]; lines: (level: Level) => string[] }>;
}

function bullets(items: readonly string[]): string[] {
  return items.flatMap((i) => i.split('\n'));
}

function render(src: SummarySource, level: Level): string {
  const v1 = src.version === 'v1';
  const out: string[] = ['v1'];
  const section = (title: string, body: string[]): void => {
    if (v1) out.push('', title, '', ...body);
    else out.push(title, ...body);
  };
  const kept = (list: string[]) => list.slice(0, level.kept);
  section('## User Profile', [src.profile]);
  section('## User preferences', [
    ...bullets(kept(src.keptPreferences)),
    ...src.derivedPreferences.slice(0, level.prefs).map((p) => `- ${p}`),
    ...src.noteFacts.slice(0, level.notes).map((f) => `- ${f} [ad-hoc note]`),
  ]);
  section('## General Tips', [...bullets(kept(src.keptTips)), ...src.derivedTips.slice(0, level.tips).map((t) => `- ${t}`)]);
  const memory = src.scopes.flatMap((s) => recentLines(s, level, v1));
  const older = olderLines(src.scopes, level, v1);
  for (const extra of src.extras) {
    const lines = extra.lines(level);
    if (lines.length > 0) older.push(`#### ${extra.heading}`, ...(v1 ? [''] : []), ...lines, ...(v1 ? [''] : []));
  }
  section("## What's in Memory", [...memory, '### Older Memory Topics', ...(v1 ? [''] : []), ...older]);
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** Whether Codex injects `text` whole (token budget) and, for v2, whether its validator accepts the size. */
export function summaryFits(text: string, version: MemoryVersion): boolean {
  if (truncateMiddleWithTokenBudget(Buffer.from(rustTrim(text), 'utf8'), SUMMARY_TOKEN_LIMIT).truncated) return false;
  return version === 'v1' || Buffer.byteLength(text, 'utf8') < V2_SUMMARY_MAX_BYTES;
}

/** The first rendering (most detail first) that fits; as a last resort the kept profile is shortened further. */
export function renderFitting(src: SummarySource): { text: string; level: number; profileClipped: boolean } {
  for (const [i, level] of LEVELS.entries()) {
    const text = render(src, level);
    if (summaryFits(text, src.version)) return { text, level: i, profileClipped: false };
  }
  for (const words of [150, 50]) {
    const text = render({ ...src, profile: clip(clipWords(src.profile, words), words * 12) }, { ...MOST_COMPACT, kept: 2 });
    if (summaryFits(text, src.version)) return { text, level: LEVELS.length, profileClipped: true };
  }
  throw new StudioFailure(
    'Invalid',
    "The builtin consolidation cannot fit memory_summary.md into Codex's budget even at its most compact.",
    {
      path: 'memory_summary.md',
      hint: 'Shorten the User Profile and the hand-written preferences and tips in memory_summary.md, then run again.',
    },
  );
}

export type { Entry };
