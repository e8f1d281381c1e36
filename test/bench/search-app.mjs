// Search inside a running app (in-process, labelled so): the service's search.query through dispatch (input and
// output validated as over IPC) on the heavy home with its index warm, many queries, p50 and p95.
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { percentile } from './harness.mjs';

const require = createRequire(import.meta.url);

/** What people look for in memory: projects, tools, failures, a phrase, a file name, a thread id fragment. */
export const QUERIES = [
  'flaky',
  'pdf export',
  'invoice-svc',
  'fonts',
  'cache',
  'migration',
  'docker',
  'release checklist',
  '"pinned fonts"',
  'tiles-rs',
  'webapp e2e',
  'timeout',
  'retry',
  'staging',
  'pnpm',
  'lint',
  'tokens',
  'criterion',
  'lru',
  'vat rounding',
  'zsh',
  'tmux',
  'hydration',
  'germ',
  'clippy',
  'rotate',
  'terraform',
  'skill',
  'ci',
  'benchmark',
];

export async function searchAppFigures(root, home, dataDir) {
  const { createStudioService } = require(join(root, 'out', 'electron', 'core', 'service', 'service.js'));
  const service = createStudioService({
    home: { codexHome: home, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'bench',
    log: () => undefined,
  });
  try {
    await service.call('home.get', {});
    for (;;) {
      const status = await service.call('index.status', {});
      if (status.state === 'ready') break;
      if (status.state === 'off' || status.state === 'cancelled') throw new Error(status.message);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const query of QUERIES) await service.dispatch('search.query', { query, limit: 50 }); // warm-up
    const samples = [];
    for (let round = 0; round < 10; round++) {
      for (const query of QUERIES) {
        const started = performance.now();
        const result = await service.dispatch('search.query', { query, limit: 50 });
        samples.push(performance.now() - started);
        if (!result.ok) throw new Error(result.error.message);
      }
    }
    return { p50: percentile(samples, 50), p95: percentile(samples, 95), count: samples.length, queries: QUERIES.length };
  } finally {
    service.dispose();
  }
}
