// What the index keeps about one file, computed once per content: hash, lint findings, parse facts, blocks and text chunks.
import { appendAll } from '../platform/append';
import { createHash } from 'node:crypto';
import type { FileKind, MemoryVersion } from '../../../shared/domain';
import type { MemoryMdParsed, MemorySummaryParsed, ParsedFile, RawMemoriesParsed } from '../../../shared/formats';
import type { LintDiagnostic } from '../../../shared/lint';
import type { SummaryHeader } from '../../../shared/provenance';
import { computeBudget } from '../budget/budget';
import { countO200kTokens } from '../budget/o200k';
import { FILES } from '../codex/constants';
import { summaryHeadOf } from '../codex/summary-head';
import { parseMemoryFile } from '../formats';
import { parserDiagnostics } from '../inspect/parser-lint';
import { refsOfParsed, type Ref } from '../inspect/reference-lint';
import { projectName } from '../inspect/summary-heads';
import { lintFileText, summaryDiagnostics, type ExtraLintRule } from '../lint/lint-root';
import { maskSecretsDeep, maskSecretsKeepingLines } from '../lint/mask-secrets';
import { rememberingSecretScans } from '../lint/secrets';
import { decodeUtf8Strict, findInvalidUtf8 } from '../platform/utf8';
import { chunkText, type Chunk, type Region } from './chunks';

export interface FileFacts {
  /** Rollout summaries: the header and title from the first 8 KiB, as the rollout table reads them. */
  header?: SummaryHeader | null;
  title?: string | null;
  /** memory_summary.md and MEMORY.md: every pointer to a rollout summary. */
  refs?: Ref[];
}

export interface Block {
  kind: string;
  line: number;
  endLine: number;
  title: string;
  detail: string;
  project: string | null;
}

export interface FileAnalysis {
  sha256: string;
  status: 'ok' | 'unreadable';
  error: string | null;
  /** The per-file lint (Markdown only; null for other files): what lintRoot reports for this file's text. */
  diagnostics: LintDiagnostic[] | null;
  facts: FileFacts;
  blocks: Block[];
  chunks: Chunk[];
  estTokens: number;
  /** o200k counts worth keeping, by the SHA-256 of the exact text counted (the summary's budget). */
  tokenCounts: Array<[string, number]>;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The text of `bytes`, or why it is not text, in the words the lint and the editor use. */
export function decodeForIndex(relPath: string, bytes: Buffer): { text: string } | { error: string } {
  if (bytes.includes(0)) return { error: `${relPath} looks binary (it contains NUL bytes), so it is not shown as text.` };
  const text = decodeUtf8Strict(bytes);
  if (text !== null) return { text };
  const problem = findInvalidUtf8(bytes);
  return { error: `${relPath} is not valid UTF-8 (first bad byte at offset ${problem?.byteOffset ?? '?'}, line ${problem?.line ?? '?'}).` };
}

function summaryFacts(parsed: MemorySummaryParsed, blocks: Block[]): FileFacts {
  for (const scope of parsed.scopes)
    blocks.push({
      kind: 'summary-scope',
      line: scope.line,
      endLine: scope.endLine,
      title: scope.name,
      detail: scope.older ? 'older memory topics' : '',
      project: scope.name,
    });
  return { refs: refsOfParsed(parsed) };
}

function memoryFacts(parsed: MemoryMdParsed, blocks: Block[]): FileFacts {
  for (const block of parsed.blocks) {
    const project = projectName(block.appliesTo?.cwd ?? null) ?? block.scope;
    blocks.push({
      kind: 'memory-block',
      line: block.line,
      endLine: block.endLine,
      title: block.title,
      detail: block.keywords.join(' '),
      project,
    });
    for (const task of block.tasks)
      blocks.push({
        kind: 'memory-task',
        line: task.line,
        endLine: task.endLine,
        title: task.title,
        detail: `${block.title} ${task.keywords.join(' ')}`,
        project,
      });
  }
  return { refs: refsOfParsed(parsed) };
}

function rawFacts(parsed: RawMemoriesParsed, blocks: Block[]): void {
  for (const thread of parsed.threads) {
    const project = projectName(thread.cwd);
    blocks.push({
      kind: 'raw-thread',
      line: thread.line,
      endLine: thread.endLine,
      title: `Thread ${thread.threadId}`,
      detail: thread.cwd ?? '',
      project,
    });
    for (const task of thread.tasks)
      blocks.push({ kind: 'raw-task', line: task.line, endLine: task.endLine, title: task.title, detail: task.taskGroup ?? '', project });
  }
}

/** Facts and palette blocks from a parse; headings of every kind become blocks too. */
function factsOf(relPath: string, kind: FileKind, text: string, parsed: ParsedFile | null, blocks: Block[]): FileFacts {
  let facts: FileFacts = {};
  if (kind === 'rollout-summary') {
    facts = summaryHeadOf(text);
    const lines = text.split('\n').length;
    blocks.push({
      kind: 'rollout',
      line: 1,
      endLine: lines,
      title: facts.title ?? relPath,
      detail: [facts.header?.threadId, facts.header?.gitBranch].filter(Boolean).join(' '),
      project: projectName(facts.header?.cwd ?? null),
    });
  }
  if (parsed?.kind === 'memory_summary') facts = summaryFacts(parsed, blocks);
  else if (parsed?.kind === 'memory_md') facts = memoryFacts(parsed, blocks);
  else if (parsed?.kind === 'raw_memories') rawFacts(parsed, blocks);
  // A note's rollout paths, for \`reference/note-pointer\` (refsOfParsed gives none for other kinds).
  if (parsed && facts.refs === undefined) {
    const refs = refsOfParsed(parsed);
    if (refs.length > 0) facts = { ...facts, refs };
  } else if (parsed?.kind === 'skill' && parsed.name)
    blocks.push({ kind: 'skill', line: 1, endLine: parsed.lineCount, title: parsed.name, detail: parsed.description ?? '', project: null });
  const sections = parsed && 'sections' in parsed && Array.isArray(parsed.sections) ? parsed.sections : [];
  // A heading that is already a block (a scope, a MEMORY.md block) is offered once, as that block.
  const named = new Set(blocks.map((b) => b.line));
  for (const s of sections)
    if (!named.has(s.line)) blocks.push({ kind: 'section', line: s.line, endLine: s.endLine, title: s.title, detail: '', project: null });
  return facts;
}

/** Where each project's text lies (blocks with a project), for tagging chunks; the rollout's own project covers the file. */
function regionsOf(blocks: readonly Block[]): Region[] {
  return blocks
    .filter(
      (b) => b.project && (b.kind === 'memory-block' || b.kind === 'raw-thread' || b.kind === 'summary-scope' || b.kind === 'rollout'),
    )
    .map((b) => ({ line: b.line, endLine: b.endLine, project: b.project as string }));
}

/** The budget's two o200k counts (the trimmed summary and what is injected), keyed by the exact text counted. */
function budgetCounts(text: string, version: MemoryVersion): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  computeBudget(text, {
    version,
    countTokens: (counted) => {
      const tokens = countO200kTokens(counted);
      out.push([sha256(counted), tokens]);
      return tokens;
    },
  });
  return out;
}

/** Analyses one regular file's bytes as the lint, the rollout table, the budget and search will need them. */
export function analyzeFile(version: MemoryVersion, relPath: string, kind: FileKind, bytes: Buffer): FileAnalysis {
  // Its lint and its masked copy ask for the same text's secrets: scanned once.
  return rememberingSecretScans(() => analyzeBytes(version, relPath, kind, bytes));
}

function analyzeBytes(version: MemoryVersion, relPath: string, kind: FileKind, bytes: Buffer): FileAnalysis {
  const hash = sha256(bytes);
  const markdown = relPath.endsWith('.md');
  const decoded = decodeForIndex(relPath, bytes);
  const base = { sha256: hash, facts: {}, blocks: [], chunks: [], estTokens: Math.ceil(bytes.length / 4), tokenCounts: [] };
  if ('error' in decoded) return { ...base, status: 'unreadable', error: decoded.error, diagnostics: null };
  const text = decoded.text;
  let parsed: ParsedFile | null = null;
  let parseError: unknown = null;
  try {
    parsed = markdown || kind !== 'unknown' ? parseMemoryFile(text, { path: relPath, version }) : null;
  } catch (error) {
    parseError = error;
  }
  const blocks: Block[] = [];
  const facts = factsOf(relPath, kind, text, parsed, blocks);
  let diagnostics: LintDiagnostic[] | null = null;
  if (markdown) {
    // The same rule run as lintRoot's parser rule, on the parse made here once (a failure is reported as lintRoot does).
    const parserRule: ExtraLintRule = () => {
      if (parseError !== null || !parsed) throw parseError ?? new Error('the file could not be parsed');
      return parserDiagnostics(parsed);
    };
    // Per-file rules read only the text and the version (max_unused_days and the clock belong to the whole-home rules).
    diagnostics = lintFileText({ path: relPath, kind, text }, { version, maxUnusedDays: 30, now: new Date(0) }, [parserRule]);
    if (relPath === FILES.summary) appendAll(diagnostics, summaryDiagnostics(version, text, null));
  }
  const tokenCounts = relPath === FILES.summary ? budgetCounts(text, version) : [];
  // The index lives in the data folder, which holds no secret in clear: what it stores as text (chunks for search,
  // block titles, facts, messages) is masked, lines kept, so a search never finds or shows a secret either.
  const stored = maskSecretsKeepingLines(text);
  if (stored === text)
    return {
      ...base,
      status: 'ok',
      error: null,
      diagnostics,
      facts,
      blocks,
      chunks: chunkText(text, regionsOf(blocks), relPath, facts.title ?? null),
      tokenCounts,
    };
  const masked = { facts: maskSecretsDeep(facts), blocks: maskSecretsDeep(blocks), diagnostics: maskSecretsDeep(diagnostics) };
  const chunks = chunkText(stored, regionsOf(masked.blocks), relPath, masked.facts.title ?? null);
  return { ...base, status: 'ok', error: null, ...masked, chunks, tokenCounts };
}
