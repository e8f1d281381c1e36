// Workspace lint results: Codex's own validators, the secret scan, and rules merged in from the format parsers.
import { z } from 'zod';
import { FileKindSchema, MemoryVersionSchema } from './domain';

export const LintSeveritySchema = z.enum(['error', 'warning', 'info']);
export type LintSeverity = z.infer<typeof LintSeveritySchema>;

/**
 * One mechanical edit on a file's lines, the same shape and meaning as the format parsers' `TextEdit`
 * (`shared/formats.ts`): after the byte-order mark, if any, lines `line`..`endLine` (1-based, inclusive; LF,
 * CRLF or a lone CR end a line) are replaced by `text` (lines separated by `\n`, written back with the file's
 * own line ending). A pure insertion before `line` uses `endLine = line - 1`; an empty `text` on a non-empty
 * range deletes the lines.
 */
export const LintEditSchema = z.object({
  line: z.number().int().min(1),
  endLine: z.number().int().min(0),
  /** With `endColumn`: only this span is replaced (1-based UTF-16 columns, the end exclusive), as in `TextEditSchema`. */
  startColumn: z.number().int().min(1).optional(),
  endColumn: z.number().int().min(1).optional(),
  text: z.string(),
});
export type LintEdit = z.infer<typeof LintEditSchema>;

export const LintFixSchema = z.object({
  description: z.string(),
  edits: z.array(LintEditSchema),
});
export type LintFix = z.infer<typeof LintFixSchema>;

export const LintDiagnosticSchema = z.object({
  severity: LintSeveritySchema,
  /** `<area>/<name>`: `codex/…` (Codex's own validators reject it), `secrets/…`, or a parser's rule id. */
  rule: z.string(),
  line: z.number().int().min(1),
  endLine: z.number().int().min(1),
  /** 1-based UTF-16 columns (Monaco's), the end exclusive; set when the rule points inside a line. */
  startColumn: z.number().int().min(1).optional(),
  endColumn: z.number().int().min(1).optional(),
  message: z.string(),
  fix: LintFixSchema.optional(),
});
export type LintDiagnostic = z.infer<typeof LintDiagnosticSchema>;

export const LintFileReportSchema = z.object({
  /** Root-relative, `/`-separated; `.` for the root folder itself. */
  path: z.string(),
  kind: FileKindSchema.optional(),
  diagnostics: z.array(LintDiagnosticSchema),
});
export type LintFileReport = z.infer<typeof LintFileReportSchema>;

export const LintCountsSchema = z.object({
  error: z.number().int().min(0),
  warning: z.number().int().min(0),
  info: z.number().int().min(0),
});
export type LintCounts = z.infer<typeof LintCountsSchema>;

export const LintReportSchema = z.object({
  version: MemoryVersionSchema,
  /** Only files with at least one diagnostic, sorted by path. */
  files: z.array(LintFileReportSchema),
  counts: LintCountsSchema,
  /** Markdown files whose text was scanned. */
  scannedFiles: z.number().int().min(0),
});
export type LintReport = z.infer<typeof LintReportSchema>;

/**
 * `secrets/<name>`: Codex's own redaction rules (`bearer-token`, `openai-key`, `aws-access-key-id`,
 * `secret-assignment`), Memory Studio's (`openai-project-key`, `github-token`, `gitlab-token`, `slack-token`,
 * `slack-webhook`, `private-key`, `jwt`, `url-credentials`, `high-entropy-assignment`, `aws-secret-access-key`,
 * `azure-storage-key`), and the adopted gitleaks rules under gitleaks' own ids (`stripe-access-token`, ...).
 */
export const SecretRuleSchema = z.string().regex(/^secrets\/[a-z0-9][a-z0-9-]*$/);
export type SecretRule = z.infer<typeof SecretRuleSchema>;

/** One secret in a text; `line`..`endLine` and the columns cover the secret itself. */
export const SecretFindingSchema = z.object({
  rule: SecretRuleSchema,
  severity: LintSeveritySchema,
  line: z.number().int().min(1),
  endLine: z.number().int().min(1),
  startColumn: z.number().int().min(1),
  endColumn: z.number().int().min(1),
  /** The first 4 characters, then `****`: never the secret itself. */
  preview: z.string(),
  /** True when Codex's own `redact_secrets` would have removed it (it runs only on Phase 1 output, not on consolidated files). */
  codexRedacts: z.boolean(),
  fix: LintFixSchema,
});
export type SecretFinding = z.infer<typeof SecretFindingSchema>;
