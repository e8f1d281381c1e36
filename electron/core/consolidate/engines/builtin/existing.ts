// What the builtin engine keeps from the existing files: the user-authored summary parts and MEMORY.md block headers.
import { group } from '../../../platform/indexed';
import { normKey } from './model';

/** The profile the engine writes when there is none; recognised (by this prefix) and rebuilt, never kept. */
export const DEFAULT_PROFILE_PREFIX = 'No user profile yet (written by the builtin consolidation).';
const AD_HOC_TAG = /\[ad-hoc note\]/i;

/** User-authored parts of an existing summary: items are the raw lines of one bullet (with its sub-lines). */
export interface ExistingSummary {
  profile: string | null;
  preferences: string[];
  tips: string[];
  /** Titles of other `## ` sections, which a rebuild does not carry over. */
  dropped: string[];
}

const SECTIONS = new Set(['User Profile', 'User preferences', 'General Tips', "What's in Memory"]);

function sectionLines(lines: readonly string[], title: string): string[] | null {
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start < 0) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^##\s/.test(l.trim()));
  return end < 0 ? rest : rest.slice(0, end);
}

/** Bullets (with indented continuation lines) and loose paragraph lines of a section, in order. */
function items(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    const last = out.at(-1);
    if (/^\s/.test(line) && last !== undefined && last.startsWith('- ')) out[out.length - 1] = `${last}\n${line.trimEnd()}`;
    else out.push(line.trimEnd().replace(/^\*\s/, '- '));
  }
  return out;
}

/** The text an item's dedupe key is computed from: its first line without the bullet marker. */
export function itemText(item: string): string {
  const newline = item.indexOf('\n');
  return (newline < 0 ? item : item.slice(0, newline)).replace(/^-\s+/, '');
}

/**
 * The parts of `summary` to keep: the profile verbatim (unless it is the engine's default), and the preference
 * and tip items that are neither derived from the inputs (`derived` keys) nor tagged `[ad-hoc note]`.
 */
export function existingSummary(summary: string | null, derived: ReadonlySet<string>): ExistingSummary {
  const lines = summary === null ? [] : summary.split('\n');
  if (lines[0] !== 'v1') return { profile: null, preferences: [], tips: [], dropped: [] };
  const profileLines = sectionLines(lines, 'User Profile') ?? [];
  const profile = profileLines.join('\n').trim();
  const keep = (item: string): boolean => !AD_HOC_TAG.test(item) && !derived.has(normKey(itemText(item)));
  const unique = (list: string[]): string[] => {
    const seen = new Set<string>();
    return list.filter((i) => (seen.has(normKey(itemText(i))) ? false : (seen.add(normKey(itemText(i))), true)));
  };
  return {
    profile: profile === '' || profile.startsWith(DEFAULT_PROFILE_PREFIX) ? null : profile,
    preferences: unique(items(sectionLines(lines, 'User preferences') ?? []).filter(keep)),
    tips: unique(items(sectionLines(lines, 'General Tips') ?? []).filter(keep)),
    dropped: lines.flatMap((l) => /^##\s+(.*\S)\s*$/.exec(l.trim())?.slice(1, 2) ?? []).filter((t) => !SECTIONS.has(t)),
  };
}

/** A block of an existing MEMORY.md: what the engine carries over into the rebuilt block of the same title. */
export interface ExistingBlock {
  title: string;
  scope: string | null;
  reuseRule: string | null;
  skills: string[];
  /** The whole block text, for blocks that reference no rollout summary or extension file (kept verbatim). */
  text: string;
  generated: boolean;
}

/** `lines` starts with the block's `# Task Group:` heading. */
function blockOf(lines: readonly [string, ...string[]]): ExistingBlock {
  const title = lines[0].replace(/^#\s+Task Group:\s*/, '').trim();
  const scope = lines.find((l) => /^scope:/.test(l.trim()));
  const applies = lines.find((l) => /^applies_to:/.test(l.trim()));
  const reuse = applies ? /reuse_rule=(.*)$/.exec(applies) : null;
  const skills = lines.flatMap((l) => /^-\s+Related skill:\s*(skills\/[^\s/]+\/SKILL\.md)\s*$/.exec(l.trim())?.slice(1, 2) ?? []);
  const text = lines.join('\n').trim();
  return {
    title,
    scope: scope ? scope.trim().replace(/^scope:\s*/, '') || null : null,
    reuseRule: reuse ? group(reuse, 1).trim() || null : null,
    skills,
    text,
    generated: /rollout_summaries\/|extensions\//.test(text),
  };
}

/** The `# Task Group:` blocks of an existing MEMORY.md (text before the first block is dropped). */
export function existingBlocks(memoryMd: string | null): ExistingBlock[] {
  if (memoryMd === null) return [];
  const lines = memoryMd.split('\n');
  const out: ExistingBlock[] = [];
  let current: [string, ...string[]] | null = null;
  for (const line of lines) {
    if (/^#\s+Task Group:/.test(line)) {
      if (current) out.push(blockOf(current));
      current = [line];
    } else if (current) current.push(line);
  }
  if (current) out.push(blockOf(current));
  return out;
}
