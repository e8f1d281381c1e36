// Bundles the preload into one CommonJS file: a sandboxed preload can require only 'electron', not our modules.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: resolve(import.meta.dirname, '../../out/preload'),
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    lib: { entry: resolve(import.meta.dirname, 'index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    rollupOptions: { external: ['electron'] },
  },
});
