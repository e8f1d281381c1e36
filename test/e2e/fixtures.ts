// Playwright fixtures: a fresh generated Codex home and a fresh `memory-studio serve` per test; page hygiene checks.
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateHome, type HomeManifest } from '../fixtures';

export const repoRoot = resolve(__dirname, '..', '..');
const bin = join(repoRoot, 'electron', 'host', 'bin.cjs');

export interface ServedStudio {
  url: string;
  origin: string;
  token: string;
  codexHome: string;
  dataDir: string;
  /** A folder serve was started with as `--import-source`: import sources a test makes go here (a page may not name others). */
  sources: string;
  manifest: HomeManifest | null;
  process: ChildProcess;
}

/** What each serve started by the running test printed, kept whole so a failed test can attach it (tests in a worker run one by one). */
const serveLogs: { name: string; text: () => string }[] = [];

/** Starts `memory-studio serve` and resolves with the printed URL; its whole output (and exit) is kept for a failure report. */
export async function startServe(
  codexHome: string,
  dataDir: string,
  extraArgs: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, 'serve', '--codex-home', codexHome, '--data-dir', dataDir, '--port', '0', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  serveLogs.push({ name: `serve ${codexHome}`, text: () => output });
  child.on('exit', (code, signal) => (output += `\n[serve exited: code ${code}, signal ${signal}]\n`));
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL within 20 s:\n${output}`)), 20_000);
    let found = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (found) return;
      const match = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (match) {
        found = true;
        clearTimeout(timer);
        resolvePromise(match[1] as string);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
  return { url, child };
}

/** Fails the test (when the returned check runs) on console errors, page errors, or any request leaving `origin`. */
export function guardPage(page: Page, origin: string): () => void {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    const local = url.protocol === 'data:' || url.protocol === 'blob:' || url.origin === origin;
    if (!local) problems.push(`request left 127.0.0.1: ${request.url()}`);
  });
  return () => expect(problems, 'the page stayed clean and local').toEqual([]);
}

/** `serveArgs`: more flags for `memory-studio serve` (the engine settings a page may not change come only this way). */
type Options = { homeKind: 'generated' | 'empty'; serveArgs: string[] };

export const test = base.extend<Options & { studio: ServedStudio; guardedPage: Page; serveLog: void }>({
  /** On a failure, every serve the test started attaches what it printed (a crash or a stack shows there). */
  serveLog: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here.
    async ({}, use, testInfo) => {
      serveLogs.length = 0;
      await use();
      if (testInfo.status !== testInfo.expectedStatus)
        for (const log of serveLogs) await testInfo.attach(log.name, { body: log.text(), contentType: 'text/plain' });
    },
    { auto: true },
  ],
  homeKind: ['generated', { option: true }],
  serveArgs: [[], { option: true }],
  studio: async ({ homeKind, serveArgs }, use, testInfo) => {
    const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-'));
    const codexHome = join(dir, 'codex-home');
    const dataDir = join(dir, 'data');
    const manifest =
      homeKind === 'generated'
        ? await generateHome({
            dir: codexHome,
            // E2E_SCALE=heavy runs a spec on the heavy home (4,096 summaries per root, a 5.6 MB MEMORY.md), as a person would.
            scale: process.env.E2E_SCALE === 'heavy' ? 'heavy' : 'small',
            version: 'both',
            seed: 1000 + testInfo.workerIndex,
            now: new Date('2026-11-20T12:00:00Z'),
          })
        : null;
    if (homeKind === 'empty') {
      // A Codex home that has run with memories on but has not written any memory yet.
      await mkdir(codexHome, { recursive: true });
      await writeFile(join(codexHome, 'config.toml'), '[features]\nmemories = true\n');
    }
    const sources = join(dir, 'sources');
    await mkdir(sources, { recursive: true });
    const { url, child } = await startServe(codexHome, dataDir, ['--import-source', sources, ...serveArgs]);
    const parsed = new URL(url);
    const token = parsed.searchParams.get('token') ?? '';
    await use({ url, origin: parsed.origin, token, codexHome, dataDir, sources, manifest, process: child });
    await stopAndRemove(child, dir);
  },
  /** A page that fails the test on console errors, page errors, or any request leaving 127.0.0.1. */
  guardedPage: async ({ page, studio }, use) => {
    const check = guardPage(page, studio.origin);
    await use(page);
    check();
  },
});

/**
 * Stops a serve host and removes its folders. The host is waited for (a late write, a draft, a run's staging or an
 * index batch, would race the rm and leave a folder behind): up to a minute after SIGTERM on a busy machine, then
 * SIGKILL; the rm retries while the file system settles.
 */
export async function stopAndRemove(child: ChildProcess, dir: string): Promise<void> {
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const exited = gone() ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const stopped = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 60_000)),
  ]);
  if (!stopped && !gone()) {
    child.kill('SIGKILL');
    await exited;
  }
  await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

/** Opens the app and waits for the ready marker the renderer sets once the first data arrived. */
export async function ready(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
}

/** Visible buttons still wearing the browser's own look (Chromium draws an unstyled button with an outset border). */
export async function unstyledButtons(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('button'))
      .filter((b) => b.getClientRects().length > 0 && getComputedStyle(b).borderTopStyle === 'outset')
      .map((b) => b.outerHTML.slice(0, 160)),
  );
}

/** A screenshot kept as a test artifact, after checking that every visible button is styled. */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  // Whatever is worth a screenshot is worth a look at its controls: none may wear the browser's native look.
  expect(await unstyledButtons(page), `${name}: no native-looking button`).toEqual([]);
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** One channel of the serve host, called as the page calls it (its token from the URL serve printed). */
export async function callHost<T = unknown>(url: string, channel: string, input: unknown): Promise<T> {
  const parsed = new URL(url);
  const response = await fetch(`${parsed.origin}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${parsed.searchParams.get('token') ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  return (await response.json()) as T;
}

export { expect };
