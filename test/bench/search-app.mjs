// The queries the search figures ask (over HTTP in stall.mjs, over stdio in mcp.mjs), and the first home.get of a
// freshly started serve host over HTTP: from the moment it prints its URL to the answer, a fresh data folder each time.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, row } from './harness.mjs';
import { client } from './http-host.mjs';
import { serve } from './ui.mjs';

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

/** Starts `memory-studio serve` on a fresh data folder; ms from its URL to `channel` answered. */
async function firstCall(bin, home, scratch, channel) {
  const { url, child } = await serve(bin, home, mkdtempSync(join(scratch, 'cold-serve-')));
  try {
    const started = performance.now();
    await client(url)(channel);
    return performance.now() - started;
  } finally {
    await new Promise((resolve) => {
      child.removeAllListeners('exit');
      child.on('exit', resolve);
      child.kill('SIGTERM');
    });
  }
}

/** First home.get after the URL, beside the first app.info of another fresh host (alternating pairs). */
export async function firstHomeGetFigures(table, { bin, home, scratch, runs }) {
  const homes = [];
  const infos = [];
  const ratios = [];
  await firstCall(bin, home, scratch, 'home.get'); // warm-up: the OS's caches, as a second start finds them
  for (let i = 0; i < runs; i++) {
    homes.push(await firstCall(bin, home, scratch, 'home.get'));
    infos.push(await firstCall(bin, home, scratch, 'app.info'));
    ratios.push(homes.at(-1) / infos.at(-1));
  }
  const ours = median(homes);
  row(table, 'first home.get over HTTP after serve prints its URL (cold data)', {
    ours,
    anchorLabel: 'first app.info of a fresh serve',
    anchor: median(infos),
    ratio: median(ratios),
    budget: '300 ms',
    within: ours <= 300,
  });
}
