// Picks a file's parse kind from its path: Codex's layout via classifyPath, plus Claude Code memory folders.
import { group } from '../platform/indexed';
import type { FileKind } from '../../../shared/domain';
import type { ParsedKind } from '../../../shared/formats';
import { classifyPath } from '../codex/workspace';
import type { PathFacts } from './context';

/** Codex file kinds (shared/domain.ts) → parse kinds; skill resources and plain extension resources have no parser. */
export const KIND_BY_FILE_KIND: Record<FileKind, ParsedKind> = {
  summary: 'memory_summary',
  memory: 'memory_md',
  'raw-memories': 'raw_memories',
  'rollout-summary': 'rollout_summary',
  skill: 'skill',
  'skill-file': 'unknown',
  'ad-hoc-note': 'ad_hoc_note',
  'extension-instructions': 'extension_instructions',
  'extension-resource': 'unknown',
  'extension-manifest': 'extension_manifest',
  'extension-scope': 'extension_scope',
  'workspace-diff': 'workspace_diff',
  unknown: 'unknown',
};

const ROOT_NAMES: Record<string, 'v1' | 'v2'> = { memories: 'v1', memories_v2: 'v2' };
/** `<claude or cursor home>/projects/<dir>/memory/<file>.md`, and imported copies under external_agent_import. */
const CLAUDE_MEMORY = /(?:^|\/)projects\/[^/]+\/memory\/(?:.+\/)?([^/]+\.md)$/i;
const IMPORTED_MEMORY = /^extensions\/external_agent_import\/resources\/([^/]+)\/(?:.+\/)?([^/]+\.md)$/;
/**
 * Imported Cursor rules (`cursor-rules-<repo>`, `cursor-user-rules`: import/cursor.ts's keys) are plain Markdown, not
 * Claude Code memory files: read as such they raised front-matter warnings that do not apply.
 */
const CURSOR_RULES_KEY = /^cursor-(?:rules-|user-rules$)/;
/**
 * Another machine's Codex memory that arrived through sync (`resources/sync-<kind>-<name>/<root-relative path>`): read
 * as the Codex file it is on that machine (a MEMORY.md, a rollout summary, a skill), never as Claude Code memory.
 */
const SYNC_ARRIVAL = /^extensions\/external_agent_import\/resources\/sync-[^/]+\/(.+)$/;

function claudeKind(name: string): ParsedKind {
  return name === 'MEMORY.md' ? 'claude_memory_index' : 'claude_memory_topic';
}

/** The memory-root-relative path: the path itself, or what follows a `memories/` / `memories_v2/` segment. */
function locateInRoot(parts: string[]): { rel: string | null; version: 'v1' | 'v2' | null } {
  let first: { rel: string; version: 'v1' | 'v2' } | null = null;
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1) break;
    const version = ROOT_NAMES[part];
    if (!version) continue;
    const rel = parts.slice(i + 1).join('/');
    if (classifyPath(rel) !== 'unknown') return { rel, version };
    first ??= { rel, version };
  }
  if (first) return first;
  const joined = parts.join('/');
  const absolute = joined.startsWith('/') || /^[A-Za-z]:\//.test(joined);
  return { rel: absolute ? null : joined, version: null };
}

/** Facts about `path` (root-relative, CODEX_HOME-relative or absolute; `/` or `\` separators). */
export function pathFacts(path: string, explicit?: ParsedKind, version?: 'v1' | 'v2'): PathFacts {
  const normalized = path.replace(/\\/g, '/');
  const parts = normalized.split('/').filter((p, i) => p !== '' || i === 0);
  const last = parts.at(-1);
  const fileName = last !== undefined && last !== '' ? last : null;
  const located = locateInRoot(parts);
  const facts: PathFacts = { kind: 'unknown', rel: located.rel, fileName, version: version ?? located.version };
  if (explicit) return { ...facts, kind: explicit };
  const rel = located.rel;
  const arrived = rel ? SYNC_ARRIVAL.exec(rel) : null;
  if (arrived) {
    const inner = classifyPath(group(arrived, 1));
    return { ...facts, kind: inner === 'workspace-diff' || inner === 'raw-memories' ? 'unknown' : KIND_BY_FILE_KIND[inner] };
  }
  const imported = rel ? IMPORTED_MEMORY.exec(rel) : null;
  if (imported) return { ...facts, kind: CURSOR_RULES_KEY.test(group(imported, 1)) ? 'unknown' : claudeKind(group(imported, 2)) };
  const claude = CLAUDE_MEMORY.exec(normalized);
  if (claude && !(rel && classifyPath(rel) !== 'unknown')) return { ...facts, kind: claudeKind(group(claude, 1)) };
  const relKind = rel ? classifyPath(rel) : 'unknown';
  if (relKind !== 'unknown' || located.version !== null) return { ...facts, kind: KIND_BY_FILE_KIND[relKind] };
  // Outside any memories/ folder: the top-level file names (memory_summary.md, MEMORY.md, …) still say what a file is.
  const byName = fileName ? classifyPath(fileName) : 'unknown';
  return { ...facts, kind: KIND_BY_FILE_KIND[byName] };
}
