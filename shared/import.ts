// Import of Claude Code and Cursor memory into Codex: detection, the plan, the person's choices, the outcome and the wizard draft.
import { z } from 'zod';
import { LintDiagnosticSchema } from './lint';
import { MemoryVersionSchema } from './domain';
import { ProposalSchema } from './review';

export const importSources = ['claude', 'cursor'] as const;
export const ImportSourceSchema = z.enum(importSources);
export type ImportSource = z.infer<typeof ImportSourceSchema>;

/**
 * `index`: a project's `MEMORY.md`; `topic`: a memory file the index links to; `orphan`: a memory file the index
 * does not link to (or a project without an index); `rule`: a Cursor project rule (`.mdc`, `.cursorrules`);
 * `user-rules`: Cursor's User Rules from `state.vscdb`.
 */
export const ImportFileKindSchema = z.enum(['index', 'topic', 'orphan', 'rule', 'user-rules']);
export type ImportFileKind = z.infer<typeof ImportFileKindSchema>;

/**
 * Where a project's cwd came from: a session file, an `autoMemoryDirectory` setting's repo, a picked repo, the user's
 * home folder (Cursor's global User Rules), the person, the `scope.json` of an earlier import (its sessions were
 * pruned), or nowhere (such a project cannot be imported until given one).
 */
export const CwdSourceSchema = z.enum(['session', 'settings', 'repo', 'home', 'override', 'scope', 'none']);
export type CwdSource = z.infer<typeof CwdSourceSchema>;

/** Why something was not imported (closed set; `reason` carries the sentence the person reads). */
export const SkipCodeSchema = z.enum([
  'symlink',
  'too-large',
  'binary',
  'invalid-utf8',
  'unsafe-name',
  'unreadable',
  'outside-root',
  'missing',
  'locked',
  'not-markdown',
  'duplicate-root',
  'no-cwd',
  'secret',
  'excluded',
  'invalid-setting',
]);
export type SkipCode = z.infer<typeof SkipCodeSchema>;

export const SkippedEntrySchema = z.object({
  /** Absolute source path (or the setting / DB key that was refused). */
  path: z.string(),
  code: SkipCodeSchema,
  reason: z.string(),
  /** The project the entry belonged to, when known. */
  projectKey: z.string().nullable(),
});
export type SkippedEntry = z.infer<typeof SkippedEntrySchema>;

/** Where to read from. Every path is absolute; omitted ones fall back to the tool's default location. */
export const ImportSourceOptionsSchema = z.object({
  from: ImportSourceSchema,
  /** Claude home (`CLAUDE_CONFIG_DIR` or `~/.claude`) or Cursor home (`~/.cursor`) when omitted. */
  sourceHome: z.string().min(1).max(4096).optional(),
  /** Repositories to look in: Claude's per-repo `autoMemoryDirectory` settings, Cursor's project rules. */
  repos: z.array(z.string().min(1).max(4096)).max(200).optional(),
  /** Cursor's `state.vscdb` (User Rules); Cursor's user-data location when omitted. */
  cursorStateDb: z.string().min(1).max(4096).optional(),
});
export type ImportSourceOptions = z.infer<typeof ImportSourceOptionsSchema>;

export const SourceHomeSchema = z.object({
  path: z.string(),
  exists: z.boolean(),
  /** `picked`: given by the person; `env`: CLAUDE_CONFIG_DIR; `default`: the tool's usual folder. */
  origin: z.enum(['picked', 'env', 'default']),
});
export type SourceHome = z.infer<typeof SourceHomeSchema>;

export const DetectedProjectSchema = z.object({
  /** The key under `resources/`: Claude's folder name as is, `_custom`, `project:<repo>`, or a `cursor-…` key. */
  key: z.string(),
  cwd: z.string().nullable(),
  cwdSource: CwdSourceSchema,
  /** The folder the files are read from (or the `state.vscdb` path for User Rules). */
  sourceDir: z.string(),
  origin: z.enum(['projects', 'custom-setting', 'repo-setting', 'cursor-rules', 'cursor-user-rules']),
  fileCount: z.number().int().nonnegative(),
  importableCount: z.number().int().nonnegative(),
  skippedCount: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});
export type DetectedProject = z.infer<typeof DetectedProjectSchema>;

export const DetectionSchema = z.object({
  from: ImportSourceSchema,
  homes: z.array(SourceHomeSchema),
  projects: z.array(DetectedProjectSchema),
  skipped: z.array(SkippedEntrySchema),
  /** Explains that Claude's folder names are a lossy encoding of the project path (shown beside the keys). */
  keyEncodingNote: z.string(),
  messages: z.array(z.string()),
});
export type Detection = z.infer<typeof DetectionSchema>;

/** Front matter as parsed: flat keys, or the newer layout nesting `type` etc. under `metadata:`. */
export const ImportFrontMatterSchema = z.object({
  layout: z.enum(['flat', 'nested', 'none']),
  name: z.string().nullable(),
  description: z.string().nullable(),
  type: z.string().nullable(),
  /** Every other key (nested ones as `metadata.<key>`), values as written. */
  other: z.record(z.string(), z.string()),
});
export type ImportFrontMatter = z.infer<typeof ImportFrontMatterSchema>;

export const SecretActionSchema = z.enum(['redact', 'skip-file']);
export type SecretAction = z.infer<typeof SecretActionSchema>;

export const SecretFindingSchema = z.object({
  /** Stable within the file: `<rule>@<line>:<column>`. */
  id: z.string(),
  rule: z.string(),
  line: z.number().int().positive(),
  column: z.number().int().positive(),
  /** The line with the secret masked, never the secret itself. */
  preview: z.string(),
  /** The person's choice, or null while unresolved. */
  action: SecretActionSchema.nullable(),
});
export type SecretFinding = z.infer<typeof SecretFindingSchema>;

/** What the import does with one target file compared with what is there now. */
export const TargetChangeSchema = z.enum(['create', 'modify', 'unchanged', 'delete']);
export type TargetChange = z.infer<typeof TargetChangeSchema>;

export const PlanFileSchema = z.object({
  /** Path under the project's target folder, always with `/`. */
  relPath: z.string(),
  sourcePath: z.string(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  /** ISO 8601 (UTC) of `mtimeMs`. */
  mtime: z.string(),
  /** SHA-256 (hex) of the source bytes. */
  sha256: z.string(),
  kind: ImportFileKindSchema,
  frontMatter: ImportFrontMatterSchema,
  findings: z.array(SecretFindingSchema),
  status: z.enum(['importable', 'skipped']),
  /** Why the file is skipped (unresolved secret, a skip-file choice, excluded by the person, ...). */
  reason: z.string().nullable(),
  included: z.boolean(),
  /** The file's text as it would be written (redactions and a Cursor provenance header applied); null when skipped. */
  content: z.string().nullable(),
  /** The source text as read (for the raw preview); null when it could not be read, or when `textsOmitted`. */
  sourceText: z.string().nullable(),
  /** Whether the source could be read as text (stays true when a large plan leaves the texts out). */
  readable: z.boolean(),
  change: TargetChangeSchema,
});
export type PlanFile = z.infer<typeof PlanFileSchema>;

export const PlanProjectSchema = z.object({
  key: z.string(),
  /** The cwd in force (the person's override if any). */
  cwd: z.string().nullable(),
  /** The cwd detection found, for "reset". */
  detectedCwd: z.string().nullable(),
  cwdSource: CwdSourceSchema,
  sourceDir: z.string(),
  included: z.boolean(),
  status: z.enum(['importable', 'skipped']),
  reason: z.string().nullable(),
  files: z.array(PlanFileSchema),
  change: z.enum(['create', 'update', 'unchanged']),
});
export type PlanProject = z.infer<typeof PlanProjectSchema>;

/** Included, and skipped only because no folder (cwd) is known for it here: giving its folder unblocks it. */
export const waitsForCwd = (p: PlanProject): boolean => p.included && p.status === 'skipped' && p.cwd === null;

export const ImportTargetSchema = z.object({
  version: MemoryVersionSchema,
  root: z.string(),
  rootExists: z.boolean(),
  /** `<root>/extensions/external_agent_import`. */
  extensionDir: z.string(),
});
export type ImportTarget = z.infer<typeof ImportTargetSchema>;

/** One file the proposal writes or deletes, with its exact absolute path. */
export const TargetWriteSchema = z.object({
  version: MemoryVersionSchema,
  /** Relative to the root. */
  relPath: z.string(),
  absPath: z.string(),
  change: TargetChangeSchema,
  projectKey: z.string().nullable(),
  /** A file of an earlier import whose source is gone (the Target step's removal group). */
  removal: z.boolean(),
});
export type TargetWrite = z.infer<typeof TargetWriteSchema>;

/** A project imported earlier (present under `resources/`) whose source is gone: removed by the proposal. */
export const RemovedProjectSchema = z.object({
  key: z.string(),
  version: MemoryVersionSchema,
  targetDir: z.string(),
  files: z.array(z.string()),
});
export type RemovedProject = z.infer<typeof RemovedProjectSchema>;

/**
 * An earlier import this plan leaves alone although it is not in the source: it came from another source home, the
 * other tool or Codex's own importer (`from-another-source`), or the person kept the removals (`kept-by-you`).
 */
export const KeptImportSchema = z.object({
  key: z.string(),
  version: MemoryVersionSchema,
  targetDir: z.string(),
  /** The files kept (all of the folder, or the leftovers of a project re-imported from another source). */
  files: z.array(z.string()),
  why: z.enum(['from-another-source', 'kept-by-you']),
  /** What the record says about where it came from, in a sentence. */
  reason: z.string(),
});
export type KeptImport = z.infer<typeof KeptImportSchema>;

/** A planned file's lint warnings and errors, as the lint will report them once the import is applied. */
export const PlannedLintSchema = z.object({
  version: MemoryVersionSchema,
  relPath: z.string(),
  projectKey: z.string().nullable(),
  diagnostics: z.array(LintDiagnosticSchema),
});
export type PlannedLint = z.infer<typeof PlannedLintSchema>;

export const ImportPlanSchema = z.object({
  from: ImportSourceSchema,
  detection: DetectionSchema,
  targets: z.array(ImportTargetSchema),
  /** Why these targets (Codex's rule: v1 and v2 when a v1 root exists or v1 is configured, else v2). */
  targetRule: z.string(),
  projects: z.array(PlanProjectSchema),
  skipped: z.array(SkippedEntrySchema),
  /** Earlier imports of this source whose source is gone: removed by the proposal (unless `choices.keepRemoved`). */
  removed: z.array(RemovedProjectSchema),
  /** Earlier imports left alone: listed so the person sees nothing of another source is touched. */
  kept: z.array(KeptImportSchema),
  /** Every file that would change, in every target (unchanged files left out). */
  writes: z.array(TargetWriteSchema),
  unresolvedFindings: z.number().int().nonnegative(),
  nothingToImport: z.boolean(),
  messages: z.array(z.string()),
  /**
   * True when the plan has too many files to carry their texts on every choice change: `content` and `sourceText`
   * are then null and `import.fileText` gives one file's texts for the preview.
   */
  textsOmitted: z.boolean(),
  /** The lint warnings the written files will raise (files without any left out). */
  lint: z.array(PlannedLintSchema).optional(),
});
export type ImportPlan = z.infer<typeof ImportPlanSchema>;

export const FileTextInputSchema = z
  .object({ plan: z.lazy(() => ImportPlanInputSchema), project: z.string().min(1).max(4096), relPath: z.string().min(1).max(4096) })
  .strict();
export const FileTextSchema = z.object({ content: z.string().nullable(), sourceText: z.string().nullable() });
export type FileText = z.infer<typeof FileTextSchema>;

export const ProjectChoiceSchema = z.object({
  key: z.string().min(1).max(4096),
  include: z.boolean().optional(),
  /** An absolute cwd replacing the detected one; null clears an earlier override. */
  cwd: z.string().min(1).max(4096).nullable().optional(),
});
export const FileChoiceSchema = z.object({
  project: z.string().min(1).max(4096),
  relPath: z.string().min(1).max(4096),
  include: z.boolean(),
});
export const SecretChoiceSchema = z.object({
  project: z.string().min(1).max(4096),
  relPath: z.string().min(1).max(4096),
  /** One finding; omitted = every finding of the file. */
  findingId: z.string().max(300).optional(),
  action: SecretActionSchema,
});

export const ImportChoicesSchema = z.object({
  projects: z.array(ProjectChoiceSchema).max(10_000).optional(),
  files: z.array(FileChoiceSchema).max(100_000).optional(),
  secrets: z.array(SecretChoiceSchema).max(100_000).optional(),
  /** Applied to every finding without its own choice (the CLI's `--redact-secrets` / `--skip-secret-files`). */
  secretDefault: SecretActionSchema.optional(),
  /** Keep every earlier import of this source whose source is gone (the Target step's one switch; the CLI's `--keep-removed`). */
  keepRemoved: z.boolean().optional(),
});
export type ImportChoices = z.infer<typeof ImportChoicesSchema>;

export const ImportPlanInputSchema = ImportSourceOptionsSchema.extend({
  /** Only these project keys (all detected ones when omitted). */
  projects: z.array(z.string().min(1).max(4096)).max(10_000).optional(),
  choices: ImportChoicesSchema.optional(),
}).strict();
export type ImportPlanInput = z.infer<typeof ImportPlanInputSchema>;

export const ImportOutcomeSchema = z.object({
  /** The pending proposal (source `import`) to review and apply, or null when nothing changes. */
  proposal: ProposalSchema.nullable(),
  nothingToImport: z.boolean(),
  message: z.string(),
  writes: z.array(TargetWriteSchema),
  /** Roots whose memory DB gets the consolidation enqueued when the proposal is applied. */
  enqueue: z.array(MemoryVersionSchema),
  /** The lint warnings the proposed files will raise, per file (the Review step lists them). */
  lint: z.array(PlannedLintSchema).optional(),
  /** Included projects skipped only because no folder (cwd) is known for them here: a cwd choice imports them. */
  waitingForCwd: z.array(z.string()).optional(),
});
export type ImportOutcome = z.infer<typeof ImportOutcomeSchema>;

export const importSteps = ['sources', 'projects', 'files', 'secrets', 'target', 'review', 'apply', 'done'] as const;
export const ImportStepSchema = z.enum(importSteps);
export type ImportStep = z.infer<typeof ImportStepSchema>;

/** The wizard's resumable state, kept in the Studio data folder. */
export const ImportDraftSchema = z.object({
  step: ImportStepSchema,
  options: ImportSourceOptionsSchema,
  projects: z.array(z.string()).optional(),
  choices: ImportChoicesSchema,
  /** The proposal made at the Review step, if any. */
  proposalId: z.string().nullable(),
  savedAt: z.number().int(),
});
export type ImportDraft = z.infer<typeof ImportDraftSchema>;
