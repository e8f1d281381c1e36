// "Never cited in N days": the age counts from the last citation of the entry's lines or sessions, else from its newest session.
import { describe, expect, it } from 'vitest';
import type { DoctorEntry } from '../../../shared/doctor';
import type { UsageReport } from '../../../shared/provenance';
import { lastCitation, notCitedReason } from '../../../electron/core/doctor/stale';

const DAY = 86_400;
const NOW = 1_800_000_000;
const at = (seconds: number) => ({ seconds, iso: new Date(seconds * 1000).toISOString() });

const entry: DoctorEntry = {
  id: 'm-000000000001',
  version: 'v1',
  file: 'MEMORY.md',
  kind: 'task-group',
  title: 'x',
  line: 10,
  endLine: 20,
  cwd: null,
  scope: null,
  threadIds: ['t-1'],
  pointers: [],
  keywords: [],
  updatedAt: NOW - 90 * DAY,
};

function usage(files: UsageReport['files'], threads: UsageReport['threads'] = []): UsageReport {
  return {
    kind: 'memory_usage',
    generatedAt: at(NOW),
    sessions: { scanned: 0, withCitations: 0, citationBlocks: 0, unreadable: 0, cacheHits: 0 },
    files,
    threads,
    problems: [],
    elapsedMs: 0,
  };
}

const fileUsage = (lineStart: number, lineEnd: number, seconds: number, version: 'v1' | 'v2' = 'v1'): UsageReport['files'][number] => ({
  version,
  path: 'MEMORY.md',
  kind: 'memory',
  pathValid: true,
  versionBasis: 'path-prefix',
  count: 1,
  firstCitedAt: at(seconds),
  lastCitedAt: at(seconds),
  citingThreadIds: [],
  ranges: [{ lineStart, lineEnd, count: 1, firstCitedAt: at(seconds), lastCitedAt: at(seconds), citingThreadIds: [] }],
});

describe('not cited', () => {
  it('counts from the newest session when the entry was never cited', () => {
    expect(notCitedReason(entry, usage([]), 30, NOW)).toEqual({ reason: 'not-cited', days: 90, lastCitedAt: null, since: 'session' });
    expect(notCitedReason(entry, usage([]), 120, NOW)).toBeNull();
  });

  it('counts from the last citation of its lines, in its own version only', () => {
    expect(lastCitation(entry, usage([fileUsage(18, 25, NOW - 5 * DAY)]))).toBe(NOW - 5 * DAY);
    expect(lastCitation(entry, usage([fileUsage(21, 25, NOW - 5 * DAY)]))).toBeNull();
    expect(lastCitation(entry, usage([fileUsage(12, 12, NOW - 5 * DAY, 'v2')]))).toBeNull();
    expect(notCitedReason(entry, usage([fileUsage(12, 14, NOW - 40 * DAY)]), 30, NOW)).toEqual({
      reason: 'not-cited',
      days: 40,
      lastCitedAt: NOW - 40 * DAY,
      since: 'citation',
    });
  });

  it("counts a session citing one of its threads, and Codex's own last_usage", () => {
    const thread = {
      threadId: 't-1',
      citedInBlocks: 1,
      citedInBlocksByVersion: { v1: 1, v2: 0 },
      lastCitedAt: null,
      db: [{ version: 'v1' as const, usageCount: 3, lastUsage: at(NOW - 2 * DAY) }],
    };
    expect(notCitedReason(entry, usage([], [thread]), 30, NOW)).toBeNull();
  });

  it('says nothing for an entry with no date and no citation', () => {
    expect(notCitedReason({ ...entry, updatedAt: null, threadIds: [] }, usage([]), 30, NOW)).toBeNull();
  });
});
