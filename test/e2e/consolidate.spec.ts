// End to end for Consolidate: preview matches the home, builtin run -> phases -> review -> apply; cancel and failure leave files as they were.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Page } from '@playwright/test';
import { classifyMemoryFile, generateHome } from '../fixtures';
import { callHost, expect, guardPage, keepScreenshot, ready, startServe, test, stopAndRemove } from './fixtures';

const phases = ['select', 'stage', 'engine', 'validate', 'diff'] as const;

/** Every file under `root` (without `.git/`), root-relative with `/`, mapped to its bytes. */
async function snapshot(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) files.set(relative(root, path).split(sep).join('/'), await readFile(path));
    }
  };
  await walk(root);
  return files;
}

function countKind(files: Map<string, Buffer>, kind: ReturnType<typeof classifyMemoryFile>): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const [path, data] of files) {
    if (classifyMemoryFile(path) !== kind) continue;
    count += 1;
    bytes += data.length;
  }
  return { count, bytes };
}

async function numberOf(page: Page, testId: string, attribute = 'data-value'): Promise<number> {
  return Number(await page.getByTestId(testId).getAttribute(attribute));
}

/** Alt+7 opens Consolidate; the v1 root is picked and its preview has arrived. */
async function openConsolidate(page: Page, timeout = 15_000): Promise<void> {
  await page.keyboard.press('Alt+7');
  await expect(page.locator('[data-testid="view-tab"][data-view="consolidate"]')).toHaveAttribute('aria-selected', 'true');
  const consolidate = page.getByTestId('consolidate-page');
  await consolidate.getByTestId('version-picker').locator('label', { hasText: 'v1' }).click();
  await expect(page.locator('[data-testid="input-preview"][data-version="v1"]')).toBeVisible({ timeout });
}

/** Picks an engine as a person does: its label is the visible control (the radio inside is visually hidden). */
async function pickEngine(page: Page, label: 'Built-in' | 'Codex CLI' | 'OpenAI-compatible'): Promise<void> {
  await page.getByTestId('engine-picker').locator('label', { hasText: label }).click();
  await expect(page.getByRole('radio', { name: `Engine: ${label}` })).toBeChecked();
}

test('preview matches the home, builtin runs through its phases, the review applies a valid summary', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  const root = join(studio.codexHome, 'memories');
  // New since Codex's last consolidation: a note the person asked Codex to remember (the summary merge adds its line).
  writeFileSync(
    join(root, 'extensions/ad_hoc/notes/2026-11-20T09-00-00-remember-release-day.md'),
    '# Remember\n\nReleases go out on Tuesdays.\n',
  );
  const before = await snapshot(root);
  await ready(page, studio.url);
  await openConsolidate(page);

  // The selection is what rollout_summaries/ becomes after Codex's sync; ad-hoc notes are the note files on disk.
  const selected = await numberOf(page, 'count-selected');
  const added = await numberOf(page, 'sync-added', 'data-count');
  const removed = await numberOf(page, 'sync-removed', 'data-count');
  expect(selected).toBeGreaterThan(0);
  expect(selected).toBe(countKind(before, 'rollout-summary').count + added - removed);
  await expect(page.getByTestId('selection-table')).toHaveAttribute('aria-rowcount', String(selected + 1));
  expect(await numberOf(page, 'count-bytes')).toBeGreaterThan(0);
  expect(await numberOf(page, 'count-tokens-in')).toBeGreaterThan(0);
  await expect(page.getByTestId('input-notes')).toHaveAttribute('data-count', String(countKind(before, 'ad-hoc-note').count));
  await expect(page.getByTestId('lease-notice')).not.toHaveAttribute('data-state', 'held');
  await keepScreenshot(page, testInfo, 'consolidate-preview');

  await pickEngine(page, 'Built-in');
  await expect(page.getByTestId('preview-engine')).toHaveAttribute('data-value', 'builtin');
  // Enter starts (focus on the engine radio).
  await page.getByRole('radio', { name: 'Engine: Built-in' }).press('Enter');
  const panel = page.getByTestId('run-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute('data-state', 'proposed', { timeout: 30_000 });
  for (const phase of phases) {
    await expect(panel.locator(`[data-testid="run-phase"][data-phase="${phase}"]`)).toHaveAttribute('data-state', 'done');
  }
  await expect(page.getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuenow', '100');
  // The lease banner tells the truth: this app holds the lease while its result waits in the review, and says what releases it.
  await expect(page.getByTestId('lease-notice')).toHaveAttribute('data-state', 'held-for-review');
  await expect(page.getByTestId('lease-message')).toContainText('Apply or Reject releases it');
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await keepScreenshot(page, testInfo, 'consolidate-proposed-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreenshot(page, testInfo, 'consolidate-proposed-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('button', { name: 'Review the result', exact: true }).click();
  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  const detail = page.getByTestId('proposal-detail');
  await expect(detail).toHaveAttribute('data-status', 'pending');
  await expect(detail.getByText('Consolidation', { exact: true })).toBeVisible();
  await page.locator('[data-testid="proposal-file"][data-path="memory_summary.md"]').click();
  await page.getByTestId('view-file').click();
  await expect(page.locator('[data-testid="diff-editor"][data-path="memory_summary.md"]')).toBeVisible();
  await page.getByTestId('view-changes').click();

  // Accept every hunk of every file, then Apply.
  const files = page.getByTestId('proposal-file');
  for (let index = 0; index < (await files.count()); index += 1) {
    await files.nth(index).click();
    const acceptFile = page.getByTestId('accept-file');
    if (await acceptFile.isVisible()) await acceptFile.click();
  }
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
  await page.getByTestId('apply-button').click();
  await expect(page.getByTestId('apply-result')).toBeVisible();

  const summary = await readFile(join(root, 'memory_summary.md'), 'utf8');
  expect(summary.startsWith('v1')).toBe(true);
  expect(summary).toContain('- Remember: Releases go out on Tuesdays. [ad-hoc note]');
  expect(summary).not.toBe(before.get('memory_summary.md')?.toString('utf8'));

  // Running again on its own applied output has nothing to do.
  await openConsolidate(page);
  await expect(page.getByTestId('lease-notice')).toHaveAttribute('data-state', 'free');
  await page.getByTestId('start-run').click();
  await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'unchanged', { timeout: 30_000 });
  await expect(page.getByTestId('run-end')).toContainText('Nothing to consolidate');
  await expect(page.getByTestId('run-row')).toHaveCount(2);
});

test.describe('a heavy home', () => {
  // 4,096 summaries: staging alone takes long enough that "cancel right after Start" lands mid-run on any machine.
  test('cancelling a builtin run right after Start leaves every live file byte-identical', async ({ page }, testInfo) => {
    const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-cancel-'));
    const codexHome = join(dir, 'codex-home');
    await generateHome({ dir: codexHome, scale: 'heavy', version: 'v1', seed: 4096, now: new Date('2026-11-20T12:00:00Z'), git: false });
    const { url, child } = await startServe(codexHome, join(dir, 'data'));
    try {
      const checkClean = guardPage(page, new URL(url).origin);
      const root = join(codexHome, 'memories');
      const before = await snapshot(root);
      await ready(page, url);
      await openConsolidate(page, 60_000);
      await pickEngine(page, 'Built-in');

      await page.getByTestId('start-run').click();
      const panel = page.getByTestId('run-panel');
      await expect(panel).toHaveAttribute('data-state', 'running');
      await expect(page.getByTestId('cancel-run')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(panel).toHaveAttribute('data-state', 'cancelled', { timeout: 30_000 });
      await expect(page.getByTestId('run-end')).toHaveText('Cancelled; your memory files were not touched.');
      await expect(page.getByTestId('review-result')).toHaveCount(0);
      await expect(page.getByTestId('start-run')).toBeEnabled();
      await keepScreenshot(page, testInfo, 'consolidate-cancelled');

      const after = await snapshot(root);
      expect(after.size).toBe(before.size);
      const changed = [...before].filter(([path, data]) => !after.get(path)?.equals(data)).map(([path]) => path);
      expect(changed, 'live files changed by a cancelled run').toEqual([]);
      checkClean();
    } finally {
      await stopAndRemove(child, dir);
    }
  });
});

/** A stand-in `codex`: answers the version probes, reads the prompt, prints one JSON event, then works until stopped. */
const fakeCodex = `#!/bin/sh
if [ "$1" = "--version" ]; then echo "codex-cli 0.0.0-e2e"; exit 0; fi
if [ "$1" = "exec" ] && [ "$2" = "--help" ]; then echo "usage: codex exec"; exit 0; fi
cat > /dev/null
echo '{"type":"thread.started","thread_id":"e2e"}'
exec sleep 60
`;
/** A stand-in that is the Codex CLI by its version but whose exec fails. */
const failingCodex = `#!/bin/sh
if [ "$1" = "--version" ]; then echo "codex-cli 0.0.0-e2e"; exit 0; fi
if [ "$1" = "exec" ] && [ "$2" = "--help" ]; then echo "usage: codex exec"; exit 0; fi
cat > /dev/null
echo "e2e: the model is not reachable" >&2
exit 3
`;
// The serve host takes the codex command only from its command line, so the scripts exist before it starts.
const scripts = mkdtempSync(join(tmpdir(), 'memory-studio-e2e-codex-'));
const fakeCodexPath = join(scripts, 'fake-codex.sh');
const failingCodexPath = join(scripts, 'failing-codex.sh');
writeFileSync(fakeCodexPath, fakeCodex, { mode: 0o755 });
writeFileSync(failingCodexPath, failingCodex, { mode: 0o755 });
test.afterAll(() => rmSync(scripts, { recursive: true, force: true }));

/** Picks the Codex CLI engine; its command comes from the host's --codex-command and cannot be typed here. */
async function useCodexCommand(page: Page, command: string): Promise<void> {
  await pickEngine(page, 'Codex CLI');
  await expect(page.getByTestId('engine-settings')).toHaveAttribute('data-engine', 'codex');
  const field = page.getByLabel('Codex command');
  await expect(field).toHaveValue(command);
  await expect(field).toHaveAttribute('readonly', '');
  await expect(page.getByTestId('trust-note')).toContainText('--codex-command');
}

test.describe('the codex engine, its command set by serve --codex-command', () => {
  test.use({ serveArgs: ['--codex-command', fakeCodexPath] });

  test('codex engine: the engine phase streams its log, Escape cancels it; the page cannot change the command', async ({
    guardedPage: page,
    studio,
  }, testInfo) => {
    test.setTimeout(300_000);
    const before = await snapshot(join(studio.codexHome, 'memories'));
    await ready(page, studio.url);
    await openConsolidate(page);
    await useCodexCommand(page, fakeCodexPath);

    await page.getByTestId('start-run').click();
    const panel = page.getByTestId('run-panel');
    await expect(panel.locator('[data-testid="run-phase"][data-phase="engine"]')).toHaveAttribute('data-state', 'running', {
      timeout: 45_000,
    });
    await expect(page.getByTestId('run-log')).toContainText('codex-cli 0.0.0-e2e');
    await keepScreenshot(page, testInfo, 'consolidate-codex-running');
    await page.keyboard.press('Escape');
    await expect(panel).toHaveAttribute('data-state', 'cancelled', { timeout: 45_000 });
    await expect(panel.locator('[data-testid="run-phase"][data-phase="engine"]')).toHaveAttribute('data-state', 'cancelled');
    const after = await snapshot(join(studio.codexHome, 'memories'));
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [path, data] of before) expect(after.get(path)?.equals(data), `${path} unchanged`).toBe(true);

    // Over HTTP the command cannot be changed: the host refuses and keeps the one from its command line.
    const saved = (await callHost(studio.url, 'consolidate.settings', {})) as {
      ok: true;
      value: { settings: { codex: { command: string } } };
    };
    expect(saved.value.settings.codex.command).toBe(fakeCodexPath);
    const changed = { ...saved.value.settings, codex: { ...saved.value.settings.codex, command: '/bin/sh' } };
    expect(await callHost(studio.url, 'consolidate.saveSettings', { settings: changed })).toMatchObject({
      ok: false,
      error: { kind: 'Unsupported' },
    });
    expect(await callHost(studio.url, 'consolidate.chooseCodexCommand', {})).toMatchObject({ ok: false, error: { kind: 'Unsupported' } });
  });
});

test.describe('a codex whose exec fails', () => {
  test.use({ serveArgs: ['--codex-command', failingCodexPath] });

  test('fails the run with its message and hint', async ({ guardedPage: page, studio }, testInfo) => {
    await ready(page, studio.url);
    await openConsolidate(page);
    await useCodexCommand(page, failingCodexPath);
    await page.getByTestId('start-run').click();
    const panel = page.getByTestId('run-panel');
    await expect(panel).toHaveAttribute('data-state', 'failed', { timeout: 45_000 });
    const error = panel.getByTestId('error-panel');
    await expect(error).toContainText('the model is not reachable');
    await expect(error.locator('.error-hint')).not.toBeEmpty();
    await keepScreenshot(page, testInfo, 'consolidate-failed');
    await expect(page.getByTestId('start-run')).toBeEnabled();
  });
});

test('openai settings: invalid values block Start, a saved model shows in the preview, the key is never shown', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  await ready(page, studio.url);
  await openConsolidate(page);
  await pickEngine(page, 'OpenAI-compatible');
  await expect(page.getByTestId('preview-engine')).toHaveAttribute('data-value', 'openai');
  const apiKey = page.getByTestId('api-key');
  await expect(apiKey).toBeVisible();
  // The serve host has no OS keychain: no key field, only where the key would come from.
  await expect(apiKey.locator('input[type="password"]')).toHaveCount(0);

  await page.getByLabel('OpenAI timeout (seconds)').fill('1');
  await expect(page.getByRole('alert').filter({ hasText: 'OpenAI timeout' })).toBeVisible();
  await expect(page.getByTestId('start-run')).toBeDisabled();
  await page.getByLabel('OpenAI timeout (seconds)').fill('120');
  await page.getByLabel('Model', { exact: true }).fill('e2e-model-1');
  await page.getByLabel('Model', { exact: true }).press('Enter');
  await expect(page.getByRole('button', { name: 'Save settings' })).toBeDisabled();
  await expect(page.getByTestId('preview-engine')).toContainText('e2e-model-1');
  await expect(page.getByTestId('start-run')).toBeEnabled();
  await keepScreenshot(page, testInfo, 'consolidate-openai-settings');
});

test.describe('a home without memory', () => {
  test.use({ homeKind: 'empty' });

  test('the Consolidate view says what to do', async ({ guardedPage: page, studio }) => {
    await ready(page, studio.url);
    await page.locator('[data-testid="view-tab"][data-view="consolidate"]').click();
    await expect(page.getByRole('heading', { name: 'Nothing to consolidate yet' })).toBeVisible();
  });
});
