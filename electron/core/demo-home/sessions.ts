// Rollout JSONL sessions (`sessions/YYYY/MM/DD/rollout-*.jsonl`) and the memory citations their replies carry.
import { REFERENCE_SCHEMA } from '../codex-schema';
import { fill } from './catalog';
import { jsonlTimestamp } from './ids';
import { topicOf } from './memory-summary';
import type { Rng } from './prng';
import { sectionRange } from './summaries';
import type { CitationPlan, ThreadPlan } from './types';

/** The Codex release the demo homes imitate: the reference, whose schema they are written with. */
export const CLI_VERSION = REFERENCE_SCHEMA.codexVersion;
/** How 0.169.0 to 0.171.0 record a new session's history (`session_meta.history_mode`, `threads.history_mode`). */
export const HISTORY_MODE = 'paginated';
const HOUR = 3_600_000;

export interface CitationContext {
  /** Which root supplies context to new threads (citations are relative to it). */
  version: 'v1' | 'v2';
  /** v1 only: MEMORY.md line range of each thread's task section. */
  memoryTaskLines: Map<string, [number, number]> | null;
  /** Rendered rollout summary file of each selected thread in that root. */
  summaryFiles: Map<string, string>;
}

/** Pick the sessions whose final reply cites memory, and what they cite. */
export function planCitations(rng: Rng, threads: readonly ThreadPlan[], ctx: CitationContext, heavy: boolean): CitationPlan[] {
  const selected = threads.filter((t) => t.stage1 === 'selected');
  const latestStart = threads[Math.floor(threads.length * 0.4)]?.createdMs ?? 0;
  const candidates = threads.filter((t) => t.createdMs >= latestStart && t.memoryMode === 'enabled');
  const every = heavy ? 24 : Math.max(1, Math.floor(candidates.length / 5));
  const plans: CitationPlan[] = [];
  candidates.forEach((citing, i) => {
    if (i % every !== 0) return;
    const older = selected.filter((s) => s.updatedMs < citing.createdMs - 12 * HOUR);
    if (older.length === 0) return;
    const same = older.filter((s) => s.project.key === citing.project.key);
    const pool = same.length > 0 ? same : older;
    const cited = [rng.pick(pool)];
    if (rng.chance(0.4)) {
      const second = rng.pick(older);
      if (second.id !== cited[0]?.id) cited.push(second);
    }
    const entries: string[] = [];
    for (const c of cited) {
      const mem = ctx.memoryTaskLines?.get(c.id);
      if (ctx.version === 'v1' && mem) entries.push(`MEMORY.md:${mem[0]}-${mem[1]}|note=[${topicOf(c.task)}]`);
      const file = ctx.summaryFiles.get(c.id);
      const range = file ? sectionRange(file, ctx.version === 'v1' ? 'Key steps:' : '## What happened') : null;
      if (range) entries.push(`rollout_summaries/${c.stem}.md:${range[0]}-${range[1]}|note=[steps that worked before]`);
    }
    plans.push({
      citingThreadId: citing.id,
      entries,
      threadIds: cited.map((c) => c.id),
      legacyTag: plans.length === 1,
      at: Math.floor(citing.updatedMs / 1000),
    });
  });
  return plans;
}

/** The `<oai-mem-citation>` block exactly as read_path.md asks the model to end its reply with. */
export function citationBlock(c: CitationPlan): string {
  const tag = c.legacyTag ? 'thread_ids' : 'rollout_ids';
  return [
    '<oai-mem-citation>',
    '<citation_entries>',
    ...c.entries,
    '</citation_entries>',
    `<${tag}>`,
    ...c.threadIds,
    `</${tag}>`,
    '</oai-mem-citation>',
  ].join('\n');
}

/** One rollout line; `ordinal` is filled in by `numbered` (Codex 0.169.0 to 0.171.0 number every line of a session from 0). */
function line(ms: number, type: string, payload: unknown): { timestamp: string; type: string; payload: unknown } {
  return { timestamp: jsonlTimestamp(ms), type, payload };
}

function numbered(lines: ReadonlyArray<ReturnType<typeof line>>): string[] {
  return lines.map((l, ordinal) => JSON.stringify({ timestamp: l.timestamp, ordinal, type: l.type, payload: l.payload }));
}

function message(role: 'user' | 'assistant', text: string): Record<string, unknown> {
  return { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] };
}

/** Render one rollout JSONL file. */
export function renderSession(t: ThreadPlan, rng: Rng, citation: CitationPlan | null): string {
  const k = t.task;
  const cwd = t.project.cwd;
  const span = Math.max(t.updatedMs - t.createdMs, 60_000);
  let step = 0;
  const at = (): number => t.createdMs + Math.floor((span * ++step) / 12);
  const callId = `call_${rng.hex(24)}`;
  const git: Record<string, string> = { commit_hash: t.gitSha };
  if (t.gitBranch !== null) git.branch = t.gitBranch;
  git.repository_url = t.project.origin;
  const out: Array<ReturnType<typeof line>> = [
    line(t.createdMs, 'session_meta', {
      session_id: t.id,
      id: t.id,
      timestamp: jsonlTimestamp(t.createdMs),
      cwd,
      runtime_workspace_roots: [cwd],
      originator: 'codex_cli_rs',
      cli_version: CLI_VERSION,
      source: 'cli',
      thread_source: 'user',
      model_provider: 'openai',
      git,
      history_mode: HISTORY_MODE,
    }),
    line(t.createdMs + 5, 'turn_context', {
      cwd,
      approval_policy: 'on-request',
      sandbox_policy: { type: 'workspace-write', network_access: false },
      model: 'gpt-5.4',
      effort: 'medium',
      summary: 'auto',
    }),
    line(at(), 'response_item', {
      ...message(
        'user',
        `<environment_context>\n  <cwd>${cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>zsh</shell>\n</environment_context>`,
      ),
    }),
  ];
  const ask = fill(k.ask, t.ticket);
  const askAt = at();
  out.push(line(askAt, 'response_item', message('user', ask)));
  out.push(line(askAt + 1, 'event_msg', { type: 'user_message', message: ask, images: [] }));
  out.push(
    line(at(), 'response_item', {
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: ['bash', '-lc', k.command], workdir: cwd, timeout_ms: 120000 }),
      call_id: callId,
    }),
  );
  out.push(
    line(at(), 'response_item', {
      type: 'function_call_output',
      call_id: callId,
      output: JSON.stringify({ output: `${k.output}\n`, metadata: { exit_code: 1, duration_seconds: rng.int(3, 95) / 10 } }),
    }),
  );
  if (t.memoryMode === 'polluted') {
    out.push(
      line(at(), 'response_item', {
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', query: `${k.keywords[0] ?? k.key} ${k.keywords[1] ?? ''}`.trim() },
      }),
    );
  }
  out.push(line(at(), 'response_item', message('assistant', k.reply)));
  out.push(line(at(), 'response_item', message('user', k.followUp)));
  let final = `Done: ${fill(k.title, t.ticket)}. ${k.steps[k.steps.length - 1] ?? ''}. Outcome: ${t.outcome}.`;
  if (citation) {
    final = `I reused what worked in earlier sessions before changing anything. ${final}\n\n${citationBlock(citation)}`;
  }
  out.push(line(Math.max(at(), t.updatedMs - 1000), 'response_item', message('assistant', final)));
  return `${numbered(out).join('\n')}\n`;
}
