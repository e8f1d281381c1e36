// Entry point of the memory-file parsers: pick the kind from the path, parse without ever throwing, serialise back.
import type { ParsedFile, ParsedKind, ParsedOutline } from '../../../shared/formats';
import { parseAdHocNote } from './ad-hoc-note';
import { parseClaudeIndex } from './claude-index';
import { parseClaudeTopic } from './claude-topic';
import { createContext, type Body, type ParseContext } from './context';
import { parseExtensionManifest, parseExtensionScope } from './extension-json';
import { parseExtensionInstructions } from './extension-instructions';
import { pathFacts } from './kind';
import { serializeSource, splitSource } from './lines';
import { parseMemoryMd } from './memory-md';
import { parseRawMemories } from './raw-memories';
import { parseRolloutSummary } from './rollout-summary';
import { parseSkill } from './skill';
import { parseMemorySummary } from './summary';
import { parseUnknown } from './unknown';
import { parseWorkspaceDiff } from './workspace-diff';

export { applyTextEdits, serializeSource, splitSource } from './lines';
export { pathFacts, KIND_BY_FILE_KIND } from './kind';
export { FORMAT_RULES, type FormatRule, type FormatRuleId } from './rules';

export interface ParseOptions {
  /** Root-relative (`MEMORY.md`), CODEX_HOME-relative (`memories_v2/memory_summary.md`) or absolute; `\` is accepted. */
  path: string;
  /** Force a kind instead of deriving it from the path. */
  kind?: ParsedKind;
  /** The memory root's version when the path does not say (`memories_v2/` means v2). */
  version?: 'v1' | 'v2';
}

type AnyBody = { [K in ParsedKind]: Body<K> }[ParsedKind];

const PARSERS: { [K in ParsedKind]: (ctx: ParseContext) => Body<K> } = {
  memory_summary: parseMemorySummary,
  memory_md: parseMemoryMd,
  raw_memories: parseRawMemories,
  rollout_summary: parseRolloutSummary,
  skill: parseSkill,
  ad_hoc_note: parseAdHocNote,
  extension_manifest: parseExtensionManifest,
  extension_scope: parseExtensionScope,
  extension_instructions: parseExtensionInstructions,
  workspace_diff: parseWorkspaceDiff,
  claude_memory_index: parseClaudeIndex,
  claude_memory_topic: parseClaudeTopic,
  unknown: (ctx) =>
    parseUnknown(
      ctx,
      ctx.rel === null ? 'the path is outside a Codex memory root and not a Claude Code memory folder' : `no parser for "${ctx.rel}"`,
    ),
};

function runParser(ctx: ParseContext): AnyBody {
  try {
    return PARSERS[ctx.kind](ctx);
  } catch (error) {
    // A parser bug must not take the caller down: report it as data (tests assert this never happens).
    ctx.diags.error(
      'format/parser-error',
      1,
      1,
      `The ${ctx.kind} parser failed on this file (${(error as Error).message}); showing it as plain text.`,
    );
    return parseUnknown(ctx, `the ${ctx.kind} parser failed`);
  }
}

/** Parses one memory file. Never throws on content: anything odd becomes a diagnostic. */
export function parseMemoryFile(text: string, options: ParseOptions): ParsedFile {
  const source = splitSource(text);
  const facts = pathFacts(options.path, options.kind, options.version);
  const ctx = createContext(text, source, options.path, facts);
  const body = runParser(ctx);
  return { ...body, path: options.path, lineCount: source.lines.length, diagnostics: ctx.diags.finish(), source };
}

/** The exact text a parse result came from: `serializeParsedFile(parseMemoryFile(x, o)) === x` for every `x`. */
export function serializeParsedFile(parsed: Pick<ParsedFile, 'source'>): string {
  return serializeSource(parsed.source);
}

/** The parse result without its `source` lines (for a UI that already holds the text). */
export function outlineOf(parsed: ParsedFile): ParsedOutline {
  const { source: _source, ...outline } = parsed;
  return outline;
}
