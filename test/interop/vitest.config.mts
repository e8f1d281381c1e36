// The interop suite: Memory Studio checked against the real Codex CLI (the reference, or STUDIO_CODEX_VERSION) and a fake model provider on 127.0.0.1.
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '..', '..'),
  test: {
    include: ['test/interop/**/*.test.ts'],
    environment: 'node',
    // One Codex home per scenario; files run in parallel (each has its own provider and homes).
    testTimeout: 240_000,
    hookTimeout: 120_000,
    globalSetup: ['test/interop/global-setup.ts'],
  },
});
