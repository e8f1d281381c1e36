// End-to-end: system Chromium driven by Playwright against the built UI served by `memory-studio serve`.
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/** CHROMIUM_PATH, else Debian's chromium, else Playwright's own browser where one was installed. */
function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path): path is string => !!path && existsSync(path));
}

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // Generous on purpose: the suite must pass on a loaded 2-core machine (timings belong to the bench).
  timeout: 180_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  outputDir: '../../test-results/e2e',
  reporter: [['list'], ['json', { outputFile: '../../test-results/e2e.json' }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      // Debian's Chromium as root needs --no-sandbox; the rest stops it reaching for Google's hosts on a closed network.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
