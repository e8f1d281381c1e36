// Parse results for every Markdown/JSON memory file kind: outlines with 1-based line ranges, diagnostics and fixes.
import { z } from 'zod';

/**
 * Every kind the format parsers know. `session_rollout` (session JSONL) is defined in `shared/sessions.ts`;
 * it is deliberately absent here.
 */
export const parsedKinds = [
  'memory_summary',
  'memory_md',
  'raw_memories',
  'rollout_summary',
  'skill',
  'ad_hoc_note',
  'extension_manifest',
  'extension_scope',
  'extension_instructions',
  'workspace_diff',
  'claude_memory_index',
  'claude_memory_topic',
  'unknown',
] as const;
export const ParsedKindSchema = z.enum(parsedKinds);
export type ParsedKind = z.infer<typeof ParsedKindSchema>;

const line = z.number().int().min(1);
/** `endLine` of an element: inclusive, >= `line`. */
const endLine = z.number().int().min(1);

/**
 * One mechanical edit on the file's lines (after the byte-order mark, if any): lines `line`..`endLine`
 * (1-based, inclusive) are replaced by `text` (lines separated by `\n`; written back with the file's own
 * line ending). A pure insertion before `line` uses `endLine = line - 1`; an empty `text` on a non-empty
 * range deletes the lines. With `startColumn` and `endColumn` (1-based UTF-16, the end exclusive) only the
 * span from column `startColumn` of `line` to column `endColumn` of `endLine` is replaced: the edit carries
 * the replacement, never the rest of the line.
 */
export const TextEditSchema = z.object({
  line: z.number().int().min(1),
  endLine: z.number().int().min(0),
  startColumn: z.number().int().min(1).optional(),
  endColumn: z.number().int().min(1).optional(),
  text: z.string(),
});
export type TextEdit = z.infer<typeof TextEditSchema>;

export const DiagnosticFixSchema = z.object({
  description: z.string(),
  edits: z.array(TextEditSchema),
});
export type DiagnosticFix = z.infer<typeof DiagnosticFixSchema>;

export const ParsedDiagnosticSchema = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  /** Stable rule id, `<area>/<name>`: `codex/…` (Codex itself rejects or rewrites), `template/…` (the consolidation prompt's rules), `format/…`, `claude/…`. */
  rule: z.string(),
  line,
  endLine,
  message: z.string(),
  fix: DiagnosticFixSchema.optional(),
});
export type ParsedDiagnostic = z.infer<typeof ParsedDiagnosticSchema>;

export const LineRangeSchema = z.object({ line, endLine });
export type LineRange = z.infer<typeof LineRangeSchema>;

/**
 * The exact text as lines, so `serializeParsedFile(parse(x)) === x` byte for byte. Line breaks are LF, CRLF
 * or a lone CR; `breaks` (the terminator after each line, `''` after a last line without one) is present
 * only when the file mixes them.
 */
export const SourceModelSchema = z.object({
  bom: z.boolean(),
  eol: z.enum(['lf', 'crlf', 'cr', 'mixed', 'none']),
  finalNewline: z.boolean(),
  lines: z.array(z.string()),
  breaks: z.array(z.enum(['\n', '\r\n', '\r', ''])).optional(),
});
export type SourceModel = z.infer<typeof SourceModelSchema>;

/** A Markdown heading and the lines it governs (up to the next heading of the same or a higher level). */
export const SectionSchema = z.object({ title: z.string(), level: z.number().int().min(1).max(6), line, endLine });
export type Section = z.infer<typeof SectionSchema>;

/** Values of the tolerant front-matter subset: scalars, lists, and one level of nesting. */
export const FrontMatterScalarSchema = z.union([z.string(), z.array(z.string())]);
export const FrontMatterValueSchema = z.union([z.string(), z.array(z.string()), z.record(z.string(), FrontMatterScalarSchema)]);
export type FrontMatterValue = z.infer<typeof FrontMatterValueSchema>;
export const FrontMatterSchema = z.record(z.string(), FrontMatterValueSchema);
export type FrontMatter = z.infer<typeof FrontMatterSchema>;

// ---------- memory_summary.md ----------

export const SubBulletSchema = z.object({ label: z.string(), value: z.string(), line, endLine });
export type SubBullet = z.infer<typeof SubBulletSchema>;

/** v2 pointer line: `- rollout_summaries/<file> — <sentence>; thread_id=<id>` (fields null when malformed). */
export const SummaryPointerSchema = z.object({
  file: z.string(),
  /** The root-relative path of the summary `file` names (core resolves Codex's forms of it), or null when it names none. */
  path: z.string().nullable(),
  sentence: z.string(),
  threadId: z.string().nullable(),
  /** False when the line only loosely matched (a `template/pointer-format` diagnostic says why). */
  valid: z.boolean(),
  line,
  endLine,
  subBullets: z.array(SubBulletSchema),
});
export type SummaryPointer = z.infer<typeof SummaryPointerSchema>;

/** v1 topic bullet: `- <topic>: kw1, kw2` with optional `- desc:` / `- learnings:` sub-bullets. */
export const SummaryTopicSchema = z.object({
  topic: z.string(),
  keywords: z.array(z.string()),
  desc: z.string().nullable(),
  learnings: z.string().nullable(),
  line,
  endLine,
  subBullets: z.array(SubBulletSchema),
  /** `rollout_summaries/<file>.md` references anywhere in the bullet or its sub-bullets. */
  rolloutRefs: z.array(z.object({ file: z.string(), path: z.string().nullable(), line })),
});
export type SummaryTopic = z.infer<typeof SummaryTopicSchema>;

export const SummaryDateGroupSchema = z.object({
  /** The heading text, normally `YYYY-MM-DD`. */
  date: z.string(),
  valid: z.boolean(),
  line,
  endLine,
  topics: z.array(SummaryTopicSchema),
  pointers: z.array(SummaryPointerSchema),
});
export type SummaryDateGroup = z.infer<typeof SummaryDateGroupSchema>;

/** `### <scope>` (recent, with `#### <date>` groups) or, under `### Older Memory Topics`, `#### <scope>`. */
export const SummaryScopeSchema = z.object({
  name: z.string(),
  older: z.boolean(),
  line,
  endLine,
  dateGroups: z.array(SummaryDateGroupSchema),
  /** Entries directly under the scope heading (the normal case for older scopes). */
  topics: z.array(SummaryTopicSchema),
  pointers: z.array(SummaryPointerSchema),
});
export type SummaryScope = z.infer<typeof SummaryScopeSchema>;

const memorySummaryBody = z.object({
  kind: z.literal('memory_summary'),
  /** Root version from the path (`memories_v2/` = v2) or the options; null when unknown. */
  version: z.enum(['v1', 'v2']).nullable(),
  /** Codex's own check: the first line (split at `\n`, one trailing `\r` removed) is exactly `v1`. */
  firstLineOk: z.boolean(),
  /** What the entries look like: v2 pointer lines, v1 topic bullets, both, or none. */
  style: z.enum(['pointers', 'topics', 'mixed', 'empty']),
  sections: z.array(SectionSchema),
  olderTopics: LineRangeSchema.nullable(),
  scopes: z.array(SummaryScopeSchema),
  pointers: z.array(SummaryPointerSchema),
  topics: z.array(SummaryTopicSchema),
});

// ---------- MEMORY.md ----------

/** A `### rollout_summary_files` / `### extension_resource_files` bullet: `- <file> (k=v, …, <note>)`. */
export const MemoryRefFileSchema = z.object({
  file: z.string(),
  /** The root-relative path `file` names when it is a file of the list's kind (a rollout summary, a resource), else null. */
  path: z.string().nullable(),
  fields: z.record(z.string(), z.string()),
  note: z.string(),
  line,
  endLine,
});
export type MemoryRefFile = z.infer<typeof MemoryRefFileSchema>;

export const MemoryTaskSchema = z.object({
  number: z.number().int().nullable(),
  title: z.string(),
  line,
  endLine,
  rolloutSummaryFiles: z.array(MemoryRefFileSchema),
  extensionResourceFiles: z.array(MemoryRefFileSchema),
  keywords: z.array(z.string()),
});
export type MemoryTask = z.infer<typeof MemoryTaskSchema>;

export const MemoryBulletSchema = z.object({ text: z.string(), taskRefs: z.array(z.number().int()), line, endLine });
export type MemoryBullet = z.infer<typeof MemoryBulletSchema>;

export const MemoryBlockSectionSchema = z.object({ title: z.string(), line, endLine, bullets: z.array(MemoryBulletSchema) });
export type MemoryBlockSection = z.infer<typeof MemoryBlockSectionSchema>;

export const AppliesToSchema = z.object({ cwd: z.string().nullable(), reuseRule: z.string().nullable(), raw: z.string(), line });
export type AppliesTo = z.infer<typeof AppliesToSchema>;

export const MemoryBlockSchema = z.object({
  title: z.string(),
  line,
  endLine,
  scope: z.string().nullable(),
  appliesTo: AppliesToSchema.nullable(),
  tasks: z.array(MemoryTaskSchema),
  /** Every keyword of the block's tasks, in order, without duplicates. */
  keywords: z.array(z.string()),
  sections: z.array(MemoryBlockSectionSchema),
  /** `skills/<name>/SKILL.md` references in the block's bullets. */
  skillRefs: z.array(z.string()),
});
export type MemoryBlock = z.infer<typeof MemoryBlockSchema>;

const memoryMdBody = z.object({ kind: z.literal('memory_md'), blocks: z.array(MemoryBlockSchema) });

// ---------- raw_memories.md ----------

export const RawTaskSchema = z.object({
  number: z.number().int().nullable(),
  title: z.string(),
  line,
  endLine,
  task: z.string().nullable(),
  taskGroup: z.string().nullable(),
  outcome: z.string().nullable(),
});
export type RawTask = z.infer<typeof RawTaskSchema>;

export const RawThreadSchema = z.object({
  threadId: z.string(),
  line,
  endLine,
  updatedAt: z.string().nullable(),
  cwd: z.string().nullable(),
  rolloutPath: z.string().nullable(),
  rolloutSummaryFile: z.string().nullable(),
  /** The root-relative path of the summary `rolloutSummaryFile` names, or null when it names none. */
  rolloutSummaryPath: z.string().nullable(),
  /** Every `key: value` header line of the thread (the four above plus any others). */
  fields: z.record(z.string(), z.string()),
  /** The raw memory's `---` front matter as flat `key: value` pairs. */
  frontMatter: z.record(z.string(), z.string()),
  frontMatterRange: LineRangeSchema.nullable(),
  tasks: z.array(RawTaskSchema),
});
export type RawThread = z.infer<typeof RawThreadSchema>;

const rawMemoriesBody = z.object({
  kind: z.literal('raw_memories'),
  title: z.string().nullable(),
  /** The body is Codex's `No raw memories yet.` */
  empty: z.boolean(),
  threads: z.array(RawThreadSchema),
});

// ---------- rollout_summaries/<stem>.md ----------

export const RolloutHeaderSchema = z.object({
  threadId: z.string().nullable(),
  updatedAt: z.string().nullable(),
  rolloutPath: z.string().nullable(),
  cwd: z.string().nullable(),
  gitBranch: z.string().optional(),
});
export type RolloutHeader = z.infer<typeof RolloutHeaderSchema>;

export const TitleSchema = z.object({ text: z.string(), line, endLine });

const rolloutSummaryBody = z.object({
  kind: z.literal('rollout_summary'),
  fileName: z.string().nullable(),
  header: RolloutHeaderSchema,
  headerFields: z.record(z.string(), z.string()),
  headerRange: LineRangeSchema.nullable(),
  title: TitleSchema.nullable(),
  sections: z.array(SectionSchema),
  /** v1 `## Task <n>: <name>` sections with their `Outcome:` line. */
  tasks: z.array(z.object({ number: z.number().int().nullable(), title: z.string(), outcome: z.string().nullable(), line, endLine })),
});

// ---------- skills/<name>/SKILL.md ----------

const skillBody = z.object({
  kind: z.literal('skill'),
  folder: z.string().nullable(),
  frontMatter: FrontMatterSchema,
  frontMatterRange: LineRangeSchema.nullable(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  body: LineRangeSchema.nullable(),
  sections: z.array(SectionSchema),
});

// ---------- extensions/ad_hoc/notes/<ts>-<slug>.md ----------

const adHocNoteBody = z.object({
  kind: z.literal('ad_hoc_note'),
  fileName: z.string().nullable(),
  /** `YYYY-MM-DDTHH-MM-SS` from the name, when the name has one. */
  timestamp: z.string().nullable(),
  slug: z.string().nullable(),
  nameValid: z.boolean(),
  title: TitleSchema.nullable(),
  sections: z.array(SectionSchema),
});

// ---------- extensions/<ext>/manifest.json, resources/<key>/scope.json, instructions.md ----------

export const ManifestResourceSchema = z.object({
  id: z.string(),
  targetFileName: z.string().nullable(),
  contentSha256: z.string().nullable(),
  line,
  endLine,
});
export type ManifestResource = z.infer<typeof ManifestResourceSchema>;

const extensionManifestBody = z.object({
  kind: z.literal('extension_manifest'),
  extension: z.string().nullable(),
  validJson: z.boolean(),
  version: z.number().nullable(),
  resources: z.array(ManifestResourceSchema),
});

const extensionScopeBody = z.object({
  kind: z.literal('extension_scope'),
  projectKey: z.string().nullable(),
  validJson: z.boolean(),
  cwd: z.string().nullable(),
  /** Codex writes the compact form `{"cwd":"…"}`; any other spelling counts as a change for its import. */
  compact: z.boolean(),
});

const extensionInstructionsBody = z.object({
  kind: z.literal('extension_instructions'),
  extension: z.string().nullable(),
  title: TitleSchema.nullable(),
  sections: z.array(SectionSchema),
});

// ---------- phase2_workspace_diff.md ----------

export const DiffStatusSchema = z.object({ label: z.string(), path: z.string(), line, endLine });
export type DiffStatus = z.infer<typeof DiffStatusSchema>;

const workspaceDiffBody = z.object({
  kind: z.literal('workspace_diff'),
  title: z.string().nullable(),
  status: z.array(DiffStatusSchema),
  /** The status list is Codex's `- none`. */
  noChanges: z.boolean(),
  /** The fenced diff body (without the fence lines). */
  diff: z.object({ line, endLine, text: z.string() }).nullable(),
  /** One entry per `diff --git` section of the diff. */
  files: z.array(z.object({ path: z.string(), line, endLine, added: z.number().int(), removed: z.number().int() })),
  truncated: z.boolean(),
  truncatedAtBytes: z.number().int().nullable(),
});

// ---------- Claude Code memory (projects/<dir>/memory/, or imported under external_agent_import) ----------

export const ClaudeIndexEntrySchema = z.object({
  /** The topic file as written: `name` of `[[name]]`, the link target, or a bare `file.md`. */
  target: z.string(),
  text: z.string(),
  description: z.string().nullable(),
  form: z.enum(['wiki', 'link', 'bare']),
  line,
  endLine,
});
export type ClaudeIndexEntry = z.infer<typeof ClaudeIndexEntrySchema>;

const claudeMemoryIndexBody = z.object({
  kind: z.literal('claude_memory_index'),
  title: TitleSchema.nullable(),
  entries: z.array(ClaudeIndexEntrySchema),
  sections: z.array(SectionSchema),
});

const claudeMemoryTopicBody = z.object({
  kind: z.literal('claude_memory_topic'),
  frontMatter: FrontMatterSchema,
  frontMatterRange: LineRangeSchema.nullable(),
  /** `flat` (`name/description/type`), `nested` (`metadata:` holds `type`, …) or `none`. */
  layout: z.enum(['flat', 'nested', 'none']),
  name: z.string().nullable(),
  description: z.string().nullable(),
  type: z.string().nullable(),
  body: LineRangeSchema.nullable(),
  /** `[[name]]` links in the body. */
  links: z.array(z.object({ target: z.string(), line })),
});

// ---------- anything else ----------

const unknownBody = z.object({
  kind: z.literal('unknown'),
  reason: z.string(),
  sections: z.array(SectionSchema),
});

const outlineCommon = {
  /** The path the caller gave (root-relative or absolute). */
  path: z.string(),
  lineCount: z.number().int().min(0),
  diagnostics: z.array(ParsedDiagnosticSchema),
};
const fileCommon = { ...outlineCommon, source: SourceModelSchema };

export const MemorySummaryParsedSchema = memorySummaryBody.extend(fileCommon);
export const MemoryMdParsedSchema = memoryMdBody.extend(fileCommon);
export const RawMemoriesParsedSchema = rawMemoriesBody.extend(fileCommon);
export const RolloutSummaryParsedSchema = rolloutSummaryBody.extend(fileCommon);
export const SkillParsedSchema = skillBody.extend(fileCommon);
export const AdHocNoteParsedSchema = adHocNoteBody.extend(fileCommon);
export const ExtensionManifestParsedSchema = extensionManifestBody.extend(fileCommon);
export const ExtensionScopeParsedSchema = extensionScopeBody.extend(fileCommon);
export const ExtensionInstructionsParsedSchema = extensionInstructionsBody.extend(fileCommon);
export const WorkspaceDiffParsedSchema = workspaceDiffBody.extend(fileCommon);
export const ClaudeMemoryIndexParsedSchema = claudeMemoryIndexBody.extend(fileCommon);
export const ClaudeMemoryTopicParsedSchema = claudeMemoryTopicBody.extend(fileCommon);
export const UnknownParsedSchema = unknownBody.extend(fileCommon);

/** A parsed memory file: the outline of its kind, diagnostics, and the exact source lines. */
export const ParsedFileSchema = z.discriminatedUnion('kind', [
  MemorySummaryParsedSchema,
  MemoryMdParsedSchema,
  RawMemoriesParsedSchema,
  RolloutSummaryParsedSchema,
  SkillParsedSchema,
  AdHocNoteParsedSchema,
  ExtensionManifestParsedSchema,
  ExtensionScopeParsedSchema,
  ExtensionInstructionsParsedSchema,
  WorkspaceDiffParsedSchema,
  ClaudeMemoryIndexParsedSchema,
  ClaudeMemoryTopicParsedSchema,
  UnknownParsedSchema,
]);
export type ParsedFile = z.infer<typeof ParsedFileSchema>;

/** The same result without `source` (what a UI needs for an outline, when it already has the text). */
export const ParsedOutlineSchema = z.discriminatedUnion('kind', [
  memorySummaryBody.extend(outlineCommon),
  memoryMdBody.extend(outlineCommon),
  rawMemoriesBody.extend(outlineCommon),
  rolloutSummaryBody.extend(outlineCommon),
  skillBody.extend(outlineCommon),
  adHocNoteBody.extend(outlineCommon),
  extensionManifestBody.extend(outlineCommon),
  extensionScopeBody.extend(outlineCommon),
  extensionInstructionsBody.extend(outlineCommon),
  workspaceDiffBody.extend(outlineCommon),
  claudeMemoryIndexBody.extend(outlineCommon),
  claudeMemoryTopicBody.extend(outlineCommon),
  unknownBody.extend(outlineCommon),
]);
export type ParsedOutline = z.infer<typeof ParsedOutlineSchema>;

export type ParsedOf<K extends ParsedKind> = Extract<ParsedFile, { kind: K }>;
export type MemorySummaryParsed = ParsedOf<'memory_summary'>;
export type MemoryMdParsed = ParsedOf<'memory_md'>;
export type RawMemoriesParsed = ParsedOf<'raw_memories'>;
export type RolloutSummaryParsed = ParsedOf<'rollout_summary'>;
export type SkillParsed = ParsedOf<'skill'>;
export type AdHocNoteParsed = ParsedOf<'ad_hoc_note'>;
export type ExtensionManifestParsed = ParsedOf<'extension_manifest'>;
export type ExtensionScopeParsed = ParsedOf<'extension_scope'>;
export type ExtensionInstructionsParsed = ParsedOf<'extension_instructions'>;
export type WorkspaceDiffParsed = ParsedOf<'workspace_diff'>;
export type ClaudeMemoryIndexParsed = ParsedOf<'claude_memory_index'>;
export type ClaudeMemoryTopicParsed = ParsedOf<'claude_memory_topic'>;
export type UnknownParsed = ParsedOf<'unknown'>;
