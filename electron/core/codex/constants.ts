// Every number and name Codex uses for memory, in one place (sources in docs/codex-facts.md; Codex's code wins over any description).
import { isBaselineDirName } from '../platform/safe-path';
import type { MemoryVersion } from '../../../shared/domain';
import type { DbChange } from '../../../shared/review';

export const ROOT_DIRS = { v1: 'memories', v2: 'memories_v2' } as const;
export const MEMORY_DB_FILES = { v1: 'memories_1.sqlite', v2: 'memories_v2_1.sqlite' } as const;
export const STATE_DB_FILE = 'state_5.sqlite';
export const CONFIG_FILE = 'config.toml';

/** How a proposal names a root's memory DB (its DB changes), and back: Codex's state DB belongs to no root. */
export function memoryDbName(version: MemoryVersion): 'memories_v1' | 'memories_v2' {
  return version === 'v1' ? 'memories_v1' : 'memories_v2';
}

export function versionOfDb(db: DbChange['db']): MemoryVersion | null {
  return db === 'memories_v1' ? 'v1' : db === 'memories_v2' ? 'v2' : null;
}

/**
 * Folders at a memory root that belong to Codex's git baseline: `.git/` and `.codex-baseline/` (Codex 0.169.0 keeps
 * its baseline lock at `.codex-baseline/.git/codex-baseline.lock`). Never listed, read, copied or written.
 */
export const BASELINE_DIRS: readonly string[] = ['.git', '.codex-baseline'];

/** Whether a root-relative path (with `/`) lies in one of Codex's baseline folders (`.GIT/` too: see isBaselineDirName). */
export function isBaselinePath(relPath: string): boolean {
  return isBaselineDirName(relPath.split('/', 1)[0] ?? '');
}

export { isBaselineDirName };

export const FILES = {
  summary: 'memory_summary.md',
  memory: 'MEMORY.md',
  rawMemories: 'raw_memories.md',
  workspaceDiff: 'phase2_workspace_diff.md',
  rolloutSummariesDir: 'rollout_summaries',
  skillsDir: 'skills',
  extensionsDir: 'extensions',
} as const;

/** `[memories]` keys: default and clamp range, from `codex-rs/config/src/types.rs` (MemoriesConfig). */
export const MEMORY_INT_KEYS = {
  max_raw_memories_for_consolidation: { field: 'maxRawMemoriesForConsolidation', default: 256, min: 1, max: 4096 },
  max_unused_days: { field: 'maxUnusedDays', default: 30, min: 0, max: 365 },
  max_rollout_age_days: { field: 'maxRolloutAgeDays', default: 10, min: 0, max: 90 },
  max_rollouts_per_startup: { field: 'maxRolloutsPerStartup', default: 2, min: 1, max: 128 },
  min_rollout_idle_hours: { field: 'minRolloutIdleHours', default: 6, min: 1, max: 48 },
  min_rate_limit_remaining_percent: { field: 'minRateLimitRemainingPercent', default: 25, min: 0, max: 100 },
} as const;

export const MEMORY_BOOL_KEYS = {
  dual_write: { field: 'dualWrite', default: false },
  disable_on_external_context: { field: 'disableOnExternalContext', default: false },
  generate_memories: { field: 'generateMemories', default: true },
  use_memories: { field: 'useMemories', default: true },
  dedicated_tools: { field: 'dedicatedTools', default: false },
} as const;

export const MEMORY_STRING_KEYS = {
  extract_model: { field: 'extractModel' },
  consolidation_model: { field: 'consolidationModel' },
  /**
   * Any string (0.169.0–0.171.0 accept any); sent as the phase-2 request's `service_tier` (e.g. "flex"). Unset: the
   * request carries no service tier (observed with 0.171.0, docs/codex-facts.md "Consolidation service tier").
   */
  consolidation_service_tier: { field: 'consolidationServiceTier' },
} as const;

/** Older spellings Codex still accepts (alias) or renamed in 0.110.0 (no longer accepted). */
export const MEMORY_KEY_ALIASES: Record<string, string> = {
  no_memories_if_mcp_or_web_search: 'disable_on_external_context',
};
export const MEMORY_KEY_RENAMES: Record<string, string> = {
  phase_1_model: 'extract_model',
  phase_2_model: 'consolidation_model',
  max_raw_memories_for_global: 'max_raw_memories_for_consolidation',
};

/** Summary injection: tokens estimated as bytes/4; 2,500 in current Codex (5,000 in older builds). */
export const SUMMARY_TOKEN_LIMIT = 2500;
/** The budget of older builds (`codex-rs/memories/read/src/lib.rs`, old `core` constants). */
export const SUMMARY_TOKEN_LIMIT_LEGACY = 5000;
/** `APPROX_BYTES_PER_TOKEN` in `codex-rs/utils/string/src/truncate.rs`: Codex estimates, it does not tokenize. */
export const APPROX_BYTES_PER_TOKEN = 4;
/** `format_truncation_marker` (truncate.rs, token mode): `…{n} tokens truncated…`, no surrounding newlines. */
export const TOKEN_TRUNCATION_MARKER = { before: '\u2026', after: ' tokens truncated\u2026' } as const;
/** `validate_consolidation_artifacts_for_version` (`codex-rs/memories/write/src/workspace.rs`): `lines().next() == Some("v1")`. */
export const SUMMARY_FIRST_LINE = 'v1';
/** `is_valid_v2_summary`: each must appear as a trimmed line of the v2 summary. */
export const V2_SUMMARY_HEADINGS = ['## User Profile', '## User preferences', '## General Tips', "## What's in Memory"] as const;
/** What `codex_secrets::redact_secrets` writes in place of a secret (`codex-rs/secrets/src/sanitizer.rs`). */
export const REDACTED_SECRET = '[REDACTED_SECRET]';
export const V2_SUMMARY_MAX_BYTES = 10_000;
export const V2_FRAGMENT_MAX_BYTES = 8_900;
export const WORKSPACE_DIFF_MAX_BYTES = 4 * 1024 * 1024;
export const EXTENSION_RESOURCE_RETENTION_DAYS = 7;
export const PHASE2_COOLDOWN_SECONDS = 21_600;
export const LEASE_SECONDS = 3_600;

/** Job kinds and the global job's key (`codex-rs/state/src/runtime/memories.rs`). */
export const JOB_KINDS = { stage1: 'memory_stage1', global: 'memory_consolidate_global' } as const;
export const GLOBAL_JOB_KEY = 'global';
export const JOB_STATUSES = ['pending', 'running', 'done', 'error'] as const;
/** `DEFAULT_RETRY_REMAINING` and the retry delay after a failed stage-1 or Phase 2 job. */
export const DEFAULT_RETRY_REMAINING = 3;
export const RETRY_DELAY_SECONDS = 3_600;
/**
 * `threads.source` values phase 1 extracts from (`INTERACTIVE_SESSION_SOURCES`: Cli and VSCode). Threads of
 * `codex exec` (`exec`), sub-agents and Codex's own internal sessions are never turned into memories.
 */
export const INTERACTIVE_SESSION_SOURCES: readonly string[] = ['cli', 'vscode'];
/**
 * `THREAD_SCAN_LIMIT` of phase 1's startup claim: it looks at most at the 5,000 newest sessions inside its window
 * (up-to-date ones included) before checking which need an extraction.
 */
export const PHASE1_THREAD_SCAN_LIMIT = 5_000;
/** The thread catalog's `memory_mode` values (`polluted` is set by Codex only). */
export const MEMORY_MODES = ['enabled', 'disabled', 'polluted'] as const;
/** Rollout JSONL folders under CODEX_HOME (`sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`). */
export const SESSIONS_DIR = 'sessions';
export const ARCHIVED_SESSIONS_DIR = 'archived_sessions';
/** Citation markup parsed by `codex-rs/memories/read/src/citations.rs` and the citation stream parser. */
export const CITATION_TAGS = {
  open: '<oai-mem-citation>',
  close: '</oai-mem-citation>',
  entriesOpen: '<citation_entries>',
  entriesClose: '</citation_entries>',
  rolloutIdsOpen: '<rollout_ids>',
  rolloutIdsClose: '</rollout_ids>',
  legacyThreadIdsOpen: '<thread_ids>',
  legacyThreadIdsClose: '</thread_ids>',
  noteSeparator: '|note=[',
  /** Newer citation stream parsers also hide web citations (`\u{e200}cite\u{e202}…\u{e201}`) and pass their bodies on. */
  webOpen: '\u{e200}cite\u{e202}',
  webClose: '\u{e201}',
} as const;
