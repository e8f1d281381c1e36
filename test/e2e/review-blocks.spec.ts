// End to end on a heavy home: a builtin consolidation reviewed block by block in the structured view (keys and per-block
// Accept / Reject), then applied in part; the disk gets exactly the accepted blocks.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { Proposal } from '../../shared/review';
import { generateHome } from '../fixtures';
import { expect, guardPage, keepScreenshot, ready, repoRoot, startServe, test, stopAndRemove } from './fixtures';

/** The texts of a review item's added (or removed) rows (the signs are drawn apart from the text). */
async function addedLines(item: Locator, rows = '.diff-add'): Promise<string[]> {
  return (await item.locator(`${rows} .diff-text`).allTextContents()).map((t) => t.trim()).filter((t) => t !== '');
}

/** The proposal as the CLI shows it (`show ID --json`), from the data folder the serve host uses. */
async function shownProposal(id: string, codexHome: string, dataDir: string): Promise<Proposal> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'electron', 'host', 'bin.cjs'), 'show', id, '--json', '--codex-home', codexHome, '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`memory-studio show ${id} exited ${code}:\n${stderr}`);
  return JSON.parse(stdout) as Proposal;
}

async function runBuiltin(page: Page): Promise<void> {
  await page.keyboard.press('Alt+7');
  const consolidate = page.getByTestId('consolidate-page');
  await consolidate.getByTestId('version-picker').locator('label', { hasText: 'v1' }).click();
  await expect(page.locator('[data-testid="input-preview"][data-version="v1"]')).toBeVisible({ timeout: 90_000 });
  await page.getByTestId('engine-picker').locator('label', { hasText: 'Built-in' }).click();
  await page.getByTestId('start-run').click();
  await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'proposed', { timeout: 120_000 });
  await page.getByTestId('review-result').click();
  await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');
}

test('a heavy consolidation is reviewed block by block and applied in part', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-blocks-'));
  const codexHome = join(dir, 'codex-home');
  await generateHome({ dir: codexHome, scale: 'heavy', version: 'v1', seed: 7, now: new Date('2026-11-20T12:00:00Z') });
  const root = join(codexHome, 'memories');
  // New since Codex's last consolidation: a note (the summary gets its line; the rest of the summary only loses the
  // oldest entries, because the demo's summary is over Codex's budget).
  await writeFile(
    join(root, 'extensions/ad_hoc/notes/2026-11-20T09-00-00-remember-release-day.md'),
    '# Remember\n\nReleases go out on Tuesdays.\n',
  );
  const memoryBefore = await readFile(join(root, 'MEMORY.md'), 'utf8');
  const summaryBefore = await readFile(join(root, 'memory_summary.md'), 'utf8');
  const { url, child } = await startServe(codexHome, join(dir, 'data'));
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    const checkClean = guardPage(page, new URL(url).origin);
    await ready(page, url);
    await runBuiltin(page);
    const shown = await shownProposal(
      (await page.getByTestId('proposal-detail').getAttribute('data-id')) ?? '',
      codexHome,
      join(dir, 'data'),
    );
    const shownFile = (path: string) => shown.files.find((f) => f.relPath === path);

    // MEMORY.md: the consolidation adds one task group and leaves the rest byte for byte; the outline says so.
    await page.locator('[data-testid="proposal-file"][data-path="MEMORY.md"]').click();
    const outline = page.getByTestId('block-outline');
    await expect(outline).toHaveAttribute('data-kind', 'memory_md', { timeout: 60_000 });
    const memoryBlocks = outline.locator('[data-testid="block-row"]');
    await expect(memoryBlocks).toHaveCount(1);
    await expect(memoryBlocks.first()).toHaveAttribute('data-status', 'added');
    expect(shownFile('MEMORY.md')?.hunks.map((h) => h.kind)).toEqual(['text']);
    await expect(page.getByTestId('hunk-position')).toHaveText('Hunk 1 of 1');
    await keepScreenshot(page, testInfo, 'blocks-memory-md');
    // Rejected as a block: the person keeps the handbook as it is.
    await memoryBlocks.first().getByTestId('reject-block').click();
    await expect(page.getByTestId('hunk-item').first()).toHaveAttribute('data-decision', 'reject');

    // memory_summary.md, merged entry by entry: one hunk adds the note's line, every other one drops an old entry for
    // the budget (none rewords one); j/k walk the items, a accepts one, the outline rejects the others.
    const summaryHunks = shownFile('memory_summary.md')?.hunks ?? [];
    // The only line with text that the merge adds is the note's entry (a dropped entry's hunk may add a blank line
    // where the diff aligns the blank lines around it).
    const addedText = summaryHunks.flatMap((h) => h.lines.filter((l) => l.startsWith('+') && l.slice(1).trim() !== ''));
    expect(addedText).toHaveLength(1);
    expect(addedText[0]).toContain('Releases go out on Tuesdays.');
    expect(summaryHunks.length).toBeGreaterThan(1);
    await page.locator('[data-testid="proposal-file"][data-path="memory_summary.md"]').click();
    await expect(outline).toHaveAttribute('data-kind', 'memory_summary', { timeout: 60_000 });
    const position = page.getByTestId('hunk-position');
    // No entry moves, so each hunk is one review item.
    await expect(position).toHaveAttribute('data-count', String(summaryHunks.length));
    await page.getByTestId('proposal-detail').focus();
    await page.keyboard.press('j');
    await expect(position).toHaveAttribute('data-current', '2');
    await page.keyboard.press('k');
    await expect(position).toHaveAttribute('data-current', '1');
    const first = page.locator('[data-testid="hunk-item"][aria-current="true"]');
    const acceptedBlock = (await first.getAttribute('data-block')) ?? '';
    const kept = await addedLines(first);
    expect(kept.length, 'the first summary item adds lines').toBeGreaterThan(0);
    await page.keyboard.press('a');
    await expect(position).toHaveAttribute('data-current', '2');
    const rejectedItem = page.locator('[data-testid="hunk-item"][aria-current="true"]');
    const dropped = await addedLines(rejectedItem);
    const keptOld = await addedLines(rejectedItem, '.diff-del');
    expect(keptOld.length, 'the second summary item drops an old entry').toBeGreaterThan(0);
    const rows = outline.locator('[data-testid="block-row"]');
    for (let i = 0; i < (await rows.count()); i++) {
      const row = rows.nth(i);
      const reject = row.getByTestId('reject-block');
      if (
        (await row.getAttribute('data-title')) !== acceptedBlock &&
        (await reject.count()) > 0 &&
        (await row.getAttribute('data-decision')) === 'undecided'
      )
        await reject.click();
    }
    await expect(page.getByTestId('file-progress')).toHaveText(/^(\d+) of \1 hunks decided$/);
    await expect(page.locator(`[data-testid="block-row"][data-title="${acceptedBlock}"]`).first()).toHaveAttribute(
      'data-decision',
      /accepted|partly/,
    );
    await keepScreenshot(page, testInfo, 'blocks-summary');

    await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
    await expect(page.getByTestId('apply-button')).toBeEnabled();
    await page.getByTestId('apply-button').click();
    await expect(page.getByTestId('apply-result')).toBeVisible({ timeout: 60_000 });

    expect(await readFile(join(root, 'MEMORY.md'), 'utf8')).toBe(memoryBefore);
    const summaryAfter = await readFile(join(root, 'memory_summary.md'), 'utf8');
    expect(summaryAfter).not.toBe(summaryBefore);
    for (const line of kept) expect(summaryAfter).toContain(line);
    const onlyRejected = dropped.filter((line) => !summaryBefore.includes(line) && !kept.includes(line));
    for (const line of onlyRejected) expect(summaryAfter).not.toContain(line);
    // The rejected removal keeps the old entry in the file.
    for (const line of keptOld) expect(summaryAfter).toContain(line);
    checkClean();
  } finally {
    await stopAndRemove(child, dir);
  }
});
