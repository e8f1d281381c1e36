// End to end for where proposals come from: the ad-hoc note composer, Redact, Forget this session; plus the
// "since the last consolidation" list and Apply refused while Codex holds its consolidation lease.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, ready, test } from './fixtures';

const NOTE_NAME = /^extensions\/ad_hoc\/notes\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-([a-z0-9-]+)\.md$/;

async function openView(page: Page, view: 'review' | 'history' | 'files'): Promise<void> {
  const tab = page.locator(`[data-testid="view-tab"][data-view="${view}"]`);
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** Opens the composer, picks the v1 root, types slug and text and proposes; resolves with the created file's path. */
async function proposeNote(page: Page, slug: string, text: string): Promise<string> {
  await openView(page, 'review');
  await page.getByTestId('new-note').click();
  const composer = page.getByTestId('note-composer');
  await expect(composer).toBeVisible();
  const root = composer.locator('select');
  if ((await root.count()) > 0) await root.selectOption('v1');
  await composer.getByTestId('note-slug').fill(slug);
  await composer.getByTestId('note-text').fill(text);
  await composer.getByTestId('note-propose').click();
  const detail = page.getByTestId('proposal-detail');
  await expect(detail).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('proposal-title')).toContainText(slug);
  const file = detail.getByTestId('proposal-file');
  await expect(file).toHaveCount(1);
  await expect(file).toContainText('new');
  const relPath = (await file.getAttribute('data-path')) ?? '';
  expect(relPath).toMatch(NOTE_NAME);
  expect(NOTE_NAME.exec(relPath)?.[1]).toBe(slug);
  return relPath;
}

/** Accepts the shown file's hunks and waits until the result preview is settled and Apply is enabled. */
async function acceptFile(page: Page): Promise<void> {
  await page.getByTestId('accept-file').click();
  await expect(page.getByTestId('hunk-item').first()).toHaveAttribute('data-decision', 'accept');
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
  await expect(page.getByTestId('apply-button')).toBeEnabled();
}

test('the note composer proposes a new ad-hoc note that Apply writes; a bad slug shows the naming rule', async ({
  guardedPage: page,
  studio,
}) => {
  await ready(page, studio.url);
  await openView(page, 'review');
  await page.getByTestId('new-note').click();
  const composer = page.getByTestId('note-composer');
  await composer.getByTestId('note-slug').fill('-bad slug');
  await composer.getByTestId('note-text').fill('anything');
  await expect(composer).toContainText('Use lowercase letters, digits and hyphens, starting with a letter or digit.');
  await expect(composer.getByTestId('note-slug')).toHaveAttribute('aria-invalid', 'true');
  await expect(composer.getByTestId('note-propose')).toBeDisabled();
  await composer.getByRole('button', { name: 'Cancel' }).click();
  await expect(composer).toHaveCount(0);

  const text = 'Prefer pnpm over npm in this workspace.';
  const relPath = await proposeNote(page, 'prefer-pnpm', text);
  await acceptFile(page);
  await page.getByTestId('view-result').click();
  await expect(page.getByTestId('result-preview')).toContainText(text);
  await expect(page.getByTestId('apply-button')).toContainText(/Write 1 file/);
  await page.getByTestId('apply-button').click();
  await expect(page.getByTestId('apply-result')).toBeVisible();
  await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'applied');
  expect(await readFile(join(studio.codexHome, 'memories', relPath), 'utf8')).toBe(`${text}\n`);
});

test('Redact turns a secret diagnostic into a proposal, and Apply writes the redacted file', async ({ guardedPage: page, studio }) => {
  const key = 'sk-abcdefghijklmnopqrstuvwxyz0123';
  const relPath = 'extensions/ad_hoc/notes/2026-11-19T10-00-00-api-key.md';
  const target = join(studio.codexHome, 'memories', relPath);
  await mkdir(join(studio.codexHome, 'memories', 'extensions', 'ad_hoc', 'notes'), { recursive: true });
  await writeFile(target, `# API key\n\nOPENAI_API_KEY=${key}\n`);

  await ready(page, studio.url);
  await page.getByLabel('Filter files by name').fill('api-key');
  await page.locator(`[data-testid="file-item"][data-version="v1"][data-path="${relPath}"]`).click();
  await expect(page.locator(`[data-testid="editor"][data-version="v1"][data-path="${relPath}"]`)).toBeVisible();

  const inspector = page.getByTestId('inspector');
  const openaiKey = '[data-testid="inspector-diagnostic"][data-rule="secrets/openai-key"]';
  await expect(inspector.locator(openaiKey)).toBeVisible();
  const redact = inspector.locator('li', { has: page.locator(openaiKey) }).getByTestId('redact-button');
  await expect(redact).toBeVisible();
  await redact.click();

  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('proposal-title')).toContainText('Redact secret');
  await expect(page.getByTestId('proposal-file')).toHaveAttribute('data-path', relPath);
  await acceptFile(page);
  await page.getByTestId('view-result').click();
  const preview = (await page.getByTestId('result-preview').textContent()) ?? '';
  expect(preview).toContain('[REDACTED_SECRET]');
  expect(preview).not.toContain(key);
  await page.getByTestId('apply-button').click();
  await expect(page.getByTestId('apply-result')).toBeVisible();
  const disk = await readFile(target, 'utf8');
  expect(disk).toContain('[REDACTED_SECRET]');
  expect(disk).not.toContain(key);
});

test('Redact all in this file proposes every secret at once; once applied no secret is left on disk or in the data folder', async ({
  guardedPage: page,
  studio,
}) => {
  const key = 'sk-abcdefghijklmnopqrstuvwxyz0456';
  const token = `ghp_${'Ab1Cd2Ef3G'.repeat(3)}h4I5j6`;
  const relPath = 'extensions/ad_hoc/notes/2026-11-19T11-00-00-two-keys.md';
  const target = join(studio.codexHome, 'memories', relPath);
  await mkdir(join(studio.codexHome, 'memories', 'extensions', 'ad_hoc', 'notes'), { recursive: true });
  await writeFile(target, `# Two keys\n\nOPENAI_API_KEY=${key}\n\n- deploy with token: ${token}\n`);

  await ready(page, studio.url);
  await page.getByLabel('Filter files by name').fill('two-keys');
  await page.locator(`[data-testid="file-item"][data-version="v1"][data-path="${relPath}"]`).click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByTestId('redact-all-file')).toHaveText('Redact all in this file (2)');
  await expect(inspector.getByTestId('redact-all-root')).toBeVisible();
  await inspector.getByTestId('redact-all-file').click();

  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('proposal-title')).toContainText(`Redact 2 secrets in ${relPath}`);
  await acceptFile(page);
  await page.getByTestId('apply-button').click();
  await expect(page.getByTestId('apply-result')).toBeVisible();
  const disk = await readFile(target, 'utf8');
  expect(disk).toBe('# Two keys\n\nOPENAI_API_KEY=[REDACTED_SECRET]\n\n- deploy with token: [REDACTED_SECRET]\n');
  // Every byte of the data folder (the Studio DB, its WAL, the index, the trash): neither secret rests there.
  const resting = await everyFileUnder(studio.dataDir);
  for (const file of resting) {
    const bytes = await readFile(file);
    expect(bytes.includes(Buffer.from(key)), file).toBe(false);
    expect(bytes.includes(Buffer.from(token)), file).toBe(false);
  }
  expect(resting.some((f) => f.endsWith('studio.sqlite'))).toBe(true);
  // History says the change cannot be reverted to the secrets: none is kept.
  await openView(page, 'history');
  await page.getByTestId('history-entry').filter({ hasText: 'Redact 2 secrets' }).first().click();
  await expect(page.getByTestId('history-secrets-removed')).toContainText('This change removed 2 secrets');
});

/** Every regular file under `dir`. */
async function everyFileUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

test('Forget this session proposes its DB changes, and Apply turns memory off for the thread', async ({ guardedPage: page, studio }) => {
  await ready(page, studio.url);
  await page.locator('[data-testid="file-item"][data-version="v2"][data-path="memory_summary.md"]').click();
  const pointer = page.getByTestId('pointer-link').first();
  await expect(pointer).toBeVisible();
  // The outline of the file opened before may still be on screen for a moment: wait for the v2 pointer's thread id.
  await expect(pointer).toHaveAttribute('data-thread-id', /.+/);
  const threadId = (await pointer.getAttribute('data-thread-id')) ?? '';
  await pointer.click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByTestId('provenance-thread-id')).toHaveText(threadId);
  await inspector.getByTestId('open-session').click();
  const session = page.getByTestId('session-view');
  await expect(session).toHaveAttribute('data-thread-id', threadId);

  await session.getByTestId('forget-session').click();
  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  const detail = page.getByTestId('proposal-detail');
  await expect(detail).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('proposal-title')).toContainText('Forget session');
  const rows = detail.getByTestId('db-change');
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasText: 'memory_mode' })).toHaveCount(1);
  await expect(page.getByTestId('apply-button')).toBeEnabled();
  await page.getByTestId('apply-button').click();
  await expect(page.getByTestId('apply-result')).toBeVisible();

  const db = new Database(join(studio.codexHome, 'state_5.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT memory_mode FROM threads WHERE id = ?').get(threadId) as { memory_mode: string } | undefined;
    expect(row?.memory_mode).toBe('disabled');
  } finally {
    db.close();
  }
});

test('History lists MEMORY.md as modified since the last consolidation after an edit on disk, and opens it as a diff', async ({
  guardedPage: page,
  studio,
}) => {
  const target = join(studio.codexHome, 'memories', 'MEMORY.md');
  await writeFile(target, `${await readFile(target, 'utf8')}\n- changed outside Codex since the last consolidation\n`);
  await ready(page, studio.url);
  await openView(page, 'history');
  const roots = page.getByRole('group', { name: 'Root for the baseline comparison' });
  if ((await roots.count()) > 0) await roots.getByRole('button', { name: 'v1', exact: true }).click();
  const since = page.getByTestId('since-baseline');
  await expect(since).toContainText('Since the last consolidation (v1)');
  const file = since.locator('[data-testid="baseline-file"][data-path="MEMORY.md"]');
  await expect(file).toHaveCount(1);
  await expect(file).toContainText('modified');
  await file.click();
  const diff = since.getByTestId('read-only-diff');
  await expect(diff).toHaveAttribute('data-path', 'MEMORY.md');
  await expect(diff).toContainText('At the last consolidation');
  await expect(diff.locator('[data-testid="hunk-item"] .diff-add')).toContainText(['changed outside Codex since the last consolidation']);
  await diff.getByTestId('view-file').click();
  await expect(diff.getByTestId('diff-editor')).toBeVisible();
});

test('Apply while Codex holds its consolidation lease says Codex is consolidating and writes nothing', async ({
  guardedPage: page,
  studio,
}) => {
  await ready(page, studio.url);
  const relPath = await proposeNote(page, 'locked-note', 'Written only once Codex is done.');
  await acceptFile(page);

  const db = new Database(join(studio.codexHome, 'memories_1.sqlite'), { fileMustExist: true });
  try {
    const leaseUntil = Math.floor(Date.now() / 1000) + 3600;
    const changed = db
      .prepare(
        "UPDATE jobs SET status = 'running', lease_until = ?, worker_id = 'codex-test' WHERE kind = 'memory_consolidate_global' AND job_key = 'global'",
      )
      .run(leaseUntil).changes;
    expect(changed, 'the generated home has a global consolidation job').toBe(1);
  } finally {
    db.close();
  }

  await page.getByTestId('apply-button').click();
  const locked = page.locator('[data-testid="error-panel"][data-error-kind="Locked"]');
  await expect(locked).toBeVisible();
  await expect(locked).toContainText('Codex is consolidating memory right now');
  await expect(page.getByTestId('apply-result')).toHaveCount(0);
  await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');
  expect(existsSync(join(studio.codexHome, 'memories', relPath))).toBe(false);
  const notesDir = join(studio.codexHome, 'memories', 'extensions', 'ad_hoc', 'notes');
  const notes = existsSync(notesDir) ? await readdir(notesDir) : [];
  expect(notes.filter((name) => name.includes('locked-note'))).toEqual([]);
});
