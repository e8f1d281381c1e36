// End to end for "Edit result": a hand edit of a proposal's proposed side survives a visit to another file of the
// proposal and is what Save writes; a discarded edit leaves the screen as well as the proposal.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { callHost, expect, ready, test, type ServedStudio } from './fixtures';

type Answer<T> = { ok: true; value: T } | { ok: false; error: { message: string } };
type Proposal = { id: string; files: Array<{ ord: number; relPath: string }> };

/** A two-file proposal (a line added at the top of each v1 file), filed as the page files one. */
async function twoFileProposal(studio: ServedStudio): Promise<Proposal> {
  const root = join(studio.codexHome, 'memories');
  const summary = await readFile(join(root, 'memory_summary.md'), 'utf8');
  const memory = await readFile(join(root, 'MEMORY.md'), 'utf8');
  const answer = await callHost<Answer<Proposal>>(studio.url, 'review.propose', {
    version: 'v1',
    path: 'memory_summary.md',
    content: `Proposed summary line.\n${summary}`,
    title: 'Two files to edit',
    more: [{ path: 'MEMORY.md', content: `Proposed memory line.\n${memory}` }],
  });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

async function proposedText(studio: ServedStudio, id: string, ord: number): Promise<string> {
  const answer = await callHost<Answer<{ proposedContent: string | null }>>(studio.url, 'review.fileTexts', { id, ord });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value.proposedContent ?? '';
}

/** The whole-file view's proposed (right-hand) side. */
const modifiedSide = (page: Page) => page.locator('[data-testid="whole-file"] .editor.modified');

/** Types `text` at the very start of the proposed side, as a person would. */
async function typeAtStart(page: Page, text: string): Promise<void> {
  await modifiedSide(page).locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type(text);
}

test('an edit of the result survives a visit to another file, Save writes what is on screen, Discard clears the screen', async ({
  guardedPage: page,
  studio,
}) => {
  await ready(page, studio.url);
  const proposal = await twoFileProposal(studio);
  const summaryOrd = proposal.files.find((f) => f.relPath === 'memory_summary.md')?.ord ?? -1;
  await page.locator('[data-testid="view-tab"][data-view="review"]').click();
  await page.getByTestId('proposal-item').filter({ hasText: 'Two files to edit' }).click();
  const summaryTab = page.locator('[data-testid="proposal-file"][data-path="memory_summary.md"]');
  await summaryTab.click();

  // Edit the summary's result at its first line, where the proposal's change is.
  await page.getByTestId('edit-result').click();
  await expect(page.getByTestId('save-result')).toBeVisible();
  await expect(modifiedSide(page)).toContainText('Proposed summary line.');
  await typeAtStart(page, 'DRAFT-ONE ');
  await expect(modifiedSide(page)).toContainText('DRAFT-ONE Proposed summary line.');

  // Another file of the proposal, then back: the draft is on screen again, not the proposal's text.
  await page.locator('[data-testid="proposal-file"][data-path="MEMORY.md"]').click();
  await expect(page.locator('[data-testid="file-review"][data-path="MEMORY.md"]')).toBeVisible();
  await summaryTab.click();
  await expect(modifiedSide(page)).toContainText('DRAFT-ONE Proposed summary line.');
  await typeAtStart(page, 'MORE ');
  await page.getByTestId('save-result').click();
  await expect(page.getByTestId('edit-result')).toBeVisible();
  expect(await proposedText(studio, proposal.id, summaryOrd)).toMatch(/^MORE DRAFT-ONE Proposed summary line\.\n/);

  // Discard from the whole-file view, which stays open: the typed text leaves the screen, and the proposal is as it was.
  await page.getByTestId('view-file').click();
  await expect(modifiedSide(page)).toContainText('MORE DRAFT-ONE Proposed summary line.');
  await page.getByTestId('edit-result').click();
  await expect(page.getByTestId('discard-result')).toBeVisible();
  await typeAtStart(page, 'THROWN-AWAY ');
  await expect(modifiedSide(page)).toContainText('THROWN-AWAY MORE DRAFT-ONE');
  await page.getByTestId('discard-result').click();
  await expect(page.getByTestId('edit-result')).toBeVisible();
  await expect(page.locator('[data-testid="file-review"]')).toHaveAttribute('data-view', 'file');
  await expect(modifiedSide(page)).toContainText('MORE DRAFT-ONE Proposed summary line.');
  await expect(modifiedSide(page)).not.toContainText('THROWN-AWAY');
  expect(await proposedText(studio, proposal.id, summaryOrd)).not.toContain('THROWN-AWAY');
});
