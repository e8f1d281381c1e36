// Electron smoke test: drives the real app with Playwright's _electron where an Electron binary exists.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  workers: 1,
  outputDir: '../../test-results/electron',
  reporter: [['list'], ['json', { outputFile: '../../test-results/electron.json' }]],
});
