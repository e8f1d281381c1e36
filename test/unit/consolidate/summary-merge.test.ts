// The builtin engine's memory_summary.md merge: entries no input affects stay byte for byte and in place.
import { describe, expect, it } from 'vitest';
import { ranked, type Entry } from '../../../electron/core/consolidate/engines/builtin/model';
import type { WorkspaceLabel } from '../../../electron/core/consolidate/engines/builtin/parse';
import { summaryFits } from '../../../electron/core/consolidate/engines/builtin/summary';
import {
  mergeSummary,
  type SummaryMergeResult,
  type SummaryMergeSource,
} from '../../../electron/core/consolidate/engines/builtin/summary-merge';
import { scopeViews } from '../../../electron/core/consolidate/engines/builtin/summary-scopes';
import { computeHunks } from '../../../electron/core/review/hunks';

interface Spec {
  cwd: string;
  /** `YYYY-MM-DDTHH` of its `updated_at`. */
  at: string;
  topic: string;
  prefs?: string[];
}

const SPECS: Record<number, Spec> = {
  1: { cwd: '/src/api', at: '2026-02-08T10', topic: 'logging' },
  2: { cwd: '/src/api', at: '2026-02-10T09', topic: 'retries' },
  3: { cwd: '/src/api', at: '2026-02-10T11', topic: 'error handling' },
  4: { cwd: '/src/web', at: '2026-02-09T10', topic: 'build' },
  5: { cwd: '/src/api', at: '2026-01-20T10', topic: 'auth' },
  6: { cwd: '/src/api', at: '2026-02-10T12', topic: 'caching', prefs: ['the user said "cache nothing personal" -> never cache user data'] },
  7: { cwd: '/src/mobile', at: '2026-02-11T08', topic: 'push notifications' },
  8: { cwd: '/src/docs', at: '2026-02-01T08', topic: 'docs site' },
  9: { cwd: '/src/api', at: '2026-02-12T08', topic: 'rate limits' },
};

const fileOf = (n: number) => `${(SPECS[n] as Spec).at.slice(0, 10)}T0${n}-00-00-ab${n}c-task_${n}.md`;

function entry(n: number): Entry {
  const s = SPECS[n] as Spec;
  const updatedAt = `${s.at}:00:00+00:00`;
  return {
    rollout: {
      file: fileOf(n),
      threadId: `019c0000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`,
      updatedAt,
      updatedMs: Date.parse(updatedAt),
      rolloutPath: `/h/s/r-${n}.jsonl`,
      cwd: s.cwd,
      gitBranch: null,
      sentence: `Did task ${n}`,
      tasks: [],
    },
    scope: s.cwd.split('/').pop() as string,
    day: s.at.slice(0, 10),
    topic: s.topic,
    title: s.topic,
    keywords: [`kw${n}`],
    group: `${s.cwd} work`,
    outcome: 'success',
    sentence: `Did task ${n}`,
    preferences: s.prefs ?? [],
    knowledge: [`lesson ${n}`],
    failures: [],
  };
}

const EXISTING = [
  'v1',
  '',
  '## User Profile',
  '',
  'Dana works on api and web from the CLI.',
  '',
  '## User preferences',
  '',
  '- the user said "explain failures first" -> report the cause before editing',
  '- PR descriptions in German, commits in English [ad-hoc note]',
  '',
  '## General Tips',
  '',
  '- run `make check` before pushing',
  '',
  "## What's in Memory",
  '',
  '### api',
  '',
  '#### 2026-02-10',
  '',
  '- error handling: middleware, status codes',
  `  - desc: Reworked the error middleware (by hand). (rollout_summaries/${fileOf(3)})`,
  '- retries: backoff, idempotency',
  `  - desc: Added retries with backoff. (rollout_summaries/${fileOf(2)})`,
  '',
  '#### 2026-02-08',
  '',
  '- logging: structured logs',
  `  - desc: Switched to structured logs. (rollout_summaries/${fileOf(1)})`,
  '',
  '### web',
  '',
  '#### 2026-02-09',
  '',
  '- build: vite, lockfile',
  `  - desc: Fixed the vite build. (rollout_summaries/${fileOf(4)})`,
  '',
  '### Older Memory Topics',
  '',
  '#### api',
  '',
  '- auth: tokens, sessions',
  '  - desc: Token rotation work. (last seen 2026-01-20)',
  '',
  '#### api (imported from Claude Code)',
  '',
  '- imported conventions: lint, format',
  '  - desc: undated; see the imported block in MEMORY.md',
  '',
].join('\n');

function source(
  existing: string,
  ns: number[],
  changes: Record<string, WorkspaceLabel> | null,
  extra: Partial<SummaryMergeSource> = {},
): SummaryMergeSource {
  const entries = ns.map(entry).sort((a, b) => b.rollout.updatedMs - a.rollout.updatedMs);
  const known = new Set(entries.map((e) => `rollout_summaries/${e.rollout.file}`));
  return {
    existing,
    version: 'v1',
    entries,
    scopes: scopeViews(entries),
    changes: changes === null ? null : new Map(Object.entries(changes)),
    present: (ref) => known.has(ref) || !ref.startsWith('rollout_summaries/'),
    defaultProfile: 'No user profile yet (written by the builtin consolidation). Write a short description.',
    preferences: ranked(
      entries.flatMap((e) => e.preferences),
      10,
      new Set(),
    ),
    tips: ranked(
      entries.flatMap((e) => e.knowledge),
      6,
      new Set(),
    ),
    notes: [],
    extras: [],
    profileMaxWords: 350,
    ...extra,
  };
}

function merged(src: SummaryMergeSource): SummaryMergeResult {
  const result = mergeSummary(src);
  if (typeof result === 'string') throw new Error(`not merged: ${result}`);
  return result;
}

/** The changed lines of each hunk, with their sign. */
const changes = (before: string, after: string) => computeHunks(before, after).map((h) => h.lines.filter((l) => /^[-+]/.test(l)));
const rf = (n: number) => `rollout_summaries/${fileOf(n)}`;

describe('mergeSummary', () => {
  it('leaves a summary whose inputs are all unchanged byte for byte (hand-written entries, note lines, undated topics)', () => {
    const result = merged(source(EXISTING, [1, 2, 3, 4, 5], {}));
    expect(result.text).toBe(EXISTING);
    expect(result).toMatchObject({ kept: 6, added: 0, removed: 0, trimmed: 0 });
  });

  it('removes only the entry of a dropped input, and its day group once empty', () => {
    const result = merged(source(EXISTING, [2, 3, 4, 5], { [rf(1)]: 'D' }));
    expect(result.text).toBe(
      EXISTING.replace(
        `#### 2026-02-08\n\n- logging: structured logs\n  - desc: Switched to structured logs. (rollout_summaries/${fileOf(1)})\n\n`,
        '',
      ),
    );
    expect(result).toMatchObject({ kept: 5, removed: 1 });
  });

  it('adds a new input to its existing day group (newest first), its preference after the derived ones, its lesson to the tips', () => {
    const result = merged(source(EXISTING, [1, 2, 3, 4, 5, 6], { [rf(6)]: 'A' }));
    expect(changes(EXISTING, result.text)).toEqual([
      ['+- the user said "cache nothing personal" -> never cache user data', '+- lesson 6'],
      [`+- caching: kw6`, `+  - desc: Did task 6. (${rf(6)})`, '+  - learnings: lesson 6'],
    ]);
    expect(result.text).toContain(
      `#### 2026-02-10\n\n- caching: kw6\n  - desc: Did task 6. (${rf(6)})\n  - learnings: lesson 6\n- error handling:`,
    );
    expect(result.text).toContain(
      'cause before editing\n- the user said "cache nothing personal" -> never cache user data\n- PR descriptions in German',
    );
    // Idempotent: the input is covered now.
    expect(merged(source(result.text, [1, 2, 3, 4, 5, 6], { [rf(6)]: 'A' })).text).toBe(result.text);
  });

  it('opens a new scope where the template puts it: scopes newest first, before the older topics', () => {
    const result = merged(source(EXISTING, [1, 2, 3, 4, 5, 7], { [rf(7)]: 'A' }));
    expect(result.text).toContain(
      `## What's in Memory\n\n### mobile\n\n#### 2026-02-11\n\n- push notifications: kw7\n  - desc: Did task 7. (${rf(7)})\n  - learnings: lesson 7\n\n### api\n`,
    );
    expect(changes(EXISTING, result.text)).toHaveLength(1);
    // A scope older than the others goes after them, still before "### Older Memory Topics".
    const older = merged(source(EXISTING, [1, 2, 3, 4, 5, 8], { [rf(8)]: 'A' }));
    expect(older.text).toContain(`(rollout_summaries/${fileOf(4)})\n\n### docs\n\n#### 2026-02-01\n\n- docs site: kw8\n`);
    expect(older.text).toContain('  - learnings: lesson 8\n\n### Older Memory Topics\n');
  });

  it('keeps note lines as written and adds a line only for a note the workspace diff shows as new or edited', () => {
    const notes = [
      {
        path: 'extensions/ad_hoc/notes/2026-02-01T10-00-00-pr-language.md',
        file: '2026-02-01T10-00-00-pr-language.md',
        fact: 'Remember: PR descriptions in German; commits in English',
      },
      {
        path: 'extensions/ad_hoc/notes/2026-02-12T10-00-00-ports.md',
        file: '2026-02-12T10-00-00-ports.md',
        fact: 'Remember: the api listens on 8080',
      },
    ];
    const result = merged(source(EXISTING, [1, 2, 3, 4, 5], { [notes[1]?.path as string]: 'A' }, { notes }));
    expect(changes(EXISTING, result.text)).toEqual([['+- Remember: the api listens on 8080 [ad-hoc note]']]);
    expect(result.text).toContain(
      '- PR descriptions in German, commits in English [ad-hoc note]\n- Remember: the api listens on 8080 [ad-hoc note]\n\n## General Tips',
    );
  });

  it('redoes the entry of a rewritten input (M) in place of the hand-written one, leaving the rest', () => {
    const result = merged(source(EXISTING, [1, 2, 3, 4, 5], { [rf(4)]: 'M' }, { tips: [] }));
    expect(changes(EXISTING, result.text)).toEqual([
      [
        '-- build: vite, lockfile',
        '-  - desc: Fixed the vite build. (' + rf(4) + ')',
        '+- build: kw4',
        `+  - desc: Did task 4. (${rf(4)})`,
        '+  - learnings: lesson 4',
      ],
    ]);
  });

  it('over budget: drops whole entries, oldest first (older topics before recent days), and rewords nothing', () => {
    const filler = Array.from({ length: 90 }, (_, i) => [
      `- old topic ${i}: kw, more keywords for the index`,
      `  - desc: An older topic with a long enough description to take some room. (last seen 2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')})`,
    ]).flat();
    const big = EXISTING.replace('#### api\n\n- auth:', `#### api\n\n${filler.join('\n')}\n- auth:`);
    expect(summaryFits(big, 'v1')).toBe(false);
    const result = merged(source(big, [1, 2, 3, 4, 5], {}));
    expect(summaryFits(result.text, 'v1')).toBe(true);
    expect(result.trimmed).toBeGreaterThan(0);
    // Only removals, every recent entry and the undated import stay, and what stays is in the original order.
    expect(
      changes(big, result.text)
        .flat()
        .every((l) => l.startsWith('-')),
    ).toBe(true);
    for (const n of [1, 2, 3, 4]) expect(result.text).toContain(rf(n));
    expect(result.text).toContain('- imported conventions: lint, format');
    const kept = result.text.split('\n');
    const original = big.split('\n');
    let at = 0;
    for (const line of kept) at = original.indexOf(line, at) + 1;
    expect(at).toBeGreaterThan(0);
    // The oldest older topic ("last seen 2025-01-01") went first.
    expect(result.text).not.toContain('- old topic 0:');
  });

  it('keeps CRLF line endings, and lines it adds get them too', () => {
    const crlf = EXISTING.replace(/\n/g, '\r\n');
    const result = merged(source(crlf, [1, 2, 3, 4, 5, 6], { [rf(6)]: 'A' }));
    expect(result.text.split('\r\n').every((l) => !l.includes('\n'))).toBe(true);
    expect(result.text.replace(/\r\n/g, '\n')).toBe(merged(source(EXISTING, [1, 2, 3, 4, 5, 6], { [rf(6)]: 'A' })).text);
  });

  it('v2: a new pointer line joins its day group, with no blank lines added', () => {
    const v2 = [
      'v1',
      '## User Profile',
      'Dana.',
      '## User preferences',
      '## General Tips',
      "## What's in Memory",
      '### api',
      '#### 2026-02-10',
      `- ${rf(3)} — Reworked the error middleware; thread_id=${entry(3).rollout.threadId}`,
      '### Older Memory Topics',
      '',
    ].join('\n');
    const result = merged({ ...source(v2, [3, 6], { [rf(6)]: 'A' }, { preferences: [], tips: [] }), version: 'v2' });
    expect(changes(v2, result.text)).toEqual([[`+- ${rf(6)} — Did task 6; thread_id=${entry(6).rollout.threadId}`]]);
    expect(result.text).toContain(`#### 2026-02-10\n- ${rf(6)} — `);
  });

  it('without a usable workspace diff, adds what is later than the days the summary covers, and nothing else', () => {
    // No diff file at all, and a diff whose baseline had no summary (the summary itself is "added"): the same rule.
    // Task 9 (a later day) and task 7 (a new scope) are new; task 6 falls on a day the summary already shows, task 5
    // is an older topic it left out.
    const all = { 'memory_summary.md': 'A' as const, ...Object.fromEntries([5, 6, 7, 9].map((n) => [rf(n), 'A' as const])) };
    for (const changes of [null, all]) {
      const result = merged(source(EXISTING, [1, 2, 3, 4, 5, 6, 7, 9], changes, { preferences: [], tips: [] }));
      expect(result.added).toBe(2);
      expect(result.text).toContain(`### api\n\n#### 2026-02-12\n\n- rate limits: kw9\n`);
      // Scopes newest first: api (now reaching 02-12), then mobile (02-11), then web (02-09).
      expect(result.text).toMatch(/### api\n[\s\S]*\n### mobile\n\n#### 2026-02-11\n[\s\S]*\n### web\n/);
      for (const n of [5, 6]) expect(result.text).not.toContain(rf(n));
    }
  });

  it("replaces the profile only when it is the engine's own default, or cuts it to the template's 350 words", () => {
    const def = EXISTING.replace(
      'Dana works on api and web from the CLI.',
      'No user profile yet (written by the builtin consolidation). Memory covers 1 project: api.',
    );
    expect(changes(def, merged(source(def, [1, 2, 3, 4, 5], {})).text)).toEqual([
      [
        '-No user profile yet (written by the builtin consolidation). Memory covers 1 project: api.',
        '+No user profile yet (written by the builtin consolidation). Write a short description.',
      ],
    ]);
    const long = EXISTING.replace('Dana works on api and web from the CLI.', Array.from({ length: 400 }, (_, i) => `w${i}`).join(' '));
    const result = merged(source(long, [1, 2, 3, 4, 5], {}));
    expect(result.profileClipped).toBe(true);
    expect(result.text).toContain('w349 …\n\n## User preferences');
    expect(result.text.slice(result.text.indexOf('## User preferences'))).toBe(long.slice(long.indexOf('## User preferences')));
  });

  it('hands a file that is not a v1 summary with an index back to the rebuild', () => {
    expect(mergeSummary(source(EXISTING.replace(/^v1/, 'v2'), [1], {}))).toBe('init');
    expect(mergeSummary(source(EXISTING.replace('## General Tips', '## Tips'), [1], {}))).toBe('init');
    expect(mergeSummary(source(EXISTING.slice(0, EXISTING.indexOf('### api')), [1], {}))).toBe('init');
  });
});
