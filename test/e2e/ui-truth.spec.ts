// Every figure the UI shows equals the CLI's JSON for the same home: diagnostics, budget, file counts, health, rollouts, inputs.
import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { BudgetReport } from '../../shared/budget';
import { readBudgetHeadline } from '../../shared/codex-reads';
import { fileKinds, type MemoryVersion } from '../../shared/domain';
import type { LintReport } from '../../shared/lint';
import { formatBytes, plural } from '../../renderer/src/lib/format';
import { ANALYSIS_CAP_BYTES } from '../../electron/core/codex/workspace';
import { generateHome } from '../fixtures';
import { expect, guardPage, ready, repoRoot, startServe, test, stopAndRemove } from './fixtures';

const bin = join(repoRoot, 'electron', 'host', 'bin.cjs');

/** Runs a CLI command with --json and parses what it printed (lint and secrets exit 1 when they find something). */
async function cliJson<T>(args: readonly string[], dataDir: string): Promise<T> {
  const child = spawn(process.execPath, [bin, ...args, '--json', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 && code !== 1) throw new Error(`memory-studio ${args.join(' ')} exited ${code}:\n${stderr}`);
  return JSON.parse(stdout) as T;
}

interface InspectRoot {
  version: MemoryVersion;
  files: number;
  bytes: number;
  counts: Record<string, number>;
  rolloutSummaries: number;
  unused: number;
}
interface InspectVersionHealth {
  version: MemoryVersion;
  stage1: { byStatus: Record<'pending' | 'running' | 'done' | 'error', number> };
  outputs: { total: number; selectedForPhase2: number } | null;
  phase1: { eligible: number; nextStartClaims: number } | null;
}
interface Inspect {
  configDiagnostics: unknown[];
  memoryVersion: { version: MemoryVersion; source: 'config' | 'default' };
  roots: InspectRoot[];
  health: {
    threads: {
      total: number;
      archived: number;
      byMode: Record<'enabled' | 'disabled' | 'polluted', number>;
      phase1Window: { inWindow: number };
    } | null;
    versions: InspectVersionHealth[];
  };
}

/** What `consolidate --preview --json` says about the next consolidation's inputs and the lease. */
interface Preview {
  selection: { rows: unknown[]; eligible: number };
  lease: { state: string };
}

interface CliView {
  inspect: Inspect;
  lint: LintReport[];
  budget: BudgetReport[];
  preview: Map<MemoryVersion, Preview>;
}

async function cliView(codexHome: string, dataDir: string): Promise<CliView> {
  const inspect = await cliJson<Inspect>(['inspect', '--codex-home', codexHome], dataDir);
  const lint = await cliJson<LintReport[]>(['lint', '--codex-home', codexHome], dataDir);
  const budget = await cliJson<BudgetReport[]>(['budget', '--codex-home', codexHome], dataDir);
  const preview = new Map<MemoryVersion, Preview>();
  for (const root of inspect.roots) {
    preview.set(root.version, await cliJson(['consolidate', '--codex-home', codexHome, '--version', root.version, '--preview'], dataDir));
  }
  return { inspect, lint, budget, preview };
}

const n = (value: number) => value.toLocaleString('en-US');

/** The status bar's diagnostics and the sidebar's counts, file and byte totals. */
async function expectFilesViewEqual(page: Page, cli: CliView): Promise<void> {
  const lintTotal = cli.lint.reduce((sum, report) => sum + report.files.reduce((s, f) => s + f.diagnostics.length, 0), 0);
  const countsTotal = cli.lint.reduce((sum, report) => sum + report.counts.error + report.counts.warning + report.counts.info, 0);
  expect(lintTotal, 'lint --json: its counts equal its rows').toBe(countsTotal);
  await expect(page.getByTestId('diagnostics-toggle')).toHaveAttribute(
    'data-count',
    String(cli.inspect.configDiagnostics.length + lintTotal),
    { timeout: 60_000 },
  );
  for (const root of cli.inspect.roots) {
    expect(cli.inspect.roots.find((r) => r.version === root.version)?.counts).toBeDefined();
    for (const kind of fileKinds) {
      const badge = page.locator(`[data-testid="kind-count"][data-version="${root.version}"][data-kind="${kind}"]`);
      const expected = root.counts[kind] ?? 0;
      if (expected === 0) await expect(badge, `${root.version} ${kind}`).toHaveCount(0);
      else await expect(badge, `${root.version} ${kind}`).toHaveText(String(expected));
    }
  }
  // The status bar names the root Codex uses and counts that root, whichever file is open.
  const shown = cli.inspect.roots.find((r) => r.version === cli.inspect.memoryVersion.version);
  if (!shown) throw new Error('the CLI saw no root Codex reads');
  await expect(page.getByTestId('status-root')).toHaveText(`Codex reads ${shown.version}`);
  await expect(page.getByTestId('status-files')).toHaveText(`${plural(shown.files, 'file')} · ${formatBytes(shown.bytes)}`);
}

/** Each root's budget headline and detail, as `budget --json` decides them. */
async function expectBudgetsEqual(page: Page, cli: CliView): Promise<void> {
  for (const report of cli.budget) {
    if (!report.summaryExists) continue;
    await page.locator(`[data-testid="file-item"][data-version="${report.version}"][data-path="memory_summary.md"]`).click();
    await expect(page.locator(`[data-testid="editor"][data-version="${report.version}"][data-path="memory_summary.md"]`)).toBeVisible();
    // The generated homes turn memories on: only the root Codex reads can fit; the other is seen by no session.
    const { fits, headline, detail } = readBudgetHeadline(report, { ...cli.inspect.memoryVersion, off: null });
    await expect(page.getByTestId('budget-headline')).toHaveText(headline);
    await expect(page.getByTestId('budget-headline')).toHaveAttribute('data-fits', String(fits));
    await expect(page.getByTestId('budget-detail')).toHaveText(detail);
  }
}

/** The Health page's counters, as `inspect --json` reports them. */
async function expectHealthEqual(page: Page, cli: CliView): Promise<void> {
  await page.locator('[data-testid="view-tab"][data-view="health"]').click();
  for (const health of cli.inspect.health.versions) {
    const card = page.locator(`[data-testid="version-health"][data-version="${health.version}"]`);
    const jobs = card.getByTestId('stage1-jobs');
    for (const [status, count] of Object.entries(health.stage1.byStatus)) {
      if (status === 'other') continue;
      await expect(
        jobs.locator('li').filter({ hasText: new RegExp(`^${n(count)} ${status}$`) }),
        `${health.version} ${status}`,
      ).toHaveCount(1);
    }
    if (health.outputs) {
      const outputs = card.getByTestId('stage1-outputs');
      await expect(outputs.locator('tr').filter({ hasText: /^Rows/ }).locator('td')).toHaveText(n(health.outputs.total));
      await expect(outputs.locator('tr').filter({ hasText: 'Selected in the last consolidation' }).locator('td')).toHaveText(
        n(health.outputs.selectedForPhase2),
      );
    }
    if (health.phase1 && health.phase1.eligible > 0) {
      await expect(card.getByTestId('phase1-claims')).toContainText(
        `Codex extracts ${n(health.phase1.nextStartClaims)} of ${n(health.phase1.eligible)} waiting thread`,
      );
    }
  }
  const threads = cli.inspect.health.threads;
  if (threads) {
    const row = (label: string) =>
      page
        .getByTestId('health-threads')
        .locator('tr')
        .filter({ has: page.locator('th', { hasText: new RegExp(`^${label}$`) }) })
        .locator('td');
    await expect(row('total')).toHaveText(n(threads.total));
    await expect(row('enabled')).toHaveText(n(threads.byMode.enabled));
    await expect(row('archived')).toHaveText(n(threads.archived));
  }
}

/** The root picker of a page (its radio sits under its styled label). */
async function pickVersion(page: Page, pageId: string, version: MemoryVersion): Promise<void> {
  const picker = page.getByTestId(pageId).getByTestId('version-picker');
  await picker.locator('label', { has: page.locator(`input[data-version="${version}"]`) }).click();
  await expect(picker.locator(`input[data-version="${version}"]`)).toBeChecked();
}

/** Rollouts per root (all, never cited) and the consolidation inputs, as inspect and `consolidate --preview` count them. */
async function expectRolloutsAndInputsEqual(page: Page, cli: CliView): Promise<void> {
  await page.locator('[data-testid="view-tab"][data-view="rollouts"]').click();
  for (const root of cli.inspect.roots) {
    await pickVersion(page, 'rollouts-page', root.version);
    const count = page.getByTestId('rollout-count');
    await expect(count).toHaveAttribute('data-total', String(root.rolloutSummaries), { timeout: 180_000 });
    await page.getByTestId('never-cited-toggle').check();
    await expect(count).toHaveAttribute('data-shown', String(root.unused), { timeout: 30_000 });
    await page.getByTestId('never-cited-toggle').uncheck();
  }
  await page.locator('[data-testid="view-tab"][data-view="consolidate"]').click();
  for (const [version, preview] of cli.preview) {
    await pickVersion(page, 'consolidate-page', version);
    await expect(page.getByTestId('count-selected')).toHaveAttribute('data-value', String(preview.selection.rows.length), {
      timeout: 30_000,
    });
    await expect(page.getByTestId('count-selected')).toContainText(`of ${n(preview.selection.eligible)} eligible`);
    await expect(page.getByTestId('lease-notice')).toHaveAttribute('data-state', preview.lease.state);
  }
}

async function expectUiEqualsCli(page: Page, codexHome: string, cliDataDir: string): Promise<void> {
  const cli = await cliView(codexHome, cliDataDir);
  await expectFilesViewEqual(page, cli);
  await expectBudgetsEqual(page, cli);
  await expectHealthEqual(page, cli);
  await expectRolloutsAndInputsEqual(page, cli);
}

/** A binary, a past-the-64-MiB-cap and a non-UTF-8 note in v1, and a v2 summary long enough for Codex to cut. */
async function addBadFiles(codexHome: string): Promise<void> {
  const notes = join(codexHome, 'memories', 'extensions', 'ad_hoc', 'notes');
  await mkdir(notes, { recursive: true });
  await writeFile(join(notes, '2026-11-20T09-00-00-binary.md'), Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02, 0xff, 0x0a]));
  await writeFile(join(notes, '2026-11-20T09-00-01-huge.md'), Buffer.alloc(ANALYSIS_CAP_BYTES + 1024, 'a'));
  await writeFile(join(notes, '2026-11-20T09-00-02-latin1.md'), Buffer.from('Caf\xe9 au lait\n', 'latin1'));
  const summary = join(codexHome, 'memories_v2', 'memory_summary.md');
  const extra = Array.from(
    { length: 300 },
    (_, i) => `- padding line ${i}: the team keeps every migration reversible and documented\n`,
  ).join('');
  await appendFile(summary, `\n## More notes\n\n${extra}`);
  expect((await readFile(summary)).length).toBeGreaterThan(10_000);
}

test('the small home with bad files and an over-budget summary: every number equals the CLI', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-truth-'));
  const codexHome = join(dir, 'codex-home');
  await generateHome({ dir: codexHome, scale: 'small', version: 'both', seed: 17, now: new Date('2026-11-20T12:00:00Z') });
  await addBadFiles(codexHome);
  const { url, child } = await startServe(codexHome, join(dir, 'data'));
  try {
    const checkClean = guardPage(page, new URL(url).origin);
    await ready(page, url);
    await expectUiEqualsCli(page, codexHome, join(dir, 'cli-data'));
    // The three bad files are diagnostics, named by path, in the panel the count opens.
    await page.locator('[data-testid="view-tab"][data-view="files"]').click();
    await page.getByTestId('diagnostics-toggle').click();
    for (const name of ['binary', 'huge', 'latin1']) await expect(page.getByTestId('diagnostics-panel')).toContainText(`-${name}.md`);
    await expect(page.getByTestId('diagnostics-panel')).toContainText('budget/truncated');
    checkClean();
  } finally {
    await stopAndRemove(child, dir);
  }
});

test.describe('a heavy home', () => {
  test('every number the UI shows equals the CLI', async ({ page }) => {
    test.setTimeout(300_000);
    const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-truth-heavy-'));
    const codexHome = join(dir, 'codex-home');
    await generateHome({ dir: codexHome, scale: 'heavy', version: 'both', seed: 4097, now: new Date('2026-11-20T12:00:00Z'), git: false });
    const { url, child } = await startServe(codexHome, join(dir, 'data'));
    try {
      const checkClean = guardPage(page, new URL(url).origin);
      await ready(page, url);
      await expectUiEqualsCli(page, codexHome, join(dir, 'cli-data'));
      checkClean();
    } finally {
      await stopAndRemove(child, dir);
    }
  });
});
