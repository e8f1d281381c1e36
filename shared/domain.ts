// Domain types shared by core, hosts and renderer: homes, roots, config and files.
import { z } from 'zod';
import { fileKinds } from './file-kinds';

export const MemoryVersionSchema = z.enum(['v1', 'v2']);
export type MemoryVersion = z.infer<typeof MemoryVersionSchema>;

export { fileKinds };
export const FileKindSchema = z.enum(fileKinds);
export type FileKind = z.infer<typeof FileKindSchema>;

export const fileKindLabels: Record<FileKind, string> = {
  summary: 'Summary',
  memory: 'MEMORY.md',
  'raw-memories': 'Raw memories',
  'rollout-summary': 'Rollout summaries',
  skill: 'Skills',
  'skill-file': 'Skill resources',
  'ad-hoc-note': 'Ad-hoc notes',
  'extension-instructions': 'Extension instructions',
  'extension-resource': 'Extension resources',
  'extension-manifest': 'Extension manifests',
  'extension-scope': 'Import scopes',
  'workspace-diff': 'Workspace diff',
  unknown: 'Other files',
};

export const DiagnosticSchema = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  rule: z.string(),
  message: z.string(),
  path: z.string().optional(),
  line: z.number().int().optional(),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

export const MemoriesConfigSchema = z.object({
  version: MemoryVersionSchema,
  /** `config`: `memories.version` is set; `default`: absent, so Codex uses v2 (0.169.0 to 0.171.0; docs/codex-facts.md, Default memory version). */
  versionSource: z.enum(['config', 'default']),
  dualWrite: z.boolean(),
  disableOnExternalContext: z.boolean(),
  generateMemories: z.boolean(),
  useMemories: z.boolean(),
  dedicatedTools: z.boolean(),
  maxRawMemoriesForConsolidation: z.number().int(),
  maxUnusedDays: z.number().int(),
  maxRolloutAgeDays: z.number().int(),
  maxRolloutsPerStartup: z.number().int(),
  minRolloutIdleHours: z.number().int(),
  minRateLimitRemainingPercent: z.number().int(),
  extractModel: z.string().nullable(),
  consolidationModel: z.string().nullable(),
  /** `[memories] consolidation_service_tier`: the phase-2 request's `service_tier`; null: none is sent. */
  consolidationServiceTier: z.string().nullable(),
});
export type MemoriesConfig = z.infer<typeof MemoriesConfigSchema>;

export const CodexConfigSchema = z.object({
  /** Path of config.toml, and whether it exists. */
  path: z.string(),
  exists: z.boolean(),
  /** `[features] memories` (or the older `memory_tool`); null when not set (Codex's default: off). */
  featureMemories: z.boolean().nullable(),
  memories: MemoriesConfigSchema,
  /** Top-level `sqlite_home` as written (Codex puts its SQLite files there; it wins over CODEX_SQLITE_HOME). */
  sqliteHome: z.string().nullable(),
  diagnostics: z.array(DiagnosticSchema),
});
export type CodexConfig = z.infer<typeof CodexConfigSchema>;

export const RootInfoSchema = z.object({
  version: MemoryVersionSchema,
  /** Absolute path of the root (`<home>/memories` or `<home>/memories_v2`). */
  path: z.string(),
  exists: z.boolean(),
  isSymlink: z.boolean(),
  hasGitBaseline: z.boolean(),
  /** Path of this root's memory DB and whether it exists. */
  dbPath: z.string(),
  dbExists: z.boolean(),
});
export type RootInfo = z.infer<typeof RootInfoSchema>;

/**
 * Which root a new Codex session is told about, from config.toml: `memories.version` (else Codex's default, v2;
 * docs/codex-facts.md, Default memory version), and whether it is told anything at all (`[features] memories` on and
 * `[memories] use_memories` true; docs/codex-facts.md, What the next session is told).
 */
export const CodexReadsSchema = z.object({
  version: MemoryVersionSchema,
  /** `config`: `memories.version` names it; `default`: absent, so Codex's default. */
  source: z.enum(['config', 'default']),
  /** Why a new session is told nothing: the feature off (or not set: Codex's default is off), or `use_memories = false`. */
  off: z.enum(['feature-off', 'use-memories-off']).nullable(),
});
export type CodexReads = z.infer<typeof CodexReadsSchema>;

export const HomeInfoSchema = z.object({
  codexHome: z.string(),
  /** Where the choice came from: `--codex-home`, `CODEX_HOME`, `~/.codex`, or a demo home. */
  source: z.enum(['flag', 'env', 'default', 'demo']),
  exists: z.boolean(),
  sqliteHome: z.string(),
  /** `config`: `sqlite_home` in config.toml; `env`: CODEX_SQLITE_HOME; else the Codex home (Codex's order). */
  sqliteHomeSource: z.enum(['config', 'env', 'codex-home']),
  stateDbExists: z.boolean(),
  isDemo: z.boolean(),
  roots: z.array(RootInfoSchema),
  config: CodexConfigSchema,
  codexReads: CodexReadsSchema,
  /** While a demo home replaced the one the app started with: that home, which `home.leaveDemo` returns to; else null. */
  returnHome: z.string().nullable(),
});
export type HomeInfo = z.infer<typeof HomeInfoSchema>;

/** A time-stamped extension resource as Codex's 7-day pruner sees it (only for `extensions/<ext>/resources/…`). */
export const ExtensionResourceInfoSchema = z.object({
  extension: z.string(),
  /** Unix seconds of the name's `YYYY-MM-DDTHH-MM-SS` prefix; null without one (never pruned). */
  timestamp: z.number().nullable(),
  /** When Codex's next consolidation after it deletes the file (timestamp + 7 days); null when it never does. */
  expiresAt: z.number().nullable(),
  /** Already past: the next consolidation deletes it. */
  expired: z.boolean(),
  /** What the file is, when Memory Studio knows the producer (Chronicle's 10-minute and 6-hour summaries). */
  label: z.string().nullable(),
});
export type ExtensionResourceInfo = z.infer<typeof ExtensionResourceInfoSchema>;

export const FileEntrySchema = z.object({
  /** Path relative to the root, always with `/`. */
  path: z.string(),
  kind: FileKindSchema,
  size: z.number().int(),
  mtimeMs: z.number(),
  /** A symlink inside a root: never followed; Codex deletes these. */
  symlink: z.boolean(),
  /** Extension resources only: whether and when Codex's pruner deletes it. */
  resource: ExtensionResourceInfoSchema.optional(),
});
export type FileEntry = z.infer<typeof FileEntrySchema>;

export const FileListSchema = z.object({
  version: MemoryVersionSchema,
  root: z.string(),
  files: z.array(FileEntrySchema),
  counts: z.record(FileKindSchema, z.number().int()),
  totalBytes: z.number().int(),
  diagnostics: z.array(DiagnosticSchema),
});
export type FileList = z.infer<typeof FileListSchema>;

export const FileContentSchema = z.object({
  version: MemoryVersionSchema,
  path: z.string(),
  kind: FileKindSchema,
  content: z.string(),
  size: z.number().int(),
  mtimeMs: z.number(),
  lineCount: z.number().int(),
  /** `crlf` when the file uses Windows line endings; Monaco shows it as is. */
  eol: z.enum(['lf', 'crlf', 'none']),
  /** Codex puts this file into every session's prompt, cut to its token budget (the root's memory_summary.md): the budget lens applies. */
  injected: z.boolean(),
  /**
   * What an edit in Memory Studio amounts to: `curated` (a file people keep by hand), `regenerated` (Codex rewrites it at
   * every consolidation, so an edit does not last), `none` (Codex's bookkeeping or an unknown file: not edited here).
   */
  editing: z.enum(['curated', 'regenerated', 'none']),
});
export type FileContent = z.infer<typeof FileContentSchema>;

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  host: z.enum(['electron', 'serve']),
  dataDir: z.string(),
  platform: z.string(),
  /** Byte cap for opening a file; larger files get a clear error instead of a frozen editor. */
  readCapBytes: z.number().int(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;
