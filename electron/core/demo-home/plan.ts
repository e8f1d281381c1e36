// Plans the demo threads: ids, times, projects, memory modes and what Phase 1 did with each.
import * as path from 'node:path';
import { fill, projectByKey, stage1Errors, tasks } from './catalog';
import { rolloutSummaryStem, sessionRelPath, uuidV7 } from './ids';
import type { Rng } from './prng';
import type { MemoryMode, Outcome, Stage1State, TaskTemplate, ThreadPlan } from './types';

export type Scale = 'small' | 'heavy';

interface ScaleShape {
  selected: number;
  failed: number;
  disabled: number;
  polluted: number;
  fresh: number;
  archived: number;
  spanDays: number;
  maxTicket: number;
}

/** How many threads of each kind a scale produces. */
export const scaleShapes: Record<Scale, ScaleShape> = {
  small: { selected: 13, failed: 2, disabled: 2, polluted: 1, fresh: 1, archived: 1, spanDays: 40, maxTicket: 999 },
  heavy: { selected: 4096, failed: 24, disabled: 40, polluted: 16, fresh: 4, archived: 8, spanDays: 120, maxTicket: 9999 },
};

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

type Kind = 'selected' | 'failed' | 'disabled' | 'polluted' | 'fresh' | 'archived';

const outcomes: ReadonlyArray<readonly [Outcome, number]> = [
  ['success', 60],
  ['partial', 20],
  ['fail', 10],
  ['uncertain', 10],
];

/** The title Codex shows for a thread: its first user message, cut to one line. */
export function threadTitle(t: ThreadPlan): string {
  const ask = fill(t.task.ask, t.ticket);
  return ask.length > 80 ? `${ask.slice(0, 77)}...` : ask;
}

type Draft = { kind: Kind; createdMs: number; task: TaskTemplate };

/** Every thread's kind, task and rough creation time, sorted by that time. */
function draftThreads(rng: Rng, scale: Scale, nowMs: number): Draft[] {
  const shape = scaleShapes[scale];
  const drafts: Draft[] = [];
  // Small homes use each template at most once for the selected threads, so every task reads differently.
  const selectedTemplates =
    scale === 'small' ? rng.shuffle(tasks).slice(0, shape.selected) : Array.from({ length: shape.selected }, () => rng.pick(tasks));

  const window = (kind: Kind): [number, number] => {
    switch (kind) {
      case 'selected':
        return [nowMs - shape.spanDays * DAY, nowMs - 30 * HOUR];
      case 'failed':
        return [nowMs - 3 * DAY, nowMs - 14 * HOUR];
      case 'fresh':
        return [nowMs - 3 * HOUR, nowMs - 20 * MIN];
      default:
        return [nowMs - shape.spanDays * DAY, nowMs - 2 * DAY];
    }
  };
  const add = (kind: Kind, task: TaskTemplate): void => {
    const [lo, hi] = window(kind);
    drafts.push({ kind, createdMs: lo + Math.floor(rng.next() * (hi - lo)), task });
  };
  for (const task of selectedTemplates) add('selected', task);
  const others: Array<[Kind, number]> = [
    ['failed', shape.failed],
    ['disabled', shape.disabled],
    ['polluted', shape.polluted],
    ['fresh', shape.fresh],
    ['archived', shape.archived],
  ];
  for (const [kind, n] of others) for (let i = 0; i < n; i++) add(kind, rng.pick(tasks));
  return drafts.sort((a, b) => a.createdMs - b.createdMs);
}

/** What planning one thread shares with the others: the seconds and summary stems already taken. */
interface PlanContext {
  rng: Rng;
  shape: ScaleShape;
  nowMs: number;
  codexHome: string;
  usedSeconds: Set<number>;
  usedStems: Set<string>;
}

/** A whole-second creation time and thread id no other thread has, so session names and summary stems stay unique. */
function uniqueIdentity(
  draft: Draft,
  ctx: PlanContext,
): { id: string; createdMs: number; updatedMs: number; sourceUpdatedAt: number; stem: string } {
  const { rng, nowMs, usedSeconds, usedStems } = ctx;
  let sec = Math.floor(draft.createdMs / 1000);
  while (usedSeconds.has(sec)) sec++;
  usedSeconds.add(sec);
  const createdMs = sec * 1000 + rng.int(0, 999);
  let id = uuidV7(createdMs, rng);
  const durationMs = rng.int(4, 90) * MIN + rng.int(0, 59_999);
  const updatedMs = Math.min(createdMs + durationMs, nowMs - 5 * MIN);
  const sourceUpdatedAt = Math.floor(updatedMs / 1000);
  let stem = rolloutSummaryStem(id, sourceUpdatedAt, draft.task.slug);
  while (usedStems.has(stem)) {
    id = uuidV7(createdMs, rng);
    stem = rolloutSummaryStem(id, sourceUpdatedAt, draft.task.slug);
  }
  usedStems.add(stem);
  return { id, createdMs, updatedMs, sourceUpdatedAt, stem };
}

function planThread(draft: Draft, index: number, ctx: PlanContext): ThreadPlan {
  const { rng, shape, nowMs } = ctx;
  const { id, createdMs, updatedMs, sourceUpdatedAt, stem } = uniqueIdentity(draft, ctx);
  const project = projectByKey(draft.task.project);
  const archived = draft.kind === 'archived';
  const sessionRel = sessionRelPath(id, createdMs, archived);
  const memoryMode: MemoryMode = draft.kind === 'disabled' ? 'disabled' : draft.kind === 'polluted' ? 'polluted' : 'enabled';
  const stage1: Stage1State = draft.kind === 'selected' ? 'selected' : draft.kind === 'failed' ? 'failed' : 'none';
  const generatedAt = sourceUpdatedAt + rng.int(8 * 3600, 20 * 3600);
  let failure: ThreadPlan['failure'] = null;
  if (stage1 === 'failed') {
    const finishedAt = Math.min(sourceUpdatedAt + rng.int(8 * 3600, 12 * 3600), Math.floor(nowMs / 1000) - rng.int(600, 7200));
    failure = { error: rng.pick(stage1Errors), finishedAt, retryRemaining: rng.chance(0.25) ? 0 : 2 };
  }
  return {
    index,
    id,
    createdMs,
    updatedMs,
    project,
    task: draft.task,
    ticket: rng.int(100, shape.maxTicket),
    outcome: rng.weighted(outcomes),
    gitBranch: draft.task.branch ?? (rng.chance(0.5) ? 'main' : null),
    gitSha: rng.hex(40),
    memoryMode,
    archived,
    stage1,
    rolloutPath: path.join(ctx.codexHome, ...sessionRel.split('/')),
    sessionRel,
    stem,
    sourceUpdatedAt,
    generatedAt,
    tokensUsed: rng.int(8_000, 240_000),
    failure,
  };
}

/** Build every thread of the home, sorted by creation time. */
export function planThreads(rng: Rng, scale: Scale, nowMs: number, codexHome: string): ThreadPlan[] {
  const drafts = draftThreads(rng, scale, nowMs);
  const ctx: PlanContext = { rng, shape: scaleShapes[scale], nowMs, codexHome, usedSeconds: new Set(), usedStems: new Set() };
  return drafts.map((draft, index) => planThread(draft, index, ctx));
}
