// The single contract between the renderer and main (IPC) or the serve host (HTTP): channels and events.
import { CHANNEL_NAMES } from './channel-names';
import { z } from 'zod';
import { AppInfoSchema, FileContentSchema, FileListSchema, HomeInfoSchema, MemoryVersionSchema } from './domain';
import type { Result } from './result';
import { BudgetReportSchema } from './budget';
import { ParsedOutlineSchema } from './formats';
import { CoverageInputSchema, CoverageReportSchema } from './coverage';
import { HealthReportSchema } from './health';
import { ProjectLensSchema, RolloutTableSchema } from './inspect';
import { LintReportSchema } from './lint';
import { AgentConnectionSchema, AgentNameSchema } from './agents';
import { CitedByEntrySchema, LineProvenanceSchema, NeverCitedReportSchema, PointerResolutionSchema } from './provenance';
import { SessionReadingSchema } from './sessions';
import { SyncInitInputSchema, SyncPullResultSchema, SyncPushResultSchema, SyncSettingsViewSchema, SyncStatusSchema } from './sync';
import {
  EngineNameSchema,
  EngineSettingsSchema,
  EngineSettingsViewSchema,
  InputPreviewSchema,
  RunIdSchema,
  RunStatusSchema,
} from './consolidate';
import {
  DoctorExplanationSchema,
  DoctorFileSchema,
  DoctorOptionsSchema,
  DoctorReportSchema,
  ENTRY_ID,
  FINDING_ID,
  FIX_ID,
  STALE_GROUP_ID,
} from './doctor';
import {
  DetectionSchema,
  FileTextInputSchema,
  FileTextSchema,
  ImportDraftSchema,
  ImportOutcomeSchema,
  ImportPlanInputSchema,
  ImportPlanSchema,
  ImportSourceOptionsSchema,
} from './import';
import {
  BlockHitSchema,
  BlocksInputSchema,
  IndexStatusSchema,
  SearchInputSchema,
  SearchResultSchema,
  searchProjectsSchema,
} from './search';
import {
  AppliedProposalSchema,
  BaselineDiffSchema,
  BaselineFileDiffSchema,
  DecisionMapSchema,
  EditMapSchema,
  FileBlocksSchema,
  FileTextsSchema,
  HistoryDiffSchema,
  HistoryEntryDiffSchema,
  HistoryEntrySchema,
  MergeTextsSchema,
  ProposalListSchema,
  ProposalResultSchema,
  ProposalSchema,
  ProposalStalenessSchema,
  ProposalStatusSchema,
  RebaseOutcomeSchema,
} from './review';

/** A request channel: its input and output schema. Channel names are `area.verb`. */
export interface ChannelSpec<I extends z.ZodTypeAny = z.ZodTypeAny, O extends z.ZodTypeAny = z.ZodTypeAny> {
  input: I;
  output: O;
}

const channel = <I extends z.ZodTypeAny, O extends z.ZodTypeAny>(input: I, output: O): ChannelSpec<I, O> => ({
  input,
  output,
});

const Empty = z.object({}).strict();

/** Relative path inside a root, as the renderer sends it; core re-checks it against the disk. */
export const RelativePathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'path contains a NUL byte');

/** One secret finding to redact, as `inspect.lint` reported it. */
const RedactSecretSchema = z
  .object({
    rule: z
      .string()
      .regex(/^secrets\//, 'not a secret rule')
      .max(200),
    line: z.number().int().min(1),
    startColumn: z.number().int().min(1).optional(),
  })
  .strict();

const ProposalIdSchema = z.string().regex(/^p-[0-9a-f]{6,32}$/, 'not a proposal id');
const HistoryIdSchema = z.string().regex(/^e-[0-9a-f]{6,32}$/, 'not a history entry id');

export const channels = {
  'app.info': channel(Empty, AppInfoSchema),
  /**
   * Electron: main's native dialog picks a folder (a promotion's project, an import's source home) or Cursor's
   * state.vscdb, and the service trusts that path for that purpose; a page never names such a path by itself.
   * `path` is null when the dialog was cancelled. Serve and the CLI answer Unsupported.
   */
  'app.choosePath': channel(
    z.object({ purpose: z.enum(['project', 'import-source', 'cursor-db', 'repo']) }).strict(),
    z.object({ path: z.string().nullable() }),
  ),
  'home.get': channel(Empty, HomeInfoSchema),
  'home.openDemo': channel(Empty, HomeInfoSchema),
  /** Returns from a demo home to the one the app started with. */
  'home.leaveDemo': channel(Empty, HomeInfoSchema),
  'workspace.list': channel(z.object({ version: MemoryVersionSchema }).strict(), FileListSchema),
  'workspace.read': channel(z.object({ version: MemoryVersionSchema, path: RelativePathSchema }).strict(), FileContentSchema),
  'inspect.parse': channel(z.object({ version: MemoryVersionSchema, path: RelativePathSchema }).strict(), ParsedOutlineSchema),
  'inspect.budget': channel(
    z.object({ version: MemoryVersionSchema, limitTokens: z.number().int().min(1).max(1_000_000).optional() }).strict(),
    BudgetReportSchema,
  ),
  /** A whole root, or with `path` only that file (with the root-level checks that concern it). */
  'inspect.lint': channel(z.object({ version: MemoryVersionSchema, path: RelativePathSchema.optional() }).strict(), LintReportSchema),
  'inspect.health': channel(Empty, HealthReportSchema),
  'inspect.rollouts': channel(z.object({ version: MemoryVersionSchema }).strict(), RolloutTableSchema),
  'inspect.projects': channel(z.object({ version: MemoryVersionSchema }).strict(), ProjectLensSchema),
  /**
   * The coverage ledger (read only): every session of Codex's thread catalog with its stage in one version's memory
   * pipeline (default: the version Codex writes), the consolidation job's state, and the DB problems met.
   */
  'coverage.get': channel(CoverageInputSchema.strict(), CoverageReportSchema),
  /**
   * Repairs, proposed (never written here): a failed or exhausted extraction made claimable again (`retry`), and a
   * consolidation job stuck running under an ended lease or held back by a retry time set pending (`reclaim`).
   */
  'coverage.retry': channel(
    z.object({ version: MemoryVersionSchema.optional(), threadId: z.string().min(1).max(200) }).strict(),
    ProposalSchema,
  ),
  'coverage.reclaim': channel(z.object({ version: MemoryVersionSchema.optional() }).strict(), ProposalSchema),
  'provenance.pointer': channel(
    z.object({ version: MemoryVersionSchema, file: RelativePathSchema, threadIdHint: z.string().max(200).optional() }).strict(),
    PointerResolutionSchema,
  ),
  'provenance.citedBy': channel(z.object({ version: MemoryVersionSchema, path: RelativePathSchema }).strict(), z.array(CitedByEntrySchema)),
  'provenance.neverCited': channel(z.object({ version: MemoryVersionSchema }).strict(), NeverCitedReportSchema),
  /** One line of a memory file traced back: its entry, the rollout summaries and sessions behind it, the citations of it. */
  'provenance.line': channel(
    z.object({ version: MemoryVersionSchema, path: RelativePathSchema, line: z.number().int().min(1).max(100_000_000) }).strict(),
    LineProvenanceSchema,
  ),
  /** A session rollout of this home (sessions/ or archived_sessions/ only), by thread id. */
  'provenance.session': channel(z.object({ threadId: z.string().min(1).max(200) }).strict(), SessionReadingSchema),
  'review.list': channel(z.object({ status: ProposalStatusSchema.optional() }).strict(), ProposalListSchema),
  'review.get': channel(z.object({ id: ProposalIdSchema }).strict(), ProposalSchema),
  /** A hand edit of one file becomes a proposal; nothing is written until it is applied. */
  'review.propose': channel(
    z
      .object({
        version: MemoryVersionSchema,
        path: RelativePathSchema,
        content: z.string().max(32 * 1024 * 1024),
        title: z.string().max(200).optional(),
        /** What the change is for, shown with the proposal (its note). */
        description: z.string().max(2000).optional(),
        /** Further files of the same change, in the same root: one proposal, one review, one Apply. */
        more: z
          .array(z.object({ path: RelativePathSchema, content: z.string().max(32 * 1024 * 1024) }).strict())
          .max(100)
          .optional(),
      })
      .strict(),
    ProposalSchema,
  ),
  /**
   * Redacts secrets as one proposal: core scans the files on disk again and replaces each named finding (rule and
   * position, as `inspect.lint` reported it), or every finding of the file (`all: 'file'`) or of every Markdown file of
   * the root (`all: 'root'`), with Codex's redaction marker, keeping every line ending.
   */
  'review.redact': channel(
    z.union([
      z.object({ version: MemoryVersionSchema, path: RelativePathSchema, secrets: z.array(RedactSecretSchema).min(1).max(500) }).strict(),
      z.object({ version: MemoryVersionSchema, path: RelativePathSchema, all: z.literal('file') }).strict(),
      z.object({ version: MemoryVersionSchema, all: z.literal('root') }).strict(),
    ]),
    ProposalSchema,
  ),
  /** A new ad-hoc note (Codex's supported channel for user edits), as a proposal. */
  'review.note': channel(
    z
      .object({
        version: MemoryVersionSchema,
        slug: z.string().min(1).max(80),
        text: z
          .string()
          .min(1)
          .max(1024 * 1024),
      })
      .strict(),
    ProposalSchema,
  ),
  /**
   * An agent's memory (an MCP client's memory_propose) as a pending proposal of source `agent`: without `file` a new
   * ad-hoc note, with `file` that file's complete new content. Refused past `maxPerHour` proposals of this client in
   * the last hour, and when the text holds a secret.
   */
  'review.agentPropose': channel(
    z
      .object({
        version: MemoryVersionSchema,
        text: z
          .string()
          .min(1)
          .max(256 * 1024),
        title: z.string().max(120).optional(),
        file: RelativePathSchema.optional(),
        project: z.string().max(4096).optional(),
        client: z.object({ name: z.string().min(1).max(200), version: z.string().max(100).nullable() }).strict(),
        maxPerHour: z.number().int().min(1).max(10_000),
      })
      .strict(),
    ProposalSchema,
  ),
  /** A person opened an agent's proposal: it no longer counts as new (the Review tab's badge). */
  'review.seen': channel(z.object({ id: ProposalIdSchema }).strict(), ProposalSchema),
  /** Accept/reject per change hunk, theirs/ours/both/edit per conflict hunk (`edits` carries the hand-written text). */
  'review.decide': channel(
    z
      .object({
        id: ProposalIdSchema,
        files: z.array(
          z.object({ ord: z.number().int().nonnegative(), decisions: DecisionMapSchema, edits: EditMapSchema.optional() }).strict(),
        ),
      })
      .strict(),
    ProposalSchema,
  ),
  /** Exactly what Apply would write, from the decisions so far; `content: false` leaves the texts out (the counts stay). */
  'review.result': channel(z.object({ id: ProposalIdSchema, content: z.boolean().optional() }).strict(), ProposalResultSchema),
  'review.apply': channel(z.object({ id: ProposalIdSchema }).strict(), AppliedProposalSchema),
  /** "Forget this session" as Codex's own forget does it: a proposal of Codex-DB changes, applied under the lease. */
  'review.forget': channel(z.object({ threadId: z.string().min(1).max(200) }).strict(), ProposalSchema),
  'review.reject': channel(z.object({ id: ProposalIdSchema, note: z.string().max(2000).optional() }).strict(), ProposalSchema),
  /** Three-way merge of what changed on disk into the proposal; overlapping changes become conflict hunks to resolve. */
  'review.rebase': channel(z.object({ id: ProposalIdSchema }).strict(), RebaseOutcomeSchema),
  /** Files of a pending proposal whose disk content is no longer their base ("changed on disk since you proposed it"). */
  'review.stale': channel(z.object({ id: ProposalIdSchema }).strict(), ProposalStalenessSchema),
  /** One file's merge base, disk-at-rebase and own proposed content: the three sides of its conflicts. */
  /** One file's blocks (task groups, summary sections and entries, raw memories, skill sections) matched between base and proposal, with its hunks assigned. */
  'review.blocks': channel(z.object({ id: ProposalIdSchema, ord: z.number().int().nonnegative() }).strict(), FileBlocksSchema),
  'review.mergeTexts': channel(z.object({ id: ProposalIdSchema, ord: z.number().int().nonnegative() }).strict(), MergeTextsSchema),
  /** One file's base and proposed content (a proposal's answer carries hunks only): the whole-file view, editing the result. */
  'review.fileTexts': channel(z.object({ id: ProposalIdSchema, ord: z.number().int().nonnegative() }).strict(), FileTextsSchema),
  /** Replaces one file's proposed content (e.g. fixing a consolidation result that fails validation); its decisions reset. */
  'review.revise': channel(
    z.object({ id: ProposalIdSchema, ord: z.number().int().nonnegative(), content: z.string().max(32 * 1024 * 1024) }).strict(),
    ProposalSchema,
  ),
  'history.list': channel(
    z.object({ version: MemoryVersionSchema.optional(), path: RelativePathSchema.optional() }).strict(),
    z.array(HistoryEntrySchema),
  ),
  'history.diff': channel(z.object({ from: HistoryIdSchema, to: HistoryIdSchema, path: RelativePathSchema }).strict(), HistoryDiffSchema),
  /** One file of one entry, before -> after the entry (apply, external or revert); `root` picks the folder when both hold the path. */
  'history.entryDiff': channel(
    z.object({ entryId: HistoryIdSchema, path: RelativePathSchema, root: z.string().max(4096).optional() }).strict(),
    HistoryEntryDiffSchema,
  ),
  'history.sinceBaseline': channel(z.object({ version: MemoryVersionSchema }).strict(), BaselineDiffSchema),
  /** One file of "since the last consolidation": the baseline's content and the live one, with hunks (read only). */
  'history.baselineFile': channel(z.object({ version: MemoryVersionSchema, path: RelativePathSchema }).strict(), BaselineFileDiffSchema),
  /** Reverting an entry makes a new proposal (source `revert`), reviewed like any other. */
  'history.revert': channel(z.object({ entryId: HistoryIdSchema }).strict(), ProposalSchema),
  /** Codex's phase-2 inputs for a root as a run would see them now (read only). */
  'consolidate.preview': channel(
    z.object({ version: MemoryVersionSchema, engine: EngineNameSchema.optional() }).strict(),
    InputPreviewSchema,
  ),
  /** Starts a run (select, stage, engine, validate, diff); progress arrives as `consolidate.progress` events. */
  'consolidate.start': channel(
    z.object({ version: MemoryVersionSchema, engine: EngineNameSchema.optional(), model: z.string().max(200).optional() }).strict(),
    RunStatusSchema,
  ),
  'consolidate.status': channel(z.object({ id: RunIdSchema }).strict(), RunStatusSchema),
  /** Runs of this session, newest first. */
  'consolidate.runs': channel(Empty, z.array(RunStatusSchema)),
  /** Cancels in any phase; the live files stay untouched and Codex's lease row is restored. */
  'consolidate.cancel': channel(z.object({ id: RunIdSchema }).strict(), RunStatusSchema),
  'consolidate.settings': channel(Empty, EngineSettingsViewSchema),
  /**
   * Saves the settings. The codex command never comes this way (Electron: consolidate.chooseCodexCommand; serve: the
   * command line); in serve mode neither do the base URL and the API key variable, which decide where the key goes.
   */
  'consolidate.saveSettings': channel(z.object({ settings: EngineSettingsSchema }).strict(), EngineSettingsViewSchema),
  /** Electron: main opens a native file dialog, checks the pick answers `--version` as codex-cli, and saves it. */
  'consolidate.chooseCodexCommand': channel(Empty, EngineSettingsViewSchema),
  /** Keeps an OpenAI-compatible API key in the OS keychain (Electron's safeStorage); `null` forgets it. */
  'consolidate.setApiKey': channel(z.object({ apiKey: z.string().min(1).max(4096).nullable() }).strict(), EngineSettingsViewSchema),
  /** Ranked full-text search (BM25) over every memory file of the home, with kind/version/project filters. */
  'search.query': channel(SearchInputSchema, SearchResultSchema),
  /** Named places for the command palette: MEMORY.md blocks and tasks, summary scopes, headings, rollout titles. */
  'search.blocks': channel(BlocksInputSchema, z.array(BlockHitSchema)),
  /** Projects the index knows, for the search view's filter. */
  'search.projects': channel(Empty, searchProjectsSchema),
  /** The index: building (with progress), ready, cancelled or off (with why). */
  'index.status': channel(Empty, IndexStatusSchema),
  /** Stops a build; what it indexed is kept, and the app reads the files directly until `index.resume`. */
  'index.cancel': channel(Empty, IndexStatusSchema),
  'index.resume': channel(Empty, IndexStatusSchema),
  /** Which agents (Codex, Claude Code, Cursor) start `memory-studio mcp`, each with its configuration file (read only). */
  'agents.status': channel(Empty, z.array(AgentConnectionSchema)),
  /**
   * Connects one: its own MCP configuration with the server added (or our old entry replaced) as a pending proposal of
   * source `connect` whose file is an `agent-config` target. The command written is the host's, never the caller's.
   */
  'agents.connect': channel(z.object({ agent: AgentNameSchema }).strict(), ProposalSchema),
  // import channels (issue 6) go here
  /** What a source holds: homes, projects with counts, everything skipped with the reason (read only). */
  'import.detect': channel(ImportSourceOptionsSchema.strict(), DetectionSchema),
  /** The full plan for the chosen projects and choices: files, front matter, secret findings, targets, exact writes (read only). */
  'import.plan': channel(ImportPlanInputSchema, ImportPlanSchema),
  /** The plan as a pending proposal (source `import`), or "nothing to import"; refused while a secret finding is unresolved. */
  'import.propose': channel(ImportPlanInputSchema, ImportOutcomeSchema),
  /** One file's texts (as it will be written, and as read) when a large plan left them out. */
  'import.fileText': channel(FileTextInputSchema, FileTextSchema),
  /** The wizard's saved state, or null. */
  'import.draft': channel(Empty, ImportDraftSchema.nullable()),
  'import.saveDraft': channel(z.object({ draft: ImportDraftSchema.omit({ savedAt: true }) }).strict(), ImportDraftSchema),
  'import.clearDraft': channel(Empty, z.object({ cleared: z.boolean() })),
  /** The memory doctor: duplicates, AGENTS.md / CLAUDE.md overlaps, stale and oversize entries (read only). */
  'doctor.run': channel(DoctorOptionsSchema.strict(), DoctorReportSchema),
  /** One fix of a finding (`<finding id>.<action>`) as a pending proposal; the doctor runs again first. */
  'doctor.fix': channel(
    DoctorOptionsSchema.extend({
      fixId: z.string().regex(FIX_ID, 'not a fix id'),
      project: z.string().min(1).max(4096).optional(),
    }).strict(),
    ProposalSchema,
  ),
  /** Every entry of a stale group (`sgrp-…`) retired in one pending proposal; the doctor runs again first. */
  'doctor.fixGroup': channel(
    DoctorOptionsSchema.extend({ groupId: z.string().regex(STALE_GROUP_ID, 'not a stale group id') }).strict(),
    ProposalSchema,
  ),
  /** One entry into its project's AGENTS.md, removed from memory in the same proposal. */
  'doctor.promote': channel(
    z
      .object({
        version: MemoryVersionSchema,
        file: DoctorFileSchema,
        /** The entry's id from the report, or a line inside it. */
        entryId: z.string().regex(ENTRY_ID, 'not an entry id').optional(),
        line: z.number().int().min(1).optional(),
        project: z.string().min(1).max(4096).optional(),
      })
      .strict()
      .refine((v) => (v.entryId === undefined) !== (v.line === undefined), 'give the entry id or a line, not both'),
    ProposalSchema,
  ),
  /** The openai engine's reading of a finding (needs the engine's settings and key; nothing changes). */
  'doctor.explain': channel(
    DoctorOptionsSchema.extend({ findingId: z.string().regex(FINDING_ID, 'not a finding id') }).strict(),
    DoctorExplanationSchema,
  ),
  /** A duplicate cluster merged by the openai engine's model, as a pending proposal. */
  'doctor.modelMerge': channel(
    DoctorOptionsSchema.extend({ findingId: z.string().regex(FINDING_ID, 'not a finding id') }).strict(),
    ProposalSchema,
  ),
  /** Sync through a git remote: the settings, the last push and pull, what a push would publish or hold back (no network). */
  'sync.status': channel(Empty, SyncStatusSchema),
  /** Names the remote and this machine's (or person's) folder; proves the remote answers before recording anything. */
  'sync.init': channel(SyncInitInputSchema, SyncSettingsViewSchema),
  /** Publishes this machine's curated memory; files with a possible secret are held back and named. */
  'sync.push': channel(Empty, SyncPushResultSchema),
  /** Fetches what others published and proposes it as an import (a pending proposal to review), or nothing new. */
  'sync.pull': channel(Empty, SyncPullResultSchema),
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>;

export const events = {
  /** Files of a root changed on disk (Codex rewrote them, or an Apply landed). */
  'workspace.changed': z.object({ version: MemoryVersionSchema, paths: z.array(z.string()) }),
  /** The session switched to another Codex home (for example the demo). */
  'home.changed': z.object({ codexHome: z.string() }),
  /** A consolidation run moved on (phase, progress, log line, end state). */
  'consolidate.progress': RunStatusSchema,
  /** The index's build moved on (at most ten a second), finished, was cancelled or turned off. */
  'index.progress': IndexStatusSchema,
  // import events (issue 6) go here
  /** A push, pull or init moved on a step ("Fetching from …", "Pushing 12 files …"), for the Sync view's progress line. */
  'sync.progress': z.object({ step: z.enum(['init', 'push', 'pull']), line: z.string() }),
} as const;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
export type EventEnvelope = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];

export const channelNames: readonly ChannelName[] = CHANNEL_NAMES;
export const eventNames = Object.keys(events) as EventName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

type Split<S extends string> = S extends `${infer A}.${infer B}` ? [A, B] : never;
type AreaOf<C extends ChannelName> = Split<C>[0];
type VerbOf<C extends ChannelName> = Split<C>[1];

/** The typed API the renderer sees: `studio.workspace.read({ version, path })`. */
export type StudioApi = {
  [A in AreaOf<ChannelName>]: {
    [C in ChannelName as AreaOf<C> extends A ? VerbOf<C> : never]: (input: ChannelInput<C>) => Promise<Result<ChannelOutput<C>>>;
  };
} & {
  onEvent(listener: (envelope: EventEnvelope) => void): () => void;
};

export { buildApi, IPC_EVENT_CHANNEL, IPC_PREFIX } from './channel-names';

// channel-names.ts (what the preload bundles) must name exactly these channels: a channel added here and not there,
// or the reverse, fails the typecheck.
type Listed = (typeof CHANNEL_NAMES)[number];
export const channelNamesMatch: [Exclude<ChannelName, Listed>, Exclude<Listed, ChannelName>] extends [never, never] ? true : false = true;
