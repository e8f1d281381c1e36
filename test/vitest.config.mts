// Unit and integration tests: core, hosts and guards against real temporary folders and real SQLite.
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '..'),
  test: {
    include: ['test/unit/**/*.test.ts'],
    environment: 'node',
    // The pool's worker transpiled from the sources under test (never out/), and the task registry installed.
    globalSetup: ['test/unit/global-setup.ts'],
    setupFiles: ['test/unit/setup-pool.ts'],
    // Generous on purpose: the suite must pass with both cores busy (CI's machine may be loaded); a test checks
    // behaviour, and the bench (npm run bench) holds the figures.
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
