// End to end: two Claude homes imported into one Codex home, then one project vanishes from the first: only its own
// import is proposed for removal (one switch keeps them all), the other home's stays listed, and the history counts what was applied.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, keepScreenshot, ready, test } from './fixtures';

/** A Claude home with one folder per project (`projects/<key>/memory`) and a session recording its cwd. */
async function claudeHome(
  dir: string,
  name: string,
  projects: Record<string, Record<string, string>>,
): Promise<{ home: string; keys: Record<string, string> }> {
  const home = join(dir, name);
  const keys: Record<string, string> = {};
  for (const [project, files] of Object.entries(projects)) {
    const cwd = join(dir, 'work', project);
    await mkdir(cwd, { recursive: true });
    const key = cwd.replace(/[^A-Za-z0-9]/g, '-');
    keys[project] = key;
    await mkdir(join(home, 'projects', key, 'memory'), { recursive: true });
    await writeFile(join(home, 'projects', key, 'session.jsonl'), `${JSON.stringify({ type: 'user', cwd })}\n`);
    for (const [file, text] of Object.entries(files)) await writeFile(join(home, 'projects', key, 'memory', file), text);
  }
  return { home, keys };
}

async function expectStep(page: Page, step: string): Promise<void> {
  await expect(page.getByTestId('import-wizard')).toHaveAttribute('data-step', step);
}

async function next(page: Page, step: string): Promise<void> {
  await expect(page.getByTestId('wizard-next')).toBeEnabled();
  await page.getByTestId('wizard-next').click();
  await expectStep(page, step);
}

/** Sources -> Target for a Claude home; the caller looks at the Target step. */
async function toTarget(page: Page, home: string, key: string): Promise<void> {
  await expectStep(page, 'sources');
  await page.getByTestId('source-home-input').fill(home);
  await page.getByTestId('source-home-input').press('Enter');
  await expect(page.locator(`[data-testid="found-project"][data-key="${key}"]`)).toBeVisible();
  for (const step of ['projects', 'files', 'secrets', 'target']) await next(page, step);
}

/** Target -> Done: propose, accept every change (then let `review` adjust), apply. */
async function applyFromTarget(page: Page, review: () => Promise<void> = async () => undefined): Promise<void> {
  await next(page, 'review');
  await page.getByTestId('accept-all').click();
  await review();
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
  await next(page, 'apply');
  await page.getByTestId('apply-button').click();
  await expectStep(page, 'done');
}

test('two Claude homes, one vanished project: only its own import is removed, the other home is kept, history counts what was applied', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  test.setTimeout(300_000);
  const dir = await mkdtemp(join(studio.sources, 'memory-studio-import-homes-e2e-'));
  try {
    const a = await claudeHome(dir, 'claude-a', { alpha: { 'MEMORY.md': '# Alpha\n' }, beta: { 'MEMORY.md': '# Beta\n' } });
    const b = await claudeHome(dir, 'claude-b', { gamma: { 'MEMORY.md': '# Gamma\n', 'tips.md': 'Gamma tips.\n' } });
    const [alpha, beta, gamma] = [a.keys.alpha ?? '', a.keys.beta ?? '', b.keys.gamma ?? ''];
    const resources = join(studio.codexHome, 'memories', 'extensions', 'external_agent_import', 'resources');
    await ready(page, studio.url);
    await page.keyboard.press('Alt+8');

    // 1. Home A: alpha and beta.
    await toTarget(page, a.home, alpha);
    await expect(page.getByTestId('import-removed')).toHaveCount(0);
    await applyFromTarget(page);
    expect(await readdir(resources)).toEqual(expect.arrayContaining([alpha, beta]));

    // 2. Home B: nothing of A's is "gone"; A's imports are listed as kept, from another source.
    await page.getByTestId('import-again').click();
    await toTarget(page, b.home, gamma);
    await expect(page.getByTestId('import-removed')).toHaveCount(0);
    const kept = page.getByTestId('import-kept');
    for (const key of [alpha, beta])
      await expect(kept.locator(`[data-testid="kept-import"][data-key="${key}"][data-version="v1"]`)).toContainText(
        `Imported from ${a.home}`,
      );
    await expect(page.locator('[data-testid="target-write"][data-change="delete"]')).toHaveCount(0);
    await keepScreenshot(page, testInfo, 'import-kept-from-another-home');
    await applyFromTarget(page);

    // 3. Beta vanishes from home A, alpha gains a file: importing A again removes beta only, and lists gamma as kept.
    await rm(join(a.home, 'projects', beta), { recursive: true });
    await writeFile(join(a.home, 'projects', alpha, 'memory', 'new.md'), 'Alpha learned something.\n');
    await page.getByTestId('import-again').click();
    await toTarget(page, a.home, alpha);
    const removed = page.getByTestId('import-removed');
    await expect(removed.locator('[data-testid="removed-project"]')).toHaveCount(2);
    await expect(removed.locator(`[data-testid="removed-project"][data-key="${beta}"][data-version="v1"]`)).toBeVisible();
    await expect(kept.locator(`[data-testid="kept-import"][data-key="${gamma}"]`).first()).toContainText(`Imported from ${b.home}`);
    await keepScreenshot(page, testInfo, 'import-removals');
    // One switch keeps them all, and undoing it brings them back.
    await removed.getByTestId('keep-removed').check();
    await expect(removed).toHaveAttribute('data-keep', 'true');
    await expect(removed).toContainText('You keep them: the proposal removes nothing.');
    await removed.getByTestId('keep-removed').uncheck();
    await expect(removed).toHaveAttribute('data-keep', 'false');

    // At Review the person rejects beta's removal after all: the history title must not say "removed".
    await applyFromTarget(page, async () => {
      const deletions = page.locator(`[data-testid="proposal-file"][data-path*="/${beta}/"]`);
      const count = await deletions.count();
      expect(count).toBe(4);
      for (let i = 0; i < count; i++) {
        await deletions.nth(i).click();
        await page.getByTestId('reject-hunk').click();
        await expect(page.getByTestId('hunk-item')).toHaveAttribute('data-decision', 'reject');
      }
    });
    expect(await readFile(join(resources, beta, 'MEMORY.md'), 'utf8')).toBe('# Beta\n');
    expect(await readFile(join(resources, gamma, 'tips.md'), 'utf8')).toBe('Gamma tips.\n');
    expect(await readFile(join(resources, alpha, 'new.md'), 'utf8')).toBe('Alpha learned something.\n');
    await page.locator('[data-testid="view-tab"][data-view="history"]').click();
    await expect(page.getByTestId('history-entry').first()).toContainText('Import from Claude Code: 1 project, 1 file');
    await expect(page.getByTestId('history-entry').first()).not.toContainText('removed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
