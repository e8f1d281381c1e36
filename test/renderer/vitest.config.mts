// Renderer unit tests: real components, hooks and models from renderer/src in jsdom; only the transport is stubbed.
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  // Vite 8 transforms with oxc; the automatic runtime, as the renderer's own build uses.
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    include: ['test/renderer/**/*.test.ts', 'test/renderer/**/*.test.tsx'],
    environment: 'jsdom',
    setupFiles: ['test/renderer/support/setup.ts'],
    // Generous on purpose: the suite must pass with both cores busy; tests check behaviour, never timings.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
