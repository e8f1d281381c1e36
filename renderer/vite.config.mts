// Vite build for the renderer: a self-contained bundle (no CDN, no network plugins) loaded by Electron or the serve host.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const rendererRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * @monaco-editor/loader ships a jsDelivr URL as its default `paths.vs`. We always hand it the bundled
 * Monaco (`loader.config({ monaco })`), so the URL is dead code; blanking it keeps the bundle free of CDN
 * references, which the build check greps for, and makes any accidental fallback fail closed under the CSP.
 */
function stripMonacoLoaderCdn(): Plugin {
  return {
    name: 'memory-studio:strip-monaco-loader-cdn',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('@monaco-editor/loader')) return null;
      const stripped = code.replace(/https:\/\/cdn\.jsdelivr\.net\/npm\/monaco-editor@[^'"`]*/g, '');
      return stripped === code ? null : { code: stripped, map: null };
    },
  };
}

/**
 * `theme-boot.js` is a classic script that must run before the first paint, so Vite leaves it as index.html names it
 * (it bundles module scripts only); this copies it beside index.html in the build. The dev server serves it from the root.
 */
function copyThemeBoot(): Plugin {
  return {
    name: 'memory-studio:copy-theme-boot',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'theme-boot.js', source: readFileSync(`${rendererRoot}theme-boot.js`, 'utf8') });
    },
  };
}

export default defineConfig({
  root: rendererRoot,
  // Relative asset URLs: the same build is served from `app://` in Electron and from `/` by the serve host.
  base: './',
  publicDir: false,
  plugins: [stripMonacoLoaderCdn(), copyThemeBoot()],
  // Vite 8 transforms with oxc; the automatic runtime replaces @vitejs/plugin-react (not installed).
  oxc: { jsx: { runtime: 'automatic' } },
  server: { host: '127.0.0.1', strictPort: true },
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    // Monaco's core is one large chunk by nature; warn only well above it.
    chunkSizeWarningLimit: 4096,
    sourcemap: false,
    rolldownOptions: {
      onwarn(warning, warn) {
        // react-query marks its modules "use client" for React Server Components; meaningless in a client bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  worker: { format: 'es' },
});
