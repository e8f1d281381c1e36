// One home with a session in every situation the ledger tells apart (stages, reasons, sources, retry states), the
// summaries and memory files that name some of them, and the names the tests use to find each.
import { DAY, HOUR, stemOf, threadId, type JobSpec, type OutputSpec, type ThreadSpec, type WorldSpec } from './world';

export const NAMES = [
  'waitingNew',
  'waitingVscode',
  'waitingOld',
  'extracting',
  'failedBackoff',
  'failedDue',
  'failedNewInput',
  'failedLeaseExpired',
  'failedTooOld',
  'exhausted',
  'exhaustedTooOld',
  'extracted',
  'selected',
  'extractedStale',
  'extractedNoOutput',
  'exec',
  'atlas',
  'chatgpt',
  'subagent',
  'noMessage',
  'disabled',
  'polluted',
  'archived',
  'tooRecent',
  'tooOld',
  'noTime',
] as const;
export type Name = (typeof NAMES)[number];

export const ids = Object.fromEntries(NAMES.map((name, i) => [name, threadId(i + 1)])) as Record<Name, string>;

export const BACKOFF_ERROR = 'stage-1 output was not valid JSON\nat line 1';

export function scenario(now: number): WorldSpec & { selectedOutput: OutputSpec } {
  const at = (name: Name, updatedAt: number | 'garbage', extra: Partial<ThreadSpec> = {}): ThreadSpec => ({
    id: ids[name],
    updatedAt,
    ...extra,
  });
  const day = (n: number) => now - n * DAY;
  const threads: ThreadSpec[] = [
    at('waitingNew', day(1), { cwd: '/home/dana/src/webapp' }),
    at('waitingVscode', day(2), { source: 'vscode' }),
    at('waitingOld', day(9.5)),
    at('extracting', day(1.5)),
    at('failedBackoff', day(2.8), { cwd: '/home/dana/src/invoice-svc' }),
    at('failedDue', day(3.5)),
    at('failedNewInput', day(2.5)),
    at('failedLeaseExpired', day(4)),
    at('failedTooOld', day(12)),
    at('exhausted', day(8)),
    at('exhaustedTooOld', day(20)),
    at('extracted', day(5)),
    at('selected', day(40)),
    at('extractedStale', day(6)),
    at('extractedNoOutput', day(7)),
    at('exec', day(1), { source: 'exec' }),
    at('atlas', day(1), { source: '{"custom":"atlas"}' }),
    at('chatgpt', day(1), { source: '{"custom":"chatgpt"}' }),
    at('subagent', day(1), { source: '{"subagent":"review"}' }),
    at('noMessage', day(1), { preview: '' }),
    at('disabled', day(1), { memoryMode: 'disabled' }),
    at('polluted', day(1), { memoryMode: 'polluted' }),
    at('archived', day(1), { archived: true }),
    at('tooRecent', now - 2 * HOUR),
    at('tooOld', day(30)),
    at('noTime', 'garbage'),
  ];
  const updated = (name: Name) => threads.find((t) => t.id === ids[name])?.updatedAt as number;
  const selectedOutput: OutputSpec = {
    threadId: ids.selected,
    sourceUpdatedAt: updated('selected'),
    selected: true,
    slug: 'Fix flaky PDF export',
    usageCount: 4,
    lastUsage: day(2),
  };
  const outputs: OutputSpec[] = [
    selectedOutput,
    { threadId: ids.extracted, sourceUpdatedAt: updated('extracted'), slug: 'extracted one' },
    { threadId: ids.extractedStale, sourceUpdatedAt: updated('extractedStale') - DAY },
  ];
  const failure = (name: Name, job: Partial<JobSpec>): JobSpec => ({
    key: ids[name],
    status: 'error',
    startedAt: updated(name) + HOUR,
    finishedAt: updated(name) + HOUR + 60,
    lastError: 'stage-1 sampling failed: stream disconnected',
    inputWatermark: updated(name),
    ...job,
  });
  const jobs: JobSpec[] = [
    { key: ids.extracting, status: 'running', startedAt: now - 60, leaseUntil: now + 3000, inputWatermark: updated('extracting') },
    failure('failedBackoff', { retryAt: now + 1800, retryRemaining: 2, lastError: BACKOFF_ERROR }),
    failure('failedDue', { retryAt: now - 60, retryRemaining: 1 }),
    failure('failedNewInput', { retryAt: now + 1800, retryRemaining: 0, inputWatermark: updated('failedNewInput') - HOUR }),
    {
      key: ids.failedLeaseExpired,
      status: 'running',
      startedAt: now - 7200,
      leaseUntil: now - 3600,
      inputWatermark: updated('failedLeaseExpired'),
    },
    failure('failedTooOld', { retryAt: now - 60, retryRemaining: 2 }),
    failure('exhausted', { retryAt: now - 60, retryRemaining: 0, lastError: 'stage-1 model output exceeded the context window' }),
    failure('exhaustedTooOld', { retryRemaining: 0 }),
    { key: ids.extracted, status: 'done', finishedAt: updated('extracted') + HOUR, lastSuccessWatermark: updated('extracted') },
    {
      key: ids.extractedNoOutput,
      status: 'done',
      finishedAt: updated('extractedNoOutput') + HOUR,
      lastSuccessWatermark: updated('extractedNoOutput'),
    },
  ];
  const stem = stemOf(selectedOutput);
  const files = {
    'memory_summary.md': `v1\n\n## What's in Memory\n\n- PDF export: rollout_summaries/${stem}.md\n`,
    'MEMORY.md': [
      '# Task Group: invoices',
      `- rollout_summaries/${stem}.md (thread_id=${ids.selected})`,
      `- see ${ids.selected} again, and ${stem} once more on this line`,
      `- a session that failed: ${ids.failedBackoff}`,
      `- a stem with another slug still names its thread: ${stem.slice(0, 24)}-renamed_slug`,
      '',
    ].join('\n'),
    [`rollout_summaries/${stem}.md`]: `thread_id: ${ids.selected}\nupdated_at: x\n\n# Fixed the flaky PDF export\n`,
    // A summary whose name Codex would not give: found by its header.
    'rollout_summaries/handmade.md': `thread_id: ${ids.extracted}\n\n# Extracted one\n`,
    'skills/pdf/SKILL.md': `---\nname: pdf\n---\nLearned in ${ids.selected}.\n`,
    'raw_memories.md': `## Thread \`${ids.waitingNew}\`\n`,
  };
  return { now, threads, outputs, jobs, files, selectedOutput };
}
