// End to end for the Inspect views: the budget lens, pointer -> summary -> session, pipeline health, the rollout table.
import Database from 'better-sqlite3';
import { appendFile, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { generateHome } from '../fixtures';
import { expect, guardPage, keepScreenshot, ready, startServe, test, stopAndRemove } from './fixtures';

test('an over-budget summary names and shades the lines the next session does not see', async ({ guardedPage: page, studio }, testInfo) => {
  // ~12 KB of extra bullets: well past Codex's 2,500-token (10,000-byte) limit.
  const extra = Array.from(
    { length: 120 },
    (_, i) => `- extra learning ${i}: keep the release checklist in docs/release.md and run it before tagging\n`,
  ).join('');
  await appendFile(join(studio.codexHome, 'memories', 'memory_summary.md'), extra);
  await ready(page, studio.url);
  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="memory_summary.md"]').click();
  await expect(page.locator('[data-testid="editor"][data-version="v1"][data-path="memory_summary.md"]')).toBeVisible();

  // One headline decided by Codex's own rule, its figures underneath, the o200k count explained as secondary.
  const headline = page.getByTestId('budget-headline');
  await expect(headline).toHaveAttribute('data-fits', 'false');
  await expect(headline).toHaveText(/^Codex cuts [\d,]+ lines \(\d+–\d+\): [\d,]+ tokens by Codex's estimate, over the 2,500 limit$/);
  await expect(page.getByTestId('budget-detail')).toContainText(/Codex decides by its estimate, not by that count/);
  const banner = page.getByTestId('budget-banner');
  await expect(banner).toHaveText(/the next session does not see lines \d+–\d+/);
  await page.getByTestId('show-cut').click();
  await expect(page.locator('.budget-removed-line').first()).toBeVisible();
  expect(await page.locator('.budget-removed-line').count()).toBeGreaterThan(0);

  // The first cut line is on screen, and its number is the banner's X.
  const firstCut = Number(/lines (\d+)–/.exec((await banner.textContent()) ?? '')?.[1]);
  await expect(page.locator('.line-numbers', { hasText: new RegExp(`^${firstCut}$`) })).toBeVisible();

  await page.getByText('Show what the next session sees').click();
  await expect(page.getByTestId('injected-text')).toContainText('tokens truncated');
  await keepScreenshot(page, testInfo, 'budget-cut');
});

test('a v2 pointer opens its rollout summary, and Open session shows the same thread', async ({ guardedPage: page, studio }, testInfo) => {
  await ready(page, studio.url);
  await page.locator('[data-testid="file-item"][data-version="v2"][data-path="memory_summary.md"]').click();
  // The first screen shows another summary, with pointers of its own: wait until the v2 file is the one open.
  await expect(page.locator('[data-testid="editor"][data-version="v2"][data-path="memory_summary.md"]')).toBeVisible();
  const pointers = page.getByTestId('pointer-link');
  await expect(pointers.first()).toBeVisible();

  const pointer = pointers.first();
  const file = await pointer.getAttribute('data-file');
  const threadId = await pointer.getAttribute('data-thread-id');
  expect(file).toMatch(/^rollout_summaries\/.+\.md$/);
  expect(threadId).toBeTruthy();
  // Keyboard: focus the pointer and press Enter, as a person without a mouse would.
  await pointer.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator(`[data-testid="editor"][data-version="v2"][data-path="${file}"]`)).toBeVisible();

  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByTestId('provenance-thread-id')).toHaveText(threadId ?? '');
  await inspector.getByTestId('open-session').click();
  const session = page.getByTestId('session-view');
  await expect(session).toHaveAttribute('data-thread-id', threadId ?? '');
  await expect(session.getByTestId('session-thread-id')).toHaveText(threadId ?? '');
  await keepScreenshot(page, testInfo, 'session-view');

  // Back returns to the rollout summary.
  await session.getByRole('button', { name: /Back to v2\/rollout_summaries/ }).click();
  await expect(page.locator(`[data-testid="editor"][data-version="v2"][data-path="${file}"]`)).toBeVisible();
});

test("a session's citation opens the cited lines in the root core found the file in", async ({ guardedPage: page, studio }) => {
  await ready(page, studio.url);
  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="MEMORY.md"]').click();
  await expect(page.locator('[data-testid="editor"][data-version="v1"][data-path="MEMORY.md"]')).toBeVisible();
  const cited = page.getByTestId('inspector').getByTestId('cited-by-entry').first();
  await cited.getByRole('button', { name: /^session / }).click();
  // Sessions cite `MEMORY.md` without a root; core places it in v1, the root that has it.
  const link = page.getByTestId('session-view').locator('[data-testid="citation-entry"][data-file="MEMORY.md"]').first();
  await expect(link).toHaveText(/^v1\/MEMORY\.md · lines? \d+/);
  const line = Number(/(\d+)/.exec((await link.textContent())?.split('·')[1] ?? '')?.[1]);
  await link.click();
  await expect(page.locator('[data-testid="editor"][data-version="v1"][data-path="MEMORY.md"]')).toBeVisible();
  await expect(page.locator('.line-numbers', { hasText: new RegExp(`^${line}$`) })).toBeVisible();
});

test('the health page shows the failed stage-1 jobs with their last_error', async ({ guardedPage: page, studio }, testInfo) => {
  const db = new Database(join(studio.codexHome, 'memories_1.sqlite'), { readonly: true, fileMustExist: true });
  const errors = db
    .prepare("SELECT last_error AS error FROM jobs WHERE kind = 'memory_stage1' AND status = 'error' AND last_error IS NOT NULL")
    .all() as Array<{ error: string }>;
  db.close();
  expect(errors.length, 'the generated home has failed stage-1 jobs').toBeGreaterThan(0);

  await ready(page, studio.url);
  // Alt+4 switches to Health from anywhere.
  await page.keyboard.press('Alt+4');
  await expect(page.locator('[data-testid="view-tab"][data-view="health"]')).toHaveAttribute('aria-selected', 'true');
  const health = page.getByTestId('health-page');
  await expect(health).toBeVisible();
  const v1 = health.locator('[data-testid="version-health"][data-version="v1"]');
  await expect(v1.getByTestId('failed-job')).toHaveCount(errors.length);
  for (const { error } of errors) {
    await expect(v1.getByTestId('failed-job').filter({ hasText: error }).first()).toBeVisible();
  }
  await expect(health.getByTestId('health-config')).toContainText('max_unused_days');
  await keepScreenshot(page, testInfo, 'health');
});

test('Health names the Codex release that wrote the home and a stray DB file; Chronicle resources say what the pruner does', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  await writeFile(join(studio.codexHome, 'state_6.sqlite'), '');
  await ready(page, studio.url);
  // The demo's Chronicle summaries are dated days before the fixture's clock, so today all are past the 7-day prune.
  await page.getByLabel('Filter files by name').fill('chronicle/resources');
  const resources = page.locator('[data-testid="file-item"][data-version="v2"][data-kind="extension-resource"]');
  await expect(resources).toHaveCount(4);
  await expect(resources.first().getByTestId('resource-expired')).toHaveText('pruned at next run');
  await expect(resources.first()).toHaveAttribute(
    'title',
    /Chronicle (10-minute|6-hour) summary\nCodex deletes it at its next consolidation/,
  );

  await page.keyboard.press('Alt+4');
  const release = page.getByTestId('health-release');
  await expect(release.getByTestId('release-summary')).toContainText(
    "Codex 0.171.0 wrote this home (its databases' migrations; codex-cli 0.171.0 ran the newest session): verified (docs/compat/0.171.0.md).",
  );
  await expect(release.getByTestId('release-warning')).toHaveCount(0);
  await expect(release.getByTestId('release-verified')).toContainText('Memory Studio is checked against Codex 0.171.0');
  await expect(release.locator('[data-testid="db-migrations"][data-db="state"]')).toContainText(
    '64 migrations, as Codex 0.171.0 leaves it',
  );
  await expect(release.locator('[data-testid="db-migrations"][data-file="thread_history_1.sqlite"]')).toContainText('9 migrations');
  await expect(release.getByTestId('other-db-files')).toContainText('state_6.sqlite');
  await expect(page.locator('[data-testid="version-health"][data-version="v1"]')).toContainText('active');
  await keepScreenshot(page, testInfo, 'health-release');
});

/** Files a real v2 rollout summary under a made-up project in memory_summary.md, so the lens has a misfiled entry. */
async function fileUnderWrongProject(codexHome: string): Promise<string> {
  const root = join(codexHome, 'memories_v2');
  const [file] = (await readdir(join(root, 'rollout_summaries'))).filter((name) => name.endsWith('.md')).sort();
  if (!file) throw new Error('the generated v2 root has no rollout summaries');
  const threadId = /^thread_id: (\S+)$/m.exec(await readFile(join(root, 'rollout_summaries', file), 'utf8'))?.[1] ?? '';
  const summaryPath = join(root, 'memory_summary.md');
  const summary = await readFile(summaryPath, 'utf8');
  const pointer = `### wrong-project\n#### 2026-11-19\n- rollout_summaries/${file} — Filed here on purpose; thread_id=${threadId}\n`;
  await writeFile(summaryPath, summary.replace("## What's in Memory\n", `## What's in Memory\n${pointer}`));
  return file;
}

test('the projects page lists projects, flags a misfiled entry, and opens an entry at its line', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  await fileUnderWrongProject(studio.codexHome);
  await ready(page, studio.url);
  await page.locator('[data-testid="view-tab"][data-view="projects"]').click();
  const projects = page.getByTestId('projects-page');
  await expect(projects.getByTestId('project-card').first()).toBeVisible();

  await projects.getByTestId('version-picker').locator('label', { hasText: 'v2' }).click();
  const misfiled = projects.getByTestId('misfiled-entry');
  await expect(misfiled).toHaveCount(1);
  await expect(misfiled).toContainText('wrong-project');
  await keepScreenshot(page, testInfo, 'projects-misfiled');
  await misfiled.click();
  await expect(page.locator('[data-testid="view-tab"][data-view="files"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-testid="editor"][data-version="v2"][data-path="memory_summary.md"]')).toBeVisible();
  await expect(page.locator('.jump-target-line').first()).toBeVisible();
});

test.describe('a heavy home', () => {
  test('the rollout table lists 4,096 summaries with at most 200 rows mounted, and sorts by date', async ({ page }, testInfo) => {
    test.setTimeout(360_000);
    const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-heavy-'));
    const codexHome = join(dir, 'codex-home');
    // No git baseline: it is irrelevant here and committing 4,096 files would dominate the test's time.
    await generateHome({ dir: codexHome, scale: 'heavy', version: 'v1', seed: 4096, now: new Date('2026-11-20T12:00:00Z'), git: false });
    const { url, child } = await startServe(codexHome, join(dir, 'data'));
    try {
      const origin = new URL(url).origin;
      const checkClean = guardPage(page, origin);
      await ready(page, url);
      await page.keyboard.press('Alt+2');
      const count = page.getByTestId('rollout-count');
      // The first open of a home builds its index (8,000 files here): generous for a busy machine.
      await expect(count).toHaveAttribute('data-total', '4096', { timeout: 180_000 });
      await expect(count).toHaveAttribute('data-shown', '4096');
      const rows = page.getByTestId('rollout-row');
      await expect(rows.first()).toBeVisible();
      expect(await rows.count()).toBeLessThanOrEqual(200);
      expect(await page.getByTestId('rollout-table').getAttribute('aria-rowcount')).toBe('4097');

      const times = await rolloutTimes(url);
      expect(times).toHaveLength(4096);
      await expectSortedByDate(page, 'desc', Math.max(...times));
      await page.locator('[data-testid="sort-button"][data-sort="date"]').click();
      await expectSortedByDate(page, 'asc', Math.min(...times));

      // Scrolled to the end, still windowed, and the last row is the newest.
      await page.getByTestId('rollout-table').evaluate((element) => element.scrollTo(0, element.scrollHeight));
      const last = page.locator('[data-testid="rollout-row"][aria-rowindex="4097"]');
      await expect(last).toBeVisible();
      expect(Date.parse((await last.getAttribute('data-updated-at')) ?? '')).toBe(Math.max(...times));
      expect(await rows.count()).toBeLessThanOrEqual(200);
      await keepScreenshot(page, testInfo, 'rollouts-heavy');

      // Keyboard: Home selects the first row, Enter opens it in the Files view.
      await page.getByTestId('rollout-table').focus();
      await page.keyboard.press('Home');
      const first = await page.locator('[data-testid="rollout-row"][aria-rowindex="2"]').getAttribute('data-path');
      await page.keyboard.press('Enter');
      await expect(page.locator(`[data-testid="editor"][data-path="${first}"]`)).toBeVisible();
      checkClean();
    } finally {
      await stopAndRemove(child, dir);
    }
  });
});

/** Every row's updated_at (ms) straight from the serve host, to know which rows a correct sort puts first. */
async function rolloutTimes(url: string): Promise<number[]> {
  const parsed = new URL(url);
  const response = await fetch(`${parsed.origin}/api/inspect.rollouts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${parsed.searchParams.get('token') ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify({ version: 'v1' }),
  });
  const body = (await response.json()) as { ok: boolean; value?: { rows: Array<{ updatedAt: string | null }> } };
  expect(body.ok).toBe(true);
  return (body.value?.rows ?? []).map((row) => Date.parse(row.updatedAt ?? '')).filter((time) => !Number.isNaN(time));
}

/** The mounted rows, in table order, are sorted by updated_at, and the first row holds `first` (the newest or oldest of all). */
async function expectSortedByDate(page: Page, direction: 'asc' | 'desc', first: number): Promise<void> {
  await expect(page.locator('[data-testid="sort-button"][data-sort="date"]').locator('xpath=..')).toHaveAttribute(
    'aria-sort',
    direction === 'asc' ? 'ascending' : 'descending',
  );
  const mounted = await page.getByTestId('rollout-row').evaluateAll((elements) =>
    elements
      .map((element) => ({
        index: Number(element.getAttribute('aria-rowindex')),
        time: Date.parse(element.getAttribute('data-updated-at') ?? ''),
      }))
      .sort((a, b) => a.index - b.index),
  );
  expect(mounted.length).toBeGreaterThan(10);
  expect(mounted[0]?.index, 'the table starts at its first row').toBe(2);
  expect(mounted[0]?.time).toBe(first);
  for (let i = 1; i < mounted.length; i += 1) {
    const [previous, current] = [mounted[i - 1]?.time ?? 0, mounted[i]?.time ?? 0];
    if (direction === 'asc') expect(current).toBeGreaterThanOrEqual(previous);
    else expect(current).toBeLessThanOrEqual(previous);
  }
}
