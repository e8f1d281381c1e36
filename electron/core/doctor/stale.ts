// `stale` findings: entries whose pointers lead nowhere, that nobody cited for N days, or whose project folder is gone.
import type { DoctorEntry, Finding, StaleReason } from '../../../shared/doctor';
import type { UsageReport } from '../../../shared/provenance';
import type { EntryModel } from '../review/blocks/entries';
import { findingId, fixOption, quote } from './finding-ids';

const DAY = 86_400;

/** Raw memories and rollout summaries are Codex's own pipeline state: it prunes them itself by max_unused_days. */
export const judgedForStaleness = (entry: DoctorEntry) => entry.kind !== 'raw-memory';

/** What the files alone tell: pointers to rollout summaries that are gone, a project folder that is gone. */
export function fileStaleReasons(
  model: EntryModel,
  summaries: ReadonlySet<string>,
  projectExists: (cwd: string) => boolean | null,
): StaleReason[] {
  const reasons: StaleReason[] = [];
  const gone = model.entry.pointers.filter((p) => !summaries.has(p.replace(/^rollout_summaries\//, '')));
  if (gone.length > 0) {
    const lines = model.lines.filter((l) => gone.some((p) => l.text.includes(p)));
    reasons.push({
      reason: 'pointers-gone',
      total: model.entry.pointers.length,
      pointers: gone.map((file) => ({ file, line: lines.find((l) => l.text.includes(file))?.line ?? model.entry.line })),
    });
  }
  if (model.entry.cwd && projectExists(model.entry.cwd) === false) reasons.push({ reason: 'project-gone', cwd: model.entry.cwd });
  return reasons;
}

const overlaps = (a: { lineStart: number; lineEnd: number }, entry: DoctorEntry) => a.lineStart <= entry.endLine && a.lineEnd >= entry.line;

/** The newest citation of the entry: a citation of its lines in its file, or a session citing one of its threads. */
export function lastCitation(entry: DoctorEntry, usage: UsageReport): number | null {
  let last: number | null = null;
  const newer = (at: number | null | undefined) => {
    if (at !== null && at !== undefined && (last === null || at > last)) last = at;
  };
  for (const file of usage.files) {
    if (file.version !== entry.version || file.path !== entry.file) continue;
    for (const range of file.ranges) if (overlaps(range, entry)) newer(range.lastCitedAt?.seconds);
  }
  const threads = new Set(entry.threadIds);
  for (const thread of usage.threads) {
    if (!threads.has(thread.threadId)) continue;
    newer(thread.lastCitedAt?.seconds);
    newer(thread.db.find((d) => d.version === entry.version)?.lastUsage?.seconds);
  }
  return last;
}

/** Not cited for `days` or more: since its last citation, or since its newest session when it was never cited. */
export function notCitedReason(entry: DoctorEntry, usage: UsageReport, days: number, nowSec: number): StaleReason | null {
  const cited = lastCitation(entry, usage);
  const since = cited ?? entry.updatedAt;
  if (since === null) return null;
  const age = Math.floor((nowSec - since) / DAY);
  if (age < days) return null;
  return { reason: 'not-cited', days: age, lastCitedAt: cited, since: cited === null ? 'session' : 'citation' };
}

function describe(reason: StaleReason): string {
  switch (reason.reason) {
    case 'pointers-gone':
      return reason.pointers.length === reason.total
        ? `every rollout summary it points at is gone (${reason.pointers
            .map((p) => p.file)
            .slice(0, 3)
            .join(', ')}${reason.pointers.length > 3 ? ', …' : ''})`
        : `${reason.pointers.length} of its ${reason.total} rollout pointers lead nowhere (${reason.pointers[0]?.file})`;
    case 'not-cited':
      return reason.since === 'citation'
        ? `no session has cited it for ${reason.days} days`
        : `no session ever cited it, and its newest session is ${reason.days} days old`;
    case 'project-gone':
      return `the project folder ${reason.cwd} no longer exists`;
  }
}

export function staleFinding(entry: DoctorEntry, reasons: readonly StaleReason[]): Finding {
  const id = findingId('stale', entry.id);
  const why = reasons.map(describe);
  return {
    id,
    kind: 'stale',
    version: entry.version,
    file: entry.file,
    severity: reasons.some((r) => r.reason !== 'not-cited') ? 'warning' : 'info',
    title: `${quote(entry.title, 70)} is stale`,
    line: entry.line,
    endLine: entry.endLine,
    message: `${entry.file} lines ${entry.line}–${entry.endLine}: ${why.join('; ')}.`,
    entryIds: [entry.id],
    evidence: { kind: 'stale', reasons: [...reasons] },
    fixes: [
      fixOption(
        id,
        'retire',
        `Remove ${quote(entry.title, 60)} (lines ${entry.line}–${entry.endLine}) from ${entry.file}; the history keeps it, and a revert brings it back.`,
      ),
    ],
  };
}
