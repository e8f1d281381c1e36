// Lint rules, including the per-folder import rules that keep each runtime in its lane (VS Code's layering).
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { HOST_AREAS, LAYERS } from './scripts/check-layers.mjs';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const restrict = (paths, patterns, message) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: paths.map((name) => ({ name, message })),
      patterns: patterns.map((group) => ({ group: [group], message })),
    },
  ],
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'test-results/**', 'playwright-report/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Named exports only (CONTRIBUTING.md).' }],
    },
  },
  // Typed rules: a promise nobody awaits hides its failure, and a promise passed where a callback returns void
  // (an onClick, a setTimeout) rejects into nothing. Each file is typed by its runtime's tsconfig (explicit projects:
  // the project service reading the solution file took half as long again); plain *.mjs/*.cjs stay untyped.
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
    languageOptions: {
      parserOptions: {
        project: ['electron/tsconfig.json', 'electron/preload/tsconfig.json', 'renderer/tsconfig.json', 'test/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // Types that tell the truth in product code: no assertion that changes nothing, and a switch over a union names
  // every member (or has a default), so a new kind cannot slip through unhandled.
  {
    files: ['electron/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx', 'shared/**/*.ts'],
    ignores: ['**/vite.config.mts'],
    rules: {
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['**/*.cjs', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Build configs must default-export for their tools.
  {
    files: ['**/vite.config.mts', '**/vite.config.ts', '**/playwright.config.ts', '**/vitest.config.mts', 'eslint.config.mjs'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // shared/: the contract; no Node, no Electron, no DOM frameworks.
  {
    files: ['shared/**/*.ts'],
    rules: restrict(
      [...nodeBuiltins, 'electron', 'react', 'react-dom'],
      ['../electron/*', '../renderer/*', 'node:*'],
      'shared/ is runtime-neutral: no Node, Electron or React imports.',
    ),
  },
  // electron/core and electron/host: plain Node, never 'electron' (so the CLI, serve host and tests run without it).
  {
    files: ['electron/host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'react', 'react-dom'].map((name) => ({
            name,
            message: 'core and host are plain Node: no electron or React.',
          })),
          patterns: [
            { group: ['**/renderer/*', '**/main/*', '**/preload/*'], message: 'host is plain Node: no main, preload or renderer imports.' },
            {
              regex: `^(\\.\\./)+core/(?!(${HOST_AREAS.join('|')})(/|$))`,
              allowTypeImports: true,
              message: `hosts reach core only through ${HOST_AREAS.join(' and ')} (a use case in service/use-cases/): see HOST_AREAS in scripts/check-layers.mjs.`,
            },
          ],
        },
      ],
    },
  },
  // electron/core: besides, never a host, and each area only the areas below it (scripts/check-layers.mjs, which
  // npm test runs, checks the same order and import() as well). Type-only imports leave nothing behind and pass.
  ...LAYERS.map((area, i) => ({
    files: [`electron/core/${area}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'react', 'react-dom'].map((name) => ({ name, message: 'core is plain Node: no electron or React.' })),
          patterns: [
            {
              group: ['**/renderer/*', '**/main/*', '**/preload/*', '**/host/*'],
              message: 'core never imports a host, main, preload or renderer: they call core through the service.',
            },
            ...(i + 1 < LAYERS.length
              ? [
                  {
                    regex: `^(\\.\\./)+(${LAYERS.slice(i + 1).join('|')})(/|$)`,
                    allowTypeImports: true,
                    message: `${area} may import only the areas below it (${LAYERS.slice(0, i).join(', ') || 'none'}): see LAYERS in scripts/check-layers.mjs.`,
                  },
                ]
              : []),
          ],
        },
      ],
    },
  })),
  // electron/preload: only electron and shared/.
  {
    files: ['electron/preload/**/*.ts'],
    ignores: ['electron/preload/vite.config.mts'],
    rules: restrict(
      [...nodeBuiltins, 'react'],
      ['**/core/*', '**/host/*', '**/main/*', '**/renderer/*'],
      'the sandboxed preload sees only electron and shared/.',
    ),
  },
  // electron/main: the Electron shell; never the renderer.
  {
    files: ['electron/main/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'react-dom'].map((name) => ({ name, message: 'main never imports renderer code.' })),
          patterns: [
            { group: ['**/renderer/*', '**/preload/*'], message: 'main never imports renderer or preload code.' },
            {
              regex: `^(\\.\\./)+core/(?!(${HOST_AREAS.join('|')})(/|$))`,
              allowTypeImports: true,
              message: `main reaches core only through ${HOST_AREAS.join(' and ')}: see HOST_AREAS in scripts/check-layers.mjs.`,
            },
          ],
        },
      ],
    },
  },
  // Raw ipcMain / ipcRenderer only in the two generated wrappers (GitHub Desktop's rule).
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/main/ipc.ts', 'electron/preload/index.ts', 'electron/**/vite.config.mts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only (CONTRIBUTING.md).' },
        {
          selector: 'ImportSpecifier[imported.name=/^ipc(Main|Renderer)$/]',
          message: 'Use the contract wrappers in electron/main/ipc.ts and electron/preload/index.ts.',
        },
      ],
    },
  },
  // renderer/: DOM only; everything else goes through window.studio or HTTP.
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['renderer/vite.config.mts'],
    rules: restrict(
      [...nodeBuiltins, 'electron', 'better-sqlite3'],
      ['**/electron/*', 'node:*'],
      'the renderer is DOM only: ask main through window.studio / the contract.',
    ),
  },
  // React: hooks called in a fixed order, effects that name every value they read.
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Size: product files under 400 lines and functions (React components included) under 80, so each reads in
  // one sitting. Counted without blank lines and comments, so explaining why never costs a split.
  {
    files: ['electron/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx', 'shared/**/*.ts'],
    ignores: ['**/vite.config.mts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  // Generated data, not code: the schemas captured from a real Codex by scripts/capture-codex-schema.mjs, and the
  // verified releases scripts/compat.mjs writes.
  {
    files: ['electron/core/codex-schema/codex-*.ts', 'electron/core/codex-schema/verified.ts'],
    rules: { 'max-lines': 'off', 'max-lines-per-function': 'off' },
  },
  // Formatting belongs to Prettier (npm run format); turn off every stylistic rule that would fight it.
  prettier,
);
