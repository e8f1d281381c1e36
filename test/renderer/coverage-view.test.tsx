// The Coverage view on a report checked against the contract's schema: chips filter the table, keys move the selection,
// the detail pane shows the job's error, the retry repair shows only where core offers it, and the empty states read right.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { CoverageReportSchema, type CoverageReport, type CoverageThread } from '../../shared/coverage';
import type { MemoryVersion } from '../../shared/domain';
import { CoveragePage, CoverageReportView, initialCoverageView, type CoverageViewState } from '../../renderer/src/coverage/coverage-page';
import { ok } from '../../shared/result';
import { proposal } from './support/proposal';
import { studioStub } from './support/studio-stub';

// jsdom has no layout and no ResizeObserver: the windowed table measures with it, and here nothing ever resizes.
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

const NOW = 1_795_000_000;
const at = (seconds: number) => ({ seconds, iso: new Date(seconds * 1000).toISOString() });
const id = (n: number) => `019a1c2e-7b10-7c41-9a55-2f0e3d4b5a${String(n).padStart(2, '0')}`;

function thread(n: number, fields: { [K in keyof CoverageThread]?: unknown }): unknown {
  return {
    threadId: id(n),
    source: 'cli',
    sourceLabel: 'CLI',
    cwd: `/home/dana/src/project-${n}`,
    title: `Session ${n}`,
    rolloutPath: `/home/dana/.codex/sessions/2026/11/0${n % 9}/rollout-${id(n)}.jsonl`,
    memoryMode: 'enabled',
    updatedAt: at(NOW - n * 3600),
    stage: 'waiting',
    reason: null,
    detail: 'Waiting for the next Codex session start.',
    eligibleAt: null,
    agesOutAt: null,
    job: null,
    output: null,
    presence: { rolloutSummary: null, namedIn: [] },
    repairs: [],
    ...fields,
  };
}

const failedJob = {
  status: 'error',
  lastError: 'stage-1 extraction failed: model returned 429 Too Many Requests',
  retryAt: at(NOW + 1800),
  retryRemaining: 2,
  leaseUntil: null,
  finishedAt: at(NOW - 600),
  retryState: 'backoff',
};

const output = {
  sourceUpdatedAt: at(NOW - 90_000),
  generatedAt: at(NOW - 80_000),
  rolloutSlug: 'invoice-export-tests',
  selectedForPhase2: true,
  usageCount: 1234,
  lastUsage: at(NOW - 3600),
};

function report(fields: Partial<Record<keyof CoverageReport, unknown>> = {}): CoverageReport {
  return CoverageReportSchema.parse({
    version: 'v2',
    generatedAt: at(NOW),
    window: { maxRolloutAgeDays: 30, minRolloutIdleHours: 6, maxRolloutsPerStartup: 16 },
    sinceDays: null,
    totals: { 'not-eligible': 2, waiting: 1, extracting: 0, failed: 1, exhausted: 1, extracted: 0, selected: 1 },
    notEligible: { source: 1, 'memory-disabled': 0, polluted: 0, archived: 0, 'too-recent': 0, 'too-old': 1, 'no-time': 0 },
    agingOut: [id(1)],
    threads: [
      thread(1, { agesOutAt: at(NOW + 2 * 86_400) }),
      thread(2, {
        stage: 'failed',
        detail: 'Codex retries after 14:02 UTC (2 tries left).',
        job: failedJob,
        repairs: ['retry'],
      }),
      thread(3, {
        stage: 'exhausted',
        detail: 'The extraction failed three times; Codex never tries again unless the session changes.',
        job: { ...failedJob, lastError: 'context window exceeded', retryRemaining: 0, retryState: 'exhausted', retryAt: null },
        repairs: ['retry'],
      }),
      thread(4, {
        stage: 'selected',
        detail: 'Part of the last consolidation.',
        output,
        presence: { rolloutSummary: 'rollout_summaries/invoice-export-tests.md', namedIn: [{ relPath: 'MEMORY.md', lines: 3 }] },
      }),
      thread(5, {
        stage: 'not-eligible',
        reason: 'source',
        source: 'exec',
        sourceLabel: 'exec',
        detail: 'codex exec sessions are never extracted.',
      }),
      thread(6, { stage: 'not-eligible', reason: 'too-old', detail: 'Last active 45 days ago: past max_rollout_age_days.' }),
    ],
    consolidation: {
      status: 'running',
      state: 'running-dead',
      detail: 'The consolidation job runs under a lease that expired 3 hours ago: its worker is gone.',
      leaseUntil: at(NOW - 3 * 3600),
      retryAt: null,
      finishedAt: null,
      lastError: null,
      reclaimable: true,
    },
    problems: [],
    ...fields,
  });
}

function show(data: CoverageReport = report(), initial: Partial<CoverageViewState> = {}) {
  const opened: Array<{ version: MemoryVersion; path: string }> = [];
  const sessions: string[] = [];
  const proposals: string[] = [];
  const stub = studioStub({ 'coverage.retry': () => ok(proposal('p-retry')), 'coverage.reclaim': () => ok(proposal('p-reclaim')) });
  function Harness() {
    const [viewState, setViewState] = useState<CoverageViewState>({ ...initialCoverageView, ...initial });
    return (
      <CoverageReportView
        report={data}
        viewState={viewState}
        onViewState={setViewState}
        onOpenFile={(version, path) => opened.push({ version, path })}
        onOpenSession={(threadId) => sessions.push(threadId)}
        onOpenProposal={(proposalId) => proposals.push(proposalId)}
      />
    );
  }
  render(<Harness />, { wrapper: stub.wrapper });
  const rowIds = () => screen.queryAllByTestId('coverage-row').map((row) => row.dataset.threadId);
  const selectedId = () =>
    screen.queryAllByTestId('coverage-row').find((row) => row.getAttribute('aria-selected') === 'true')?.dataset.threadId;
  const chip = (stage: string) => screen.getAllByTestId('stage-chip').find((c) => c.dataset.stage === stage) as HTMLElement;
  return { opened, sessions, proposals, stub, rowIds, selectedId, chip };
}

describe('the Coverage view', () => {
  it('shows every session, newest first, with totals per stage as chips that filter the table', async () => {
    const { rowIds, chip } = show();
    expect(rowIds()).toEqual([1, 2, 3, 4, 5, 6].map(id));
    expect(chip('all').textContent).toContain('6');
    expect(chip('failed').textContent).toBe('Failed 1');

    await userEvent.click(chip('not-eligible'));
    expect(chip('not-eligible').getAttribute('aria-pressed')).toBe('true');
    expect(rowIds()).toEqual([id(5), id(6)]);
    expect(screen.getByTestId('coverage-count').textContent).toBe('2 of 6 sessions');

    const tooOld = screen.getAllByTestId('reason-chip').find((c) => c.dataset.reason === 'too-old') as HTMLElement;
    await userEvent.click(tooOld);
    expect(rowIds()).toEqual([id(6)]);

    // A second click on the pressed chip shows every session again.
    await userEvent.click(tooOld);
    expect(rowIds()).toHaveLength(6);
  });

  it('mounts only a window of rows for 4,188 sessions, and keeps the keyboard selection mounted', () => {
    const many = Array.from({ length: 4188 }, (_, n) =>
      thread(0, { threadId: `019a1c2e-7b10-7c41-9a55-${String(n).padStart(12, '0')}`, updatedAt: at(NOW - n * 60) }),
    );
    const { selectedId } = show(report({ threads: many, agingOut: [] }));
    expect(screen.getAllByTestId('coverage-row').length).toBeLessThan(50);
    const table = screen.getByTestId('coverage-table');
    act(() => table.focus());
    fireEvent.keyDown(table, { key: 'End' });
    expect(selectedId()).toBe('019a1c2e-7b10-7c41-9a55-000000004187');
    expect(screen.getAllByTestId('coverage-row').length).toBeLessThan(50);
  });

  it('formats counts with thousands separators', () => {
    const big = report({
      totals: { 'not-eligible': 2, waiting: 4188, extracting: 0, failed: 1, exhausted: 1, extracted: 0, selected: 1 },
    });
    show(big);
    const waiting = screen.getAllByTestId('stage-chip').find((c) => c.dataset.stage === 'waiting') as HTMLElement;
    expect(waiting.textContent).toBe(`Waiting ${(4188).toLocaleString()}`);
  });

  it('filters by text on id, directory, title and error, and says when nothing matches', async () => {
    const { rowIds } = show();
    const filter = screen.getByTestId('coverage-filter');
    await userEvent.type(filter, '429 too many');
    expect(rowIds()).toEqual([id(2)]);
    await userEvent.clear(filter);
    await userEvent.type(filter, 'project-6');
    expect(rowIds()).toEqual([id(6)]);
    await userEvent.type(filter, 'zzz');
    expect(screen.getByTestId('coverage-no-match').textContent).toContain('No session matches');
    await userEvent.click(screen.getByRole('button', { name: 'Show every session' }));
    expect(rowIds()).toHaveLength(6);
  });

  it('sorts by stage in the pipeline order', async () => {
    const { rowIds } = show();
    await userEvent.click(screen.getAllByTestId('coverage-sort').find((b) => b.dataset.sort === 'stage') as HTMLElement);
    expect(rowIds()).toEqual([id(5), id(6), id(1), id(2), id(3), id(4)]);
  });

  it('moves the selection with the arrows and j/k, and Enter takes the focus to the details', () => {
    const { selectedId } = show();
    const table = screen.getByTestId('coverage-table');
    act(() => table.focus());
    expect(selectedId()).toBe(id(1));
    fireEvent.keyDown(table, { key: 'ArrowDown' });
    expect(selectedId()).toBe(id(2));
    fireEvent.keyDown(table, { key: 'j' });
    expect(selectedId()).toBe(id(3));
    fireEvent.keyDown(table, { key: 'k' });
    expect(selectedId()).toBe(id(2));
    fireEvent.keyDown(table, { key: 'End' });
    expect(selectedId()).toBe(id(6));
    fireEvent.keyDown(table, { key: 'j' });
    expect(selectedId()).toBe(id(6));
    fireEvent.keyDown(table, { key: 'Home' });
    expect(table.getAttribute('aria-activedescendant')).toBe('coverage-row-0');

    fireEvent.keyDown(table, { key: 'ArrowDown' });
    fireEvent.keyDown(table, { key: 'Enter' });
    const detail = screen.getByTestId('coverage-detail');
    expect(document.activeElement).toBe(detail);
    expect(detail.dataset.threadId).toBe(id(2));
  });

  it("shows the selected session's job with its last error, and offers a retry only where core lists one", async () => {
    const { proposals, stub } = show();
    await userEvent.click(screen.getAllByTestId('coverage-row').find((row) => row.dataset.threadId === id(2)) as HTMLElement);
    const detail = screen.getByTestId('coverage-detail');
    expect(within(detail).getByTestId('detail-sentence').textContent).toBe('Codex retries after 14:02 UTC (2 tries left).');
    expect(within(detail).getByTestId('job-error').textContent).toBe('stage-1 extraction failed: model returned 429 Too Many Requests');
    expect(within(detail).getByTestId('job-error').tagName).toBe('PRE');
    expect(within(detail).getByTestId('propose-retry').textContent).toBe('Propose a retry');
    // The retry is a proposal, opened in the Review view as "Forget this session" does.
    await userEvent.click(within(detail).getByTestId('propose-retry'));
    await waitFor(() => expect(proposals).toEqual(['p-retry']));
    expect(stub.calls.filter((c) => c.channel === 'coverage.retry').map((c) => c.input)).toEqual([{ version: 'v2', threadId: id(2) }]);

    await userEvent.click(screen.getAllByTestId('coverage-row').find((row) => row.dataset.threadId === id(1)) as HTMLElement);
    expect(screen.getByTestId('coverage-detail').dataset.threadId).toBe(id(1));
    expect(screen.queryByTestId('propose-retry')).toBeNull();
    expect(screen.queryByTestId('job-error')).toBeNull();
  });

  it('opens the files naming a session in the editor and its rollout in the session view', async () => {
    const { opened, sessions } = show(report(), { selectedId: id(4) });
    const detail = screen.getByTestId('coverage-detail');
    expect(within(detail).getByTestId('coverage-output').textContent).toContain((1234).toLocaleString());
    const links = within(detail).getAllByTestId('open-presence');
    expect(links.map((l) => l.dataset.path)).toEqual(['rollout_summaries/invoice-export-tests.md', 'MEMORY.md']);
    await userEvent.click(links[1] as HTMLElement);
    await userEvent.click(within(detail).getByTestId('open-session'));
    expect(opened).toEqual([{ version: 'v2', path: 'MEMORY.md' }]);
    expect(sessions).toEqual([id(4)]);
  });

  it('warns about a stuck consolidation with its reclaim repair, and lists sessions about to age out', async () => {
    const { selectedId, proposals, stub } = show(report(), { filter: { stage: 'failed', reason: null } });
    const consolidation = screen.getByTestId('coverage-consolidation');
    expect(consolidation.className).toContain('notice-warn');
    expect(consolidation.textContent).toContain('its worker is gone');
    await userEvent.click(within(consolidation).getByTestId('propose-reclaim'));
    await waitFor(() => expect(proposals).toEqual(['p-reclaim']));
    expect(stub.calls.filter((c) => c.channel === 'coverage.reclaim').map((c) => c.input)).toEqual([{ version: 'v2' }]);
    // Picking a session hidden by the chip shows it anyway: the filter is cleared.
    await userEvent.click(within(screen.getByTestId('coverage-aging-out')).getByRole('button', { name: '019a1c2e…5a01' }));
    expect(selectedId()).toBe(id(1));
  });

  it('says where the thread catalog comes from, and how to turn memories on, when there is none', () => {
    show(
      report({
        threads: [],
        agingOut: [],
        totals: { 'not-eligible': 0, waiting: 0, extracting: 0, failed: 0, exhausted: 0, extracted: 0, selected: 0 },
        problems: [
          {
            db: 'state',
            path: '/home/dana/.codex/state_5.sqlite',
            kind: 'missing',
            message: 'state_5.sqlite does not exist.',
            hint: 'Codex creates it at its first start.',
          },
        ],
      }),
    );
    const empty = screen.getByTestId('coverage-no-state-db');
    expect(empty.textContent).toContain('No Codex thread catalog here yet');
    expect(empty.textContent).toContain('memories = true');
    expect(screen.queryByTestId('coverage-table')).toBeNull();
  });

  it('lists the other DB problems with their hint, and says when the catalog has no session in the window', () => {
    show(
      report({
        threads: [],
        agingOut: [],
        sinceDays: 7,
        problems: [
          {
            db: 'memories_v2',
            path: '/home/dana/.codex/memories_v2.sqlite',
            kind: 'locked',
            message: 'The file is locked.',
            hint: 'Close Codex and retry.',
          },
        ],
      }),
    );
    expect(screen.getByTestId('coverage-problem').textContent).toContain('Close Codex and retry.');
    expect(screen.getByTestId('coverage-empty').textContent).toContain('in the last 7 days');
  });

  it('asks coverage.get for the version Codex reads first, then for the version and window the person picks', async () => {
    const stub = studioStub({
      'coverage.get': (input: { version?: MemoryVersion; sinceDays?: number }) =>
        ok(report({ version: input.version ?? 'v2', sinceDays: input.sinceDays ?? null })),
    });
    function Page() {
      const [viewState, setViewState] = useState<CoverageViewState>(initialCoverageView);
      return (
        <CoveragePage
          active
          viewState={viewState}
          onViewState={setViewState}
          onOpenFile={() => undefined}
          onOpenSession={() => undefined}
          onOpenProposal={() => undefined}
        />
      );
    }
    render(<Page />, { wrapper: stub.wrapper });
    await screen.findAllByTestId('coverage-row');
    const picker = screen.getByTestId('version-picker');
    expect((within(picker).getByRole('radio', { checked: true }) as HTMLInputElement).value).toBe('v2');
    await userEvent.click(within(picker).getByText('v1'));
    await userEvent.click(within(screen.getByTestId('coverage-since')).getByRole('button', { name: '30 days' }));
    await screen.findByText(/sessions active in the last/);
    const asked = stub.calls.filter((c) => c.channel === 'coverage.get').map((c) => c.input);
    expect(asked).toEqual([{}, { version: 'v1' }, { version: 'v1', sinceDays: 30 }]);
  });
});
