// End to end for the Sync view: set up a remote from the page, push (a secret held back, named, never shown), pull what
// another machine published, and open the arrivals in the review.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateHome } from '../fixtures';
import { expect, guardPage, keepScreenshot, ready, repoRoot, startServe, stopAndRemove, test } from './fixtures';

const bin = join(repoRoot, 'electron', 'host', 'bin.cjs');
const cli = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const SECRET = ['sk', 'proj', 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6'].join('-');

test('set up sync from the page, push with a secret held back, pull and review what another machine published', async ({
  page,
}, testInfo) => {
  const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-sync-'));
  const remote = join(dir, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  // The other machine: its own home and data folder, publishing through the CLI.
  const laptop = join(dir, 'laptop');
  await generateHome({ dir: laptop, scale: 'small', version: 'v1', seed: 3, git: false });
  cli('sync', 'init', '--remote', remote, '--machine', 'laptop', '--data-dir', join(dir, 'laptop-data'));
  cli('sync', 'push', '--codex-home', laptop, '--data-dir', join(dir, 'laptop-data'));
  // This machine, served: a note with a key in it must stay here.
  const desk = join(dir, 'desk');
  await generateHome({ dir: desk, scale: 'small', version: 'v1', seed: 5, git: false });
  const note = 'extensions/ad_hoc/notes/2026-12-01T10-00-00-staging-key.md';
  await mkdir(join(desk, 'memories', 'extensions', 'ad_hoc', 'notes'), { recursive: true });
  await writeFile(join(desk, 'memories', ...note.split('/')), `# Staging\n\nOPENAI_API_KEY=${SECRET}\n`);
  const served = await startServe(desk, join(dir, 'desk-data'));
  try {
    const check = guardPage(page, new URL(served.url).origin);
    await ready(page, served.url);
    await page.locator('[data-testid="view-tab"][data-view="sync"]').click();
    await expect(page.getByTestId('sync-setup')).toBeVisible();
    await page.getByTestId('sync-remote-input').fill(remote);
    await page.getByTestId('sync-machine-input').fill('desk');
    await keepScreenshot(page, testInfo, 'sync-setup');
    await page.getByTestId('sync-init').click();
    await expect(page.getByTestId('sync-facts')).toContainText('machines/desk/v1');

    await page.getByTestId('sync-push').click();
    await expect(page.getByTestId('sync-outcome')).toContainText('Published');
    await expect(page.getByTestId('sync-outcome')).toContainText('1 file held back');
    await expect(page.getByTestId('sync-held-back')).toContainText(note);
    await expect(page.getByTestId('sync-held-back')).toContainText('possible secret');
    expect(await page.content()).not.toContain(SECRET);
    const published = execFileSync('git', ['--git-dir', remote, 'log', '-p', '--all'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(published).toContain('machines/desk/v1/files/MEMORY.md');
    expect(published).not.toContain(SECRET);

    await page.getByTestId('sync-pull').click();
    await expect(page.getByTestId('sync-outcome')).toContainText('machines/laptop/v1');
    await keepScreenshot(page, testInfo, 'sync-pulled');
    await page.getByTestId('sync-review-arrivals').click();
    await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('proposal-title')).toContainText('Import from sync (laptop)');
    await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');
    await keepScreenshot(page, testInfo, 'sync-review');

    // Applied (here from the command line, beside the running app): the arrived MEMORY.md reads as the laptop's Codex
    // memory, and its pointers open the rollout summaries that came with it, not missing root paths.
    const id = await page.getByTestId('proposal-detail').getAttribute('data-id');
    expect(id).toMatch(/^p-/);
    cli('apply', id ?? '', '--accept', 'all', '--codex-home', desk, '--data-dir', join(dir, 'desk-data'));
    const arrived = 'extensions/external_agent_import/resources/sync-machine-laptop/MEMORY.md';
    await page.keyboard.press('Control+K');
    await page.getByTestId('palette-input').fill('sync-machine-laptop/MEMORY.md');
    await expect(page.locator('[data-testid="palette-item"][data-type="file"]').first()).toContainText('sync-machine-laptop/MEMORY.md', {
      timeout: 30_000,
    });
    await page.keyboard.press('Enter');
    await expect(page.locator(`[data-testid="editor"][data-path="${arrived}"]`)).toBeVisible();
    await expect(page.getByTestId('arrival-badge')).toHaveText('on laptop');
    const pointer = page.getByTestId('pointer-link').first();
    await expect(pointer).not.toContainText('missing');
    const target = await pointer.getAttribute('data-file');
    await pointer.click();
    await expect(
      page.locator(`[data-testid="editor"][data-path="extensions/external_agent_import/resources/sync-machine-laptop/${target ?? ''}"]`),
    ).toBeVisible();
    await keepScreenshot(page, testInfo, 'sync-arrived-file');
    check();
  } finally {
    await stopAndRemove(served.child, dir);
  }
});
