// End to end: what core finds about secrets is visible. The Consolidate preview marks the note holding a key; the
// review marks the key's line and its block, and the block's Accept leaves the key's line undecided.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, keepScreenshot, ready, test } from './fixtures';

// Assembled at run time: the repository holds no token-shaped literal.
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const awsKeyId = () => `AKIA${Array.from(randomBytes(16), (b) => B32[b % 32]).join('')}`;

/** One channel of the serve host, called as the page calls it. */
async function callHost(url: string, channel: string, input: unknown): Promise<{ ok: boolean; value?: { id: string } }> {
  const parsed = new URL(url);
  const response = await fetch(`${parsed.origin}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${parsed.searchParams.get('token') ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  return (await response.json()) as { ok: boolean; value?: { id: string } };
}

test('the preview marks a note holding a key, and the review marks its line and block', async ({ guardedPage: page, studio }, testInfo) => {
  const key = awsKeyId();
  const root = join(studio.codexHome, 'memories');
  const note = 'extensions/ad_hoc/notes/2026-11-20T09-00-00-deploy-creds.md';
  await writeFile(join(root, note), `# Deploy credentials\n\n- staging deploys use AWS key ${key}\n`);
  // A change to MEMORY.md that adds a task group with the key in it, proposed as any edit is (before the page opens).
  const memory = await readFile(join(root, 'MEMORY.md'), 'utf8');
  const block = [
    '# Task Group: infra deploys',
    '',
    'scope: deploys of the infra repo',
    'applies_to: cwd=/home/dana/src/infra; reuse_rule=safe while deploys go through staging',
    '',
    '## Reusable knowledge',
    '',
    '- deploys go through the staging bucket first',
    `- staging uses key ${key}`,
    '- rotate the key monthly',
    '',
  ].join('\n');
  const proposed = await callHost(studio.url, 'review.propose', { version: 'v1', path: 'MEMORY.md', content: `${block}\n${memory}` });
  expect(proposed.ok).toBe(true);

  await ready(page, studio.url);

  await page.keyboard.press('Alt+7');
  await page.getByTestId('consolidate-page').getByTestId('version-picker').locator('label', { hasText: 'v1' }).click();
  await expect(page.locator('[data-testid="input-preview"][data-version="v1"]')).toBeVisible({ timeout: 30_000 });
  const secrets = page.getByTestId('preview-secrets');
  await expect(secrets).toBeVisible();
  await expect(secrets).toContainText(note);
  await expect(secrets).toContainText('line 3: an AWS access key id');
  await expect(page.getByTestId('input-notes').getByTestId('secret-mark')).toHaveCount(1);
  await expect(page.locator('body')).not.toContainText(key);
  await keepScreenshot(page, testInfo, 'consolidate-secret-input');

  await page.locator('[data-testid="view-tab"][data-view="review"]').click();
  await page.locator(`[data-testid="proposal-item"]`).first().click();
  await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');
  const outline = page.getByTestId('block-outline');
  await expect(outline).toHaveAttribute('data-kind', 'memory_md', { timeout: 60_000 });
  const row = outline.locator('[data-testid="block-row"][data-title="infra deploys"]');
  await expect(row.getByTestId('block-secret')).toBeVisible();
  const line = page.getByTestId('secret-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(`staging uses key ${key}`);
  await expect(line).toContainText('secret: an AWS access key id');
  const secretItem = page.locator('[data-testid="hunk-item"][data-secret="true"]');
  await expect(secretItem.getByTestId('hunk-secret')).toBeVisible();

  await row.getByTestId('accept-block').click();
  await expect(secretItem).toHaveAttribute('data-decision', 'undecided');
  const others = page.locator('[data-testid="hunk-item"]:not([data-secret])');
  expect(await others.count()).toBeGreaterThan(0);
  for (const other of await others.all()) await expect(other).toHaveAttribute('data-decision', 'accept');
  await keepScreenshot(page, testInfo, 'review-secret-line');
});
