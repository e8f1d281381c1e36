// End to end: what core finds about secrets is visible. The Consolidate preview marks the note holding a key; the
// review of a stored (masked) redaction marks the removed key's line, the token kept beside it and their block, and
// the block's Accept takes the redaction.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callHost, expect, keepScreenshot, ready, test } from './fixtures';

// Assembled at run time: the repository holds no token-shaped literal.
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const awsKeyId = () => `AKIA${Array.from(randomBytes(16), (b) => B32[b % 32]).join('')}`;
const githubToken = () => `ghp_${randomBytes(27).toString('base64').replace(/[+/=]/g, 'Q').slice(0, 36)}`;

test('the preview marks a note holding a key; the review marks a redaction and a kept token, masked', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  const key = awsKeyId();
  const token = githubToken();
  const root = join(studio.codexHome, 'memories');
  const note = 'extensions/ad_hoc/notes/2026-11-20T09-00-00-deploy-creds.md';
  await writeFile(join(root, note), `# Deploy credentials\n\n- staging deploys use AWS key ${key}\n`);
  // The person's own task group, already in MEMORY.md with a key and a token (before the page opens).
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
    `- CI pushes tags with ${token}`,
    '- rotate the key monthly',
    '',
  ];
  await writeFile(join(root, 'MEMORY.md'), `${block.join('\n')}\n${memory}`);
  // Redact the key alone, as the Files view's Redact does: the token stays, in the hunk's context.
  const line = block.indexOf(`- staging uses key ${key}`) + 1;
  const redaction = await callHost<{ ok: boolean; value?: { id: string } }>(studio.url, 'review.redact', {
    version: 'v1',
    path: 'MEMORY.md',
    secrets: [{ rule: 'secrets/aws-access-key-id', line }],
  });
  expect(redaction.ok).toBe(true);

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
  // The stored proposal holds both masked; the marks come from what masking recorded.
  const lines = page.getByTestId('secret-line');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText(`staging uses key ${key.slice(0, 4)}****`);
  await expect(lines.nth(0)).toContainText('secret: an AWS access key id');
  await expect(lines.nth(1)).toContainText('CI pushes tags with ghp_****');
  await expect(lines.nth(1)).toContainText('secret: a GitHub token');
  const secretItem = page.locator('[data-testid="hunk-item"][data-secret="true"]');
  await expect(secretItem.getByTestId('hunk-secret')).toBeVisible();
  await expect(page.locator('body')).not.toContainText(key);
  await expect(page.locator('body')).not.toContainText(token);

  // The block's Accept takes the redaction with it: nothing it decides adds a secret.
  await row.getByTestId('accept-block').click();
  await expect(secretItem).toHaveAttribute('data-decision', 'accept');
  await keepScreenshot(page, testInfo, 'review-secret-line');
});
