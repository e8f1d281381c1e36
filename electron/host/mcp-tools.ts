// The MCP server's reading tools: search, read, overview and provenance, each a few channels of the service.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import type { ChannelInput } from '../../shared/contract';
import type { MemoryVersion } from '../../shared/domain';
import type { LineProvenance } from '../../shared/provenance';
import type { SearchResult } from '../../shared/search';
import { answer, ask, chooseVersion, guarded, rootOf, ToolFailure, type McpContext, knownHome } from './mcp-context';
import {
  DATA_NOT_INSTRUCTIONS,
  MAX_READ_CHARS,
  overviewOutput,
  provenanceInput,
  provenanceOutput,
  readInput,
  readOutput,
  searchInput,
  searchOutput,
} from './mcp-schemas';

/** How long a search waits for the index's first build before it answers from what there is. */
const INDEX_WAIT_MS = 120_000;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** Resolves once the index is no longer building, or at `deadline` (ms since the epoch). */
async function indexSettled(ctx: McpContext, deadline: number): Promise<void> {
  if ((await ask(ctx, 'index.status', {})).state !== 'building') return;
  const service = await ctx.studio();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    const stop = service.onEvent((event) => {
      if (event.event === 'index.progress' && event.payload.state !== 'building') done();
    });
    function done() {
      clearTimeout(timer);
      stop();
      resolve();
    }
    // The build may have ended between the status and the subscription.
    void ask(ctx, 'index.status', {}).then((s) => s.state !== 'building' && done(), done);
  });
}

/**
 * The search, the index's first build waited for (until INDEX_WAIT_MS). Before that build's first progress the index
 * says "idle", and a query that then finds it building with no index yet answers nothing: a search that found nothing
 * while a build runs waits for it and asks again.
 */
async function searchIndexed(ctx: McpContext, request: ChannelInput<'search.query'>): Promise<SearchResult> {
  const deadline = Date.now() + INDEX_WAIT_MS;
  for (;;) {
    await indexSettled(ctx, deadline);
    const result: SearchResult = await ask(ctx, 'search.query', request);
    if (result.total > 0 || Date.now() >= deadline) return result;
    if ((await ask(ctx, 'index.status', {})).state !== 'building') return result;
  }
}

async function search(ctx: McpContext, input: z.infer<typeof searchInput>) {
  const home = await knownHome(ctx);
  const version = input.version ?? ctx.fixedVersion ?? undefined;
  const request = { query: input.query, version, kind: input.kind, project: input.project, limit: input.limit ?? 10 };
  const result = await searchIndexed(ctx, request);
  const hits = result.hits.map((h) => ({
    version: h.version,
    root: rootOf(home, h.version),
    path: h.relPath,
    line: h.line,
    // BM25 of a small home is tiny (1e-6): four significant digits, not three decimals.
    score: Number(h.score.toPrecision(4)),
    snippet: h.snippet,
    kind: h.kind,
    project: h.project,
  }));
  const structured = { query: input.query, hits, total: result.total, ranking: result.ranking, notes: result.notes };
  const head = hits.length === 0 ? `No memory matches "${input.query}".` : `${hits.length} of ${result.total} hits for "${input.query}":`;
  const lines = hits.map((h, i) => `${i + 1}. ${h.version}/${h.path}:${h.line} (${h.kind}, score ${h.score}) ${h.snippet}`);
  return answer(structured, [head, ...lines, ...result.notes].join('\n'));
}

/** The lines asked for, within the size cap: a long range stops early and says where to go on. */
function sliceLines(content: string, startLine: number, endLine: number | undefined) {
  // Lines keep their endings; a final line ending starts no line of its own (as editors but Monaco count).
  const lines = content === '' ? [] : content.split(/(?<=\n)/);
  const total = Math.max(lines.length, 1);
  if (startLine > total)
    throw new ToolFailure(`The file has ${lines.length} lines, so it has no line ${startLine}.`, `Ask for lines 1 to ${total}.`);
  if (endLine !== undefined && endLine < startLine)
    throw new ToolFailure(`endLine ${endLine} is before startLine ${startLine}.`, 'Give endLine at or after startLine.');
  const last = Math.min(endLine ?? total, total);
  let text = '';
  let at = startLine;
  for (; at <= last; at++) {
    const next = lines[at - 1] ?? '';
    if (text.length + next.length > MAX_READ_CHARS && at > startLine) break;
    text += next.length > MAX_READ_CHARS ? `${next.slice(0, MAX_READ_CHARS)}…` : next;
  }
  const truncated = at <= last;
  return { text, totalLines: lines.length, startLine, endLine: at - 1, truncated, nextStartLine: truncated ? at : null };
}

async function read(ctx: McpContext, input: z.infer<typeof readInput>) {
  const home = await knownHome(ctx);
  const version = chooseVersion(ctx, home, input.version);
  const file = await ask(ctx, 'workspace.read', { version, path: input.path });
  const slice = sliceLines(file.content, input.startLine ?? 1, input.endLine);
  const structured = {
    version,
    root: rootOf(home, version),
    path: file.path,
    kind: file.kind,
    ...slice,
    injected: file.injected,
  };
  const more = slice.truncated ? `\n[cut at ${MAX_READ_CHARS} characters: continue with startLine ${slice.nextStartLine}]` : '';
  return answer(
    structured,
    `${version}/${file.path} lines ${slice.startLine}–${slice.endLine} of ${slice.totalLines}:\n${slice.text}${more}`,
  );
}

async function overview(ctx: McpContext) {
  // Loaded when first asked for: the overview's modules cost ~19 ms of a server start that Codex waits on.
  const { buildOverview, overviewLines, serviceSource } = await import('./cli-overview.js');
  const home = await knownHome(ctx);
  const versions = home.roots.filter((r) => r.exists && (!ctx.fixedVersion || r.version === ctx.fixedVersion)).map((r) => r.version);
  const o = await buildOverview(await serviceSource(await ctx.studio()), versions);
  const reads = home.config.memories.version;
  const lines = overviewLines(o)
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.trim() !== '' && !/^\(\d+ ms\)$/.test(l));
  const structured = {
    codexHome: home.codexHome,
    featureMemories: home.config.featureMemories,
    reads: {
      version: reads,
      source: home.config.memories.versionSource,
      root: rootOf(home, reads),
      exists: home.roots.some((r) => r.version === reads && r.exists),
    },
    roots: o.roots.map((r) => ({
      version: r.version,
      root: r.path,
      files: r.files,
      bytes: r.bytes,
      counts: r.counts,
      lint: { error: r.lint.error, warning: r.lint.warning, info: r.lint.info },
      nextSession: {
        estimatedTokens: r.budget.estimatedTokens,
        limitTokens: r.budget.limitTokens,
        truncated: r.budget.truncated,
        hiddenLines: r.budget.hiddenLines,
      },
      rolloutSummaries: r.rolloutSummaries,
      cited: r.cited,
    })),
    lines,
  };
  if (versions.length === 0) lines.push('This home has no memory folder yet.');
  return answer(structured, lines.join('\n'));
}

function provenanceText(p: LineProvenance): string {
  const out = [`${p.version}/${p.path}:${p.line} (${p.kind})`];
  if (p.entry) out.push(`entry: ${p.entry.title} (lines ${p.entry.line}–${p.entry.endLine})${p.entry.cwd ? ` in ${p.entry.cwd}` : ''}`);
  for (const r of p.rolloutSummaries)
    out.push(
      `rollout summary ${r.file}${r.exists ? '' : ' (missing)'}: thread ${r.threadId ?? 'unknown'}, session ${r.sessionPath ?? 'not found'}`,
    );
  for (const s of p.sessions) out.push(`session of thread ${s.threadId}: ${s.sessionPath ?? 'not found'}`);
  out.push(`cited ${p.citedBy.length} time(s) at this line, ${p.fileCitations} in the whole file`);
  for (const c of p.citedBy.slice(0, 10)) out.push(`  ${c.time?.iso ?? 'undated'} thread ${c.threadId}${c.note ? `: ${c.note}` : ''}`);
  return [...out, ...p.notes].join('\n');
}

async function provenance(ctx: McpContext, input: z.infer<typeof provenanceInput>) {
  const home = await knownHome(ctx);
  const version: MemoryVersion = chooseVersion(ctx, home, input.version);
  const p = await ask(ctx, 'provenance.line', { version, path: input.path, line: input.line });
  const structured = {
    ...p,
    rolloutSummaries: p.rolloutSummaries.map((r) => ({
      file: r.file,
      exists: r.exists,
      threadId: r.threadId,
      sessionPath: r.sessionPath,
      sessionExists: r.sessionExists,
      cwd: r.header?.cwd ?? null,
      updatedAt: r.header?.updatedAt ?? null,
    })),
    citedBy: p.citedBy.map((c) => ({
      threadId: c.threadId,
      sessionPath: c.sessionPath,
      time: c.time?.iso ?? null,
      lineStart: c.lineStart,
      lineEnd: c.lineEnd,
      note: c.note,
    })),
  };
  return answer(structured, provenanceText(p));
}

export function registerReadingTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'memory_search',
    {
      title: 'Search memory',
      description: `Ranked search over every file of Codex's curated memory (summary, MEMORY.md, rollout summaries, notes, skills). Returns hits with path, line, score and the matching line. ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: searchInput,
      outputSchema: searchOutput,
      annotations: READ_ONLY,
    },
    (input) => guarded(ctx, 'memory_search', () => search(ctx, input)),
  );
  server.registerTool(
    'memory_read',
    {
      title: 'Read a memory file',
      description: `One memory file, or a range of its lines, by its path relative to the memory root (as memory_search returns it). Answers at most ${MAX_READ_CHARS / 1024} KiB; a longer file says where to continue. ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: readInput,
      outputSchema: readOutput,
      annotations: READ_ONLY,
    },
    (input) => guarded(ctx, 'memory_read', () => read(ctx, input)),
  );
  server.registerTool(
    'memory_overview',
    {
      title: 'Memory overview',
      description: `Which memory root Codex reads, what the next session sees of the summary (tokens against the budget, lines cut), file counts and the memory pipeline's health, in a few lines. ${DATA_NOT_INSTRUCTIONS}`,
      outputSchema: overviewOutput,
      annotations: READ_ONLY,
    },
    () => guarded(ctx, 'memory_overview', () => overview(ctx)),
  );
  server.registerTool(
    'memory_provenance',
    {
      title: 'Where a memory line came from',
      description: `For one line of a memory file: the entry it belongs to, the rollout summary and the session behind it, and the sessions that cited it. ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: provenanceInput,
      outputSchema: provenanceOutput,
      annotations: READ_ONLY,
    },
    (input) => guarded(ctx, 'memory_provenance', () => provenance(ctx, input)),
  );
}
