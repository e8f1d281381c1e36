// End to end, keyboard only (no click): open a file from the palette, edit, Ctrl+Enter proposes, decide with keys,
// apply, revert from History, consolidate, import; after every action that opens or changes a proposal the focus is on
// its first undecided hunk (a click on the Review tab or an inbox row included).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { callHost, expect, ready, test, type ServedStudio } from './fixtures';
import { expectStep, feedbackTests, makeClaudeHome, memoryIndex, SECRET } from './import-helpers';

/** What holds the focus: its test id, and for a hunk its id and decision. */
async function focused(page: Page): Promise<{ testid: string | null; hunkId: string | null; decision: string | null }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { testid: el?.dataset.testid ?? null, hunkId: el?.dataset.hunkId ?? null, decision: el?.dataset.decision ?? null };
  });
}

/** Presses Tab until `matches` holds for the focused element (a person tabbing to a control), at most `max` times. */
async function tabTo(page: Page, selector: string, max = 60): Promise<void> {
  for (let i = 0; i <= max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    if (i < max) await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** The focus sits on the first hunk of the proposal nobody decided yet. */
async function expectFocusOnFirstUndecided(page: Page): Promise<void> {
  const first = page.locator('[data-testid="proposal-detail"] [data-testid="hunk-item"][data-decision="undecided"]').first();
  await expect(first).toBeFocused();
}

/**
 * Shift+A on every file of the proposal, from the keyboard alone: each one lands on the next file's first undecided hunk
 * (its tab selected), never a Shift+Tab to a tab. Resolves with the number of files accepted.
 */
async function acceptFilesByKeys(page: Page): Promise<number> {
  const files = page.getByTestId('proposal-file');
  const total = await files.count();
  expect(total).toBeGreaterThan(1);
  for (let done = 1; done <= total; done++) {
    await expectFocusOnFirstUndecided(page);
    const shown = await page.locator('[data-testid="proposal-file"][aria-selected="true"]').getAttribute('data-path');
    await page.keyboard.press('Shift+A');
    if (done === total) break;
    await expect(page.locator('[data-testid="proposal-file"][aria-selected="true"]')).not.toHaveAttribute('data-path', shown ?? '');
  }
  await expect(page.locator('[data-testid="proposal-detail"] [data-testid="hunk-item"][data-decision="undecided"]')).toHaveCount(0);
  return total;
}

/** Ctrl+K, the file by name, Enter; then Tab to Edit, Enter; then Tab into the editor and type on line 3 and at the end. */
async function editSummaryByKeyboard(page: Page): Promise<void> {
  await page.keyboard.press('Control+K');
  await page.getByTestId('palette-input').fill('memory_summary');
  const item = page.locator('[data-testid="palette-item"][data-type="file"]').first();
  await expect(item).toContainText('memory_summary.md');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="editor"][data-path="memory_summary.md"]')).toBeVisible();
  await tabTo(page, '[data-testid="edit-button"]');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="editor"][data-editable="true"]')).toBeVisible();
  // Edit puts the keyboard in the editor.
  await tabTo(page, '[data-testid="editor"][data-editable="true"] *', 0);
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.type(' EDITED-A');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('EDITED-B closing line');
}

/**
 * The loop's start, from the keyboard: the home's memory_summary.md edited on two lines and proposed with Ctrl+Enter;
 * the Review view shows the proposal with the keyboard on its first hunk. Resolves with the file and its text before.
 */
async function proposeSummaryEdit(page: Page, studio: ServedStudio): Promise<{ target: string; original: string }> {
  const target = join(studio.codexHome, 'memories', 'memory_summary.md');
  const original = await readFile(target, 'utf8');
  await ready(page, studio.url);
  await editSummaryByKeyboard(page);
  // Ctrl+Enter in the editor proposes, and the keyboard is on the new proposal's first hunk.
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-testid="proposal-detail"] [data-testid="hunk-item"]')).toHaveCount(2);
  await expectFocusOnFirstUndecided(page);
  return { target, original };
}

test('the whole review loop from the keyboard: focus lands on the first undecided hunk after Propose and Revert', async ({
  guardedPage: page,
  studio,
}) => {
  const { target, original } = await proposeSummaryEdit(page, studio);
  const hunks = page.locator('[data-testid="proposal-detail"] [data-testid="hunk-item"]');
  const firstId = await hunks.nth(0).getAttribute('data-hunk-id');
  expect((await focused(page)).hunkId).toBe(firstId);

  // r rejects it and the focus follows the cursor to the next hunk; a accepts that one.
  await page.keyboard.press('r');
  await expect(hunks.nth(0)).toHaveAttribute('data-decision', 'reject');
  await expect(hunks.nth(1)).toBeFocused();
  await page.keyboard.press('a');
  await expect(hunks.nth(1)).toHaveAttribute('data-decision', 'accept');
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');

  // Tab stays in the proposal (the next control after the hunk), never jumping to the status bar.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="proposal-detail"]'))).toBe(true);

  const apply = page.getByTestId('apply-button');
  const written = /\(\+(\d+) −(\d+)\)/.exec((await apply.textContent()) ?? '');
  expect(written).not.toBeNull();
  await tabTo(page, '[data-testid="apply-button"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('apply-result')).toBeVisible();
  // After Apply the keyboard is on "Show in History", not lost on the page body.
  await expect(page.getByTestId('show-in-history')).toBeFocused();
  expect(await readFile(target, 'utf8')).toContain('EDITED-B closing line');

  // The inbox keeps the applied proposal apart, with what was written (only the accepted hunk), not all it proposed.
  const appliedRow = page.locator('[data-testid="proposal-done"] [data-testid="proposal-item"][data-status="applied"]');
  await expect(appliedRow).toHaveCount(1);
  await expect(appliedRow).toContainText(`+${written?.[1]}`);
  await expect(appliedRow).toContainText(`−${written?.[2]}`);

  // Enter on Show in History, Tab to Revert, Enter: the revert proposal opens with the keyboard on its first hunk.
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="view-tab"][data-view="history"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('revert-button')).toBeVisible();
  await tabTo(page, '[data-testid="revert-button"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('proposal-title')).toContainText('Revert');
  await expectFocusOnFirstUndecided(page);
  // A decides the revert's only file: nothing is left undecided, so the keyboard goes on to Apply once it may.
  await page.keyboard.press('Shift+A');
  await expect(hunks.first()).toHaveAttribute('data-decision', 'accept');
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
  await expect(page.getByTestId('apply-button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('apply-result')).toBeVisible();
  expect(await readFile(target, 'utf8')).toBe(original);
});

test('after a rebase the keyboard is on the conflict: t/o/b/e work at once, and after a hand edit it comes back', async ({
  guardedPage: page,
  studio,
}) => {
  const { target, original } = await proposeSummaryEdit(page, studio);

  // Codex rewrites line 3 (the proposal's first edit): the proposal is stale; Rebase from the keyboard.
  const lines = original.split('\n');
  lines[2] = `${lines[2]} CODEX-ON-LINE-3`;
  await writeFile(target, lines.join('\n'));
  await expect(page.getByTestId('stale-warning')).toBeVisible();
  await tabTo(page, '[data-testid="rebase-button"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rebase-result')).toContainText('1 conflict to resolve');
  const conflict = page.locator('[data-testid="hunk-item"][data-kind="conflict"]');
  await expect(conflict).toBeFocused();
  await expect(page.getByTestId('conflict-view')).toBeVisible();

  // e opens the hand editor; Escape closes it and the keyboard is back on the conflict, where o takes ours.
  await page.keyboard.press('e');
  await expect(page.getByTestId('conflict-edit-text')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(conflict).toBeFocused();
  await page.keyboard.press('o');
  await expect(conflict).toHaveAttribute('data-decision', 'ours');
});

test('a click on the Review tab or on an inbox row puts the keyboard on the proposal: j/k/a/r work at once', async ({
  guardedPage: page,
  studio,
}) => {
  // Two pending notes, proposed over the host's API before the page opens.
  for (const slug of ['first-note', 'second-note']) {
    const made = await callHost(studio.url, 'review.note', { version: 'v1', slug, text: `Remember the ${slug}.\n` });
    expect(made).toMatchObject({ ok: true });
  }
  await ready(page, studio.url);
  await page.locator('[data-testid="view-tab"][data-view="review"]').click();
  const detail = page.getByTestId('proposal-detail');
  await expect(detail).toHaveAttribute('data-status', 'pending');
  await expectFocusOnFirstUndecided(page);
  await page.keyboard.press('a');
  await expect(detail.getByTestId('hunk-item').first()).toHaveAttribute('data-decision', 'accept');

  // The other pending proposal, opened by a click on its row: the keyboard is on its hunk, not on the row.
  const shown = (await detail.getAttribute('data-id')) ?? '';
  const other = page.locator(`[data-testid="proposal-pending"] [data-testid="proposal-item"]:not([data-id="${shown}"])`);
  const otherId = (await other.getAttribute('data-id')) ?? '';
  await other.click();
  await expect(detail).toHaveAttribute('data-id', otherId);
  await expectFocusOnFirstUndecided(page);
  await page.keyboard.press('r');
  await expect(detail.getByTestId('hunk-item').first()).toHaveAttribute('data-decision', 'reject');
});

test('consolidate from the keyboard: Alt+7, arrows pick root and engine, Enter runs, the review opens on its first hunk, Apply', async ({
  guardedPage: page,
  studio,
}) => {
  const root = join(studio.codexHome, 'memories');
  await writeFile(
    join(root, 'extensions/ad_hoc/notes/2026-11-20T09-00-00-remember-release-day.md'),
    '# Remember\n\nReleases go out on Tuesdays.\n',
  );
  await ready(page, studio.url);
  await page.keyboard.press('Alt+7');
  await expect(page.locator('[data-testid="view-tab"][data-view="consolidate"]')).toHaveAttribute('aria-selected', 'true');

  // Tab enters the root picker on its checked radio; an arrow moves to v1 when v2 was picked.
  await tabTo(page, '[data-testid="consolidate-page"] [data-testid="version-picker"] input[type="radio"]');
  if ((await page.evaluate(() => (document.activeElement as HTMLInputElement).value)) !== 'v1') await page.keyboard.press('ArrowLeft');
  await expect(page.locator('[data-testid="input-preview"][data-version="v1"]')).toBeVisible();

  // The engine radios: arrows until Built-in is checked, then Enter starts the run.
  await tabTo(page, '[data-testid="engine-picker"] input[type="radio"]');
  const builtin = page.getByRole('radio', { name: 'Engine: Built-in' });
  for (let i = 0; i < 3 && !(await builtin.isChecked()); i++) await page.keyboard.press('ArrowDown');
  await expect(builtin).toBeChecked();
  await expect(builtin).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'proposed', { timeout: 60_000 });

  // Tab to "Review the result", Enter: the Review view opens with the keyboard on the first undecided hunk.
  await tabTo(page, '[data-testid="review-result"]');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('proposal-title')).toContainText('Consolidation');
  await expectFocusOnFirstUndecided(page);

  // A accepts the file under the keyboard and goes on to the next file's first undecided hunk; after the last, Apply.
  await acceptFilesByKeys(page);
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
  await expect(page.getByTestId('apply-button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('apply-result')).toBeVisible();
  await expect(page.getByTestId('show-in-history')).toBeFocused();
  const summary = await readFile(join(root, 'memory_summary.md'), 'utf8');
  expect(summary).toContain('- Remember: Releases go out on Tuesdays. [ad-hoc note]');
});

test('import from the keyboard: Tab, Enter and Space take a Claude home from Sources to Done', async ({ guardedPage: page, studio }) => {
  const fixture = await makeClaudeHome(studio.sources);
  /** Tab to Next (at the foot of the wizard), Enter. */
  const next = async (step: string, title: RegExp) => {
    await expect(page.getByTestId('wizard-next')).toBeEnabled();
    await tabTo(page, '[data-testid="wizard-next"]');
    await page.keyboard.press('Enter');
    await expectStep(page, step, title);
  };
  try {
    await ready(page, studio.url);
    await page.keyboard.press('Alt+8');
    await expectStep(page, 'sources', /Step 1 of 8: Sources/);
    await tabTo(page, '[data-testid="source-home-input"]');
    await page.keyboard.type(fixture.claudeHome);
    await page.keyboard.press('Enter');
    await expect(page.locator(`[data-testid="found-project"][data-key="${fixture.key}"]`)).toBeVisible();
    await next('projects', /Step 2 of 8: Projects/);
    await next('files', /Step 3 of 8: Files/);
    await next('secrets', /Step 4 of 8: Secrets/);
    // Tab reaches the finding's first choice, Redact; Space picks it.
    await tabTo(page, '[data-testid="secret-redact"]');
    await page.keyboard.press('Space');
    await expect(page.getByTestId('secret-finding')).toHaveAttribute('data-action', 'redact');
    await next('target', /Step 5 of 8: Target/);
    await next('review', /Step 6 of 8: Review/);
    await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');
    // The step lands on the first undecided hunk, as the Review view does: A works at once, and goes on file after file.
    await acceptFilesByKeys(page);
    await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
    await next('apply', /Step 7 of 8: Apply/);
    await tabTo(page, '[data-testid="apply-button"]');
    await page.keyboard.press('Enter');
    await expectStep(page, 'done', /Step 8 of 8: Done/);
    const resources = join(studio.codexHome, 'memories', 'extensions', 'external_agent_import', 'resources', fixture.key);
    expect(await readFile(join(resources, 'MEMORY.md'), 'utf8')).toBe(memoryIndex);
    expect(await readFile(join(resources, 'feedback_tests.md'), 'utf8')).toBe(feedbackTests.replace(SECRET, '[REDACTED_SECRET]'));
  } finally {
    await rm(fixture.dir, { recursive: true, force: true });
  }
});
