// End to end for the Doctor view: a finding becomes a proposal, is applied, shows in History and is reverted; a
// promotion writes the project's AGENTS.md and takes the entries out of memory in the same proposal.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createDoctorHome, type DoctorHome } from '../fixtures/doctor-home';
import { expect, guardPage, keepScreenshot, ready, startServe, test } from './fixtures';

let dir: string;
let home: DoctorHome;
let url: string;
let stop: () => Promise<void>;

test.beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-doctor-'));
  home = await createDoctorHome(dir);
  const served = await startServe(home.codexHome, join(dir, 'data'));
  url = served.url;
  stop = async () => {
    const exited = new Promise<void>((resolve) => served.child.once('exit', () => resolve()));
    served.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  };
});

test.afterEach(async () => {
  await stop();
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
});

const memory = () => readFile(join(home.root, 'MEMORY.md'), 'utf8');

async function openDoctor(page: Page): Promise<void> {
  await page.keyboard.press('Alt+0');
  await expect(page.locator('[data-testid="view-tab"][data-view="doctor"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('doctor-page')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
}

async function showKind(page: Page, kind: string): Promise<void> {
  await page
    .getByTestId('doctor-kind')
    .locator('label', { has: page.locator(`input[data-value="${kind}"]`) })
    .click();
}

function finding(page: Page, title: RegExp) {
  return page.locator('[data-testid="doctor-finding"]').filter({ has: page.locator('.doctor-title', { hasText: title }) });
}

/** Accepts every file of the open proposal (one tab at a time) and applies it; resolves with the history entry id. */
async function acceptAllAndApply(page: Page): Promise<string> {
  const detail = page.getByTestId('proposal-detail');
  await expect(detail).toHaveAttribute('data-status', 'pending');
  const tabs = detail.getByTestId('proposal-file');
  for (let i = 0; i < (await tabs.count()); i++) {
    await tabs.nth(i).click();
    await page.getByTestId('accept-file').click();
    await expect(page.getByTestId('hunk-item').first()).toHaveAttribute('data-decision', 'accept');
  }
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
  await page.getByTestId('apply-button').click();
  const applied = page.getByTestId('apply-result');
  await expect(applied).toBeVisible();
  return (await applied.getAttribute('data-entry-id')) ?? '';
}

async function revert(page: Page, entryId: string): Promise<void> {
  await page.locator('[data-testid="view-tab"][data-view="history"]').click();
  await page.locator(`[data-testid="history-entry"][data-id="${entryId}"]`).click();
  await page.getByTestId('revert-button').click();
  await expect(page.getByTestId('proposal-title')).toContainText('Revert');
  await acceptAllAndApply(page);
}

test('a duplicate finding becomes a merge proposal: apply, history and revert', async ({ page }, testInfo) => {
  const check = guardPage(page, new URL(url).origin);
  await ready(page, url);
  await openDoctor(page);
  await showKind(page, 'duplicate');
  const ingestion = finding(page, /repeat "data-pipeline ingestion"/);
  await expect(ingestion).toHaveCount(1);
  await expect(ingestion.getByTestId('doctor-member')).toContainText('similarity');
  await expect(ingestion.locator('.doctor-lines').first()).toContainText('scope: CSV ingestion');
  // Distinct blocks of the same project are never clustered.
  await expect(page.locator('[data-testid="doctor-finding"]', { hasText: 'data-pipeline scheduling' })).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'doctor-duplicates');

  await ingestion.locator('[data-testid="doctor-fix"][data-action="merge"]').click();
  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('proposal-title')).toContainText('Doctor: merge 2 copies of "data-pipeline ingestion"');
  await keepScreenshot(page, testInfo, 'doctor-merge-review');
  const entryId = await acceptAllAndApply(page);
  const merged = await memory();
  expect(merged.match(/^# Task Group: data-pipeline ingestion/gm)).toHaveLength(1);
  expect(merged).toContain('- the Osaka partner sends a new file every weekday at 06:00 JST');

  await openDoctor(page);
  await expect(finding(page, /repeat "data-pipeline ingestion"/)).toHaveCount(0);
  await revert(page, entryId);
  expect(await memory()).toBe(home.memory);
  check();
});

test('promotion writes the project AGENTS.md and removes the entries in one proposal; the revert restores both', async ({
  page,
}, testInfo) => {
  const check = guardPage(page, new URL(url).origin);
  await ready(page, url);
  await openDoctor(page);
  // The memory line beside the rule it restates.
  await showKind(page, 'agents-overlap');
  const restated = page.locator('[data-testid="doctor-overlap"][data-relation="restates"]').first();
  await expect(restated).toContainText('partner files from the Osaka office are cp932');
  await expect(restated).toContainText(`${join(home.pipeline, 'AGENTS.md')}:4`);
  await keepScreenshot(page, testInfo, 'doctor-agents-overlap');

  await showKind(page, 'duplicate');
  const i18n = finding(page, /repeat "webapp i18n copy"/);
  await i18n.locator('[data-testid="doctor-fix"][data-action="promote"]').click();
  await expect(page.getByTestId('proposal-title')).toContainText(`to ${home.webapp}/AGENTS.md`);
  const project = page.locator('[data-testid="proposal-file"][data-target="project"]');
  await expect(project).toContainText(`${home.webapp}/AGENTS.md`);
  await expect(project).toContainText('new');
  await project.click();
  await keepScreenshot(page, testInfo, 'doctor-promotion-review');
  const entryId = await acceptAllAndApply(page);
  const agents = await readFile(join(home.webapp, 'AGENTS.md'), 'utf8');
  expect(agents).toContain('## webapp i18n copy');
  expect(agents).toContain('- the translation team reviews de.json pull requests on Thursdays');
  expect(await memory()).not.toContain('# Task Group: webapp');

  await page.locator('[data-testid="view-tab"][data-view="history"]').click();
  await page.locator(`[data-testid="history-entry"][data-id="${entryId}"]`).click();
  await expect(page.locator('[data-testid="history-file"][data-target="project"]')).toContainText(`${home.webapp}/AGENTS.md`);
  await revert(page, entryId);
  expect(await memory()).toBe(home.memory);
  expect(existsSync(join(home.webapp, 'AGENTS.md'))).toBe(false);
  check();
});

test('stale findings are grouped by reason and project; a group opens as one bulk proposal', async ({ page }, testInfo) => {
  const check = guardPage(page, new URL(url).origin);
  await ready(page, url);
  await openDoctor(page);
  await showKind(page, 'stale');
  // No stale finding is listed on its own: each sits in its group (reason and project), with the group's count.
  await expect(page.locator('[data-testid="doctor-findings"] > [data-testid="doctor-finding"][data-kind="stale"]')).toHaveCount(0);
  const group = page.getByTestId('stale-group').first();
  await expect(group).toHaveAttribute('data-reason', 'project-gone');
  const count = Number(await group.getByTestId('stale-group-count').textContent());
  expect(count).toBeGreaterThan(1);
  await expect(group.locator('.doctor-title')).toContainText(`${count} entries in /`);
  await expect(group.getByTestId('stale-group-fix')).toHaveText(`Retire all ${count}`);
  // Expandable to the individual findings.
  await expect(group.getByTestId('doctor-finding')).toHaveCount(0);
  await group.getByTestId('stale-group-toggle').click();
  await expect(group.getByTestId('stale-group-toggle')).toHaveAttribute('aria-expanded', 'true');
  await expect(group.getByTestId('doctor-finding')).toHaveCount(count);
  await keepScreenshot(page, testInfo, 'doctor-stale-groups');

  const groupId = (await group.getAttribute('data-id')) ?? '';
  await group.getByTestId('stale-group-fix').click();
  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('proposal-title')).toContainText(`Doctor: retire ${count} entries in /`);
  await acceptAllAndApply(page);
  await openDoctor(page);
  await showKind(page, 'stale');
  await expect(page.locator(`[data-testid="stale-group"][data-id="${groupId}"]`)).toHaveCount(0);
  check();
});
