// Consolidation on demand: the input preview, engine settings and the state of a run, as they cross the contract.
import { z } from 'zod';
import { MemoryVersionSchema } from './domain';
import { LintDiagnosticSchema } from './lint';
import { StudioErrorSchema } from './result';

export const engineNames = ['builtin', 'codex', 'openai'] as const;
export const EngineNameSchema = z.enum(engineNames);
export type EngineName = z.infer<typeof EngineNameSchema>;

export const runPhases = ['select', 'stage', 'engine', 'validate', 'diff'] as const;
export const RunPhaseSchema = z.enum(runPhases);
export type RunPhase = z.infer<typeof RunPhaseSchema>;

/** One selected stage-1 row, as Codex's `get_phase2_input_selection` returns it (thread_id ascending). */
export const SelectedInputSchema = z.object({
  threadId: z.string(),
  /** `rollout_summaries/<stem>.md` as Codex names it. */
  stem: z.string(),
  sourceUpdatedAt: z.number().int(),
  usageCount: z.number().int().nullable(),
  lastUsage: z.number().int().nullable(),
  cwd: z.string().nullable(),
  /** Bytes of the rollout summary file Codex would write for this row. */
  bytes: z.number().int().nonnegative(),
  /** Whether Codex's last consolidation already consumed this exact row (`selected_for_phase2`). */
  previouslySelected: z.boolean(),
});
export type SelectedInput = z.infer<typeof SelectedInputSchema>;

/** Codex's global lease as a manual run sees it: only a live lease held by someone else refuses the run. */
export const LeaseViewSchema = z.object({
  /** `held-by-dead-studio`: a Memory Studio process of this machine that is gone left it held (a run takes it over). */
  state: z.enum(['free', 'held', 'held-by-studio', 'held-by-dead-studio', 'no-db']),
  holder: z.string().nullable(),
  leaseUntil: z.number().int().nullable(),
  /** Unix seconds when Codex's own 6 h success cooldown ends (null when none); it does not bind a manual run. */
  cooldownUntil: z.number().int().nullable(),
  retryAt: z.number().int().nullable(),
  status: z.string().nullable(),
  /** One sentence for the person: can a run start now, and why (not). */
  message: z.string(),
});
export type LeaseView = z.infer<typeof LeaseViewSchema>;

export const InputCountSchema = z.object({
  count: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  paths: z.array(z.string()),
});
export type InputCount = z.infer<typeof InputCountSchema>;

/** An input of a run that holds a secret: where (root-relative path, 1-based lines) and what it looks like; never the secret. */
export const InputSecretSchema = z.object({
  path: z.string(),
  lines: z.array(z.number().int().min(1)),
  /** In words: "an AWS access key id". */
  kinds: z.array(z.string()),
});
export type InputSecret = z.infer<typeof InputSecretSchema>;

export const InputPreviewSchema = z.object({
  version: MemoryVersionSchema,
  root: z.string(),
  engine: EngineNameSchema,
  /** The model the engine would use (null for builtin). */
  model: z.string().nullable(),
  selection: z.object({
    rows: z.array(SelectedInputSchema),
    /** Rows that passed the blank/usage/age filters before the limit. */
    eligible: z.number().int().nonnegative(),
    limit: z.number().int().positive(),
    maxUnusedDays: z.number().int().nonnegative(),
    /** Rows left out because their thread is no longer `enabled` (disabled, polluted, or unknown to the state DB). */
    excludedNotEnabled: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    /** Files the sync would add to / remove from `rollout_summaries/`. */
    added: z.array(z.string()),
    removed: z.array(z.string()),
  }),
  adHocNotes: InputCountSchema,
  extensionResources: InputCountSchema.extend({ expired: z.array(z.string()) }),
  imports: InputCountSchema.extend({ projects: z.array(z.string()) }),
  handEdits: z.object({
    hasBaseline: z.boolean(),
    files: z.array(z.object({ path: z.string(), status: z.enum(['added', 'modified', 'deleted']) })),
  }),
  tokens: z.object({ in: z.number().int().nonnegative(), out: z.number().int().nonnegative() }),
  /**
   * Inputs that hold a secret (the selection's rollout summaries and raw memories as the sync would write them, notes,
   * resources, imports, hand edits, the files a run folds into), by path. No engine reads one: staging writes each as
   * `[REDACTED_SECRET]` before any engine runs (`consolidate/hidden-secrets.ts`), and a result that still holds one fails
   * validation.
   */
  secrets: z.array(InputSecretSchema),
  lease: LeaseViewSchema,
  /** Problems that do not stop a run (an unreadable DB means an empty selection, and so on). */
  notes: z.array(z.string()),
});
export type InputPreview = z.infer<typeof InputPreviewSchema>;

/** Engine settings kept in the data folder; the API key is never part of them (environment or OS keychain only). */
export const EngineSettingsSchema = z.object({
  engine: EngineNameSchema,
  codex: z.object({
    /** Path of the `codex` executable; null means the first `codex` on PATH. */
    command: z.string().max(4096).nullable(),
    model: z.string().max(200).nullable(),
    timeoutSeconds: z
      .number()
      .int()
      .min(10)
      .max(24 * 3600),
  }),
  openai: z.object({
    baseUrl: z.string().max(2048),
    model: z.string().max(200),
    /** Environment variable holding the API key (default OPENAI_API_KEY). */
    apiKeyEnv: z.string().max(200),
    timeoutSeconds: z.number().int().min(5).max(3600),
    maxRetries: z.number().int().min(0).max(10),
  }),
});
export type EngineSettings = z.infer<typeof EngineSettingsSchema>;

/** Where the OpenAI-compatible key would come from right now; the key itself never crosses the contract. */
export const ApiKeyStatusSchema = z.object({
  source: z.enum(['env', 'keychain', 'none']),
  /** Whether this host can keep a key in the OS keychain (Electron's safeStorage). */
  keychainAvailable: z.boolean(),
  message: z.string(),
});
export type ApiKeyStatus = z.infer<typeof ApiKeyStatusSchema>;

/** Who may change the settings that run a program or decide where the key is sent, and where the key would go. */
export const EngineTrustSchema = z.object({
  /** The base URL and the key variable can be changed from the UI (Electron; never over HTTP in serve mode). */
  keyTargetEditable: z.boolean(),
  /** The codex command can be picked with main's native file dialog (Electron); it is never typed in the UI. */
  canChooseCodexCommand: z.boolean(),
  /** The host the OpenAI-compatible engine sends the key to (`api.openai.com`, `127.0.0.1:8080`). */
  keyHost: z.string(),
  /** How to change what the UI cannot, in words (serve mode's command-line flags); null when nothing is locked. */
  note: z.string().nullable(),
});
export type EngineTrust = z.infer<typeof EngineTrustSchema>;

export const EngineSettingsViewSchema = z.object({ settings: EngineSettingsSchema, apiKey: ApiKeyStatusSchema, trust: EngineTrustSchema });
export type EngineSettingsView = z.infer<typeof EngineSettingsViewSchema>;

/** Run and phase times are milliseconds since the epoch; lease and cooldown times are Codex's unix seconds. */
export const PhaseStateSchema = z.object({
  phase: RunPhaseSchema,
  state: z.enum(['pending', 'running', 'done', 'failed', 'cancelled', 'skipped']),
  startedAt: z.number().int().nullable(),
  endedAt: z.number().int().nullable(),
  detail: z.string().nullable(),
});
export type PhaseState = z.infer<typeof PhaseStateSchema>;

export const RunStateSchema = z.enum(['running', 'cancelling', 'cancelled', 'failed', 'proposed', 'unchanged']);
export type RunState = z.infer<typeof RunStateSchema>;

export const ValidationSchema = z.object({
  ok: z.boolean(),
  /** Codex's own artifact checks and our lint, per file of the staged result. */
  diagnostics: z.array(LintDiagnosticSchema.extend({ path: z.string() })),
});
export type Validation = z.infer<typeof ValidationSchema>;

export const RunStatusSchema = z.object({
  id: z.string(),
  version: MemoryVersionSchema,
  engine: EngineNameSchema,
  model: z.string().nullable(),
  state: RunStateSchema,
  phase: RunPhaseSchema,
  phases: z.array(PhaseStateSchema),
  /** 0..1 over the whole run. */
  progress: z.number().min(0).max(1),
  message: z.string(),
  /** The last engine events, newest last (commands the codex agent ran, stream progress, ...). */
  log: z.array(z.string()),
  startedAt: z.number().int(),
  endedAt: z.number().int().nullable(),
  stagingDir: z.string().nullable(),
  proposalId: z.string().nullable(),
  validation: ValidationSchema.nullable(),
  error: StudioErrorSchema.nullable(),
  lease: z.object({ held: z.boolean(), leaseUntil: z.number().int().nullable(), note: z.string() }),
});
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const RunIdSchema = z.string().regex(/^c-[0-9a-f]{6,32}$/, 'not a consolidation run id');
