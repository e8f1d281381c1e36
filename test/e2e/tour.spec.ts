// The screenshot tour: every view on the heavy home, light and dark; fails on an error panel or a native-looking button.
// `npm run tour` runs it with UPDATE_TOUR=1, which copies the screenshots into docs/tour/ for the README.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { views, type View } from '../../renderer/src/navigation/location';
import { generateHome } from '../fixtures';
import { expect, guardPage, ready, repoRoot, startServe, test, unstyledButtons, stopAndRemove } from './fixtures';

const bin = join(repoRoot, 'electron', 'host', 'bin.cjs');
const tourDir = join(repoRoot, 'docs', 'tour');

async function cli(args: readonly string[]): Promise<string> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`memory-studio ${args.join(' ')} exited ${code}:\n${stderr}`);
  return stdout;
}

/** A heavy home with one applied note (for History) and a pending builtin consolidation (for Review). */
async function tourHome(dir: string): Promise<{ codexHome: string; dataDir: string }> {
  const codexHome = join(dir, 'codex-home');
  const dataDir = join(dir, 'data');
  await generateHome({ dir: codexHome, scale: 'heavy', version: 'both', seed: 2026, now: new Date('2026-11-20T12:00:00Z'), git: false });
  const text = join(dir, 'note.txt');
  await writeFile(text, 'Remember: invoice-svc releases are tagged from main only, never from a release branch.\n');
  const note = JSON.parse(
    await cli(['note', '--codex-home', codexHome, '--data-dir', dataDir, '--slug', 'release-tags', '--text-file', text, '--json']),
  ) as { id: string };
  await cli(['apply', note.id, '--codex-home', codexHome, '--data-dir', dataDir, '--accept', 'all', '--json']);
  await cli(['consolidate', '--codex-home', codexHome, '--data-dir', dataDir, '--version', 'v1', '--engine', 'builtin', '--json']);
  return { codexHome, dataDir };
}

/** What shows each view at its most telling, once its data is there. */
const settle: Record<View, (page: Page) => Promise<void>> = {
  files: async (page) => {
    await expect(page.locator('[data-testid="editor"][data-path="memory_summary.md"] .view-lines')).toBeVisible();
    await expect(page.getByTestId('budget-headline')).toBeVisible();
    // The status bar's count is final once every root's lint is in.
    await expect(page.getByTestId('diagnostics-toggle')).toHaveAttribute('data-count', /^\d+$/, { timeout: 60_000 });
  },
  rollouts: async (page) => expect(page.getByTestId('rollout-row').first()).toBeVisible({ timeout: 60_000 }),
  projects: async (page) => expect(page.getByTestId('project-card').first()).toBeVisible({ timeout: 60_000 }),
  health: async (page) => expect(page.getByTestId('version-health').first()).toBeVisible({ timeout: 60_000 }),
  review: async (page) => {
    await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending', { timeout: 60_000 });
    await expect(page.getByTestId('hunk-item').first()).toBeVisible({ timeout: 60_000 });
  },
  history: async (page) => {
    await page.getByTestId('history-entry').first().click();
    await expect(page.getByTestId('history-detail')).toBeVisible({ timeout: 60_000 });
  },
  consolidate: async (page) => expect(page.getByTestId('preview-counts')).toBeVisible({ timeout: 90_000 }),
  import: async (page) => expect(page.getByTestId('step-sources')).toBeVisible({ timeout: 60_000 }),
  search: async (page) => {
    // A query a daily user types: the hits, their highlights and the filters at their most telling.
    await page.getByTestId('search-input').fill('flaky test');
    await expect(page.getByTestId('search-hit').first()).toBeVisible({ timeout: 60_000 });
  },
  doctor: async (page) => {
    // The whole report is in (not a refresh in flight), with its findings and their evidence.
    await expect(page.getByTestId('doctor-page')).toHaveAttribute('data-state', 'ready', { timeout: 90_000 });
    await expect(page.getByTestId('doctor-finding').first()).toBeVisible();
  },
  // Not set up on the tour's home: the form that explains sync and asks for a remote.
  sync: async (page) => expect(page.getByTestId('sync-setup')).toBeVisible({ timeout: 60_000 }),
  // Every session of the heavy home's thread catalog with its stage, the first one's details beside the table.
  coverage: async (page) => {
    await expect(page.getByTestId('coverage-page')).toHaveAttribute('data-state', 'ready', { timeout: 90_000 });
    await page.getByTestId('coverage-row').first().click();
    await expect(page.getByTestId('coverage-detail')).toHaveAttribute('data-thread-id', /.+/);
  },
};

test('screenshot tour: every view on the heavy home, light and dark, with no error panel and no native-looking button', async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-tour-'));
  const { codexHome, dataDir } = await tourHome(dir);
  const { url, child } = await startServe(codexHome, dataDir);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    const checkClean = guardPage(page, new URL(url).origin);
    if (process.env.UPDATE_TOUR) await mkdir(tourDir, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await ready(page, url);
      for (const [index, view] of views.entries()) {
        await page.locator(`[data-testid="view-tab"][data-view="${view}"]`).click();
        await settle[view](page);
        await expect(page.getByTestId('error-panel').filter({ visible: true }), `${view} (${scheme}) shows no error panel`).toHaveCount(0);
        expect(await unstyledButtons(page), `${view} (${scheme}) has no unstyled button`).toEqual([]);
        const name = `${scheme}-${index + 1}-${view}.png`;
        const path = testInfo.outputPath(name);
        await page.screenshot({ path });
        if (process.env.UPDATE_TOUR) await copyFile(path, join(tourDir, name));
      }
    }
    checkClean();
  } finally {
    await stopAndRemove(child, dir);
  }
});
