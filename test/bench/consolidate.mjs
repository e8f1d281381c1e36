// Consolidation figures: builtin on the heavy home until a proposal exists, with the main loop's worst stall meanwhile.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Rows of [what, ms, versus label, versus ms | null, budget]. */
export async function consolidateFigures(root, home, dataDir, runs) {
  const require = createRequire(import.meta.url);
  const { createStudioService } = require(join(root, 'out', 'electron', 'core', 'service.js'));
  const service = createStudioService({ home: { codexHome: home, source: 'flag' }, dataDir, host: 'serve', appVersion: 'bench', watch: false, holdConsolidationLease: false, log: () => undefined });
  const rows = [];
  try {
    for (const version of ['v1', 'v2']) {
      const samples = [];
      let worstStall = 0;
      let last;
      for (let i = 0; i < runs; i++) {
        const lag = monitorEventLoopDelay({ resolution: 10 });
        lag.enable();
        const started = process.hrtime.bigint();
        const run = await service.call('consolidate.start', { version, engine: 'builtin' });
        last = await service.consolidation().settled(run.id);
        samples.push(Number(process.hrtime.bigint() - started) / 1e6);
        lag.disable();
        worstStall = Math.max(worstStall, lag.max / 1e6);
        if (last.proposalId) await service.call('review.reject', { id: last.proposalId });
        rmSync(join(dataDir, 'staging'), { recursive: true, force: true });
      }
      samples.sort((a, b) => a - b);
      const median = samples[Math.floor(samples.length / 2)];
      const liveRoot = join(home, version === 'v1' ? 'memories' : 'memories_v2');
      const copy = join(dataDir, 'bench-copy');
      const t0 = process.hrtime.bigint();
      execFileSync('cp', ['-a', liveRoot, copy]);
      const cp = Number(process.hrtime.bigint() - t0) / 1e6;
      rmSync(copy, { recursive: true, force: true });
      rows.push([`builtin ${version} to a proposal (${last.state}, ${last.phases.map((p) => `${p.phase} ${p.endedAt - p.startedAt} ms`).join(', ')})`, median, 'cp -a of the root', cp, 'budget 5000 ms']);
      rows.push([`  worst main-loop stall during the ${version} run`, worstStall, '', null, 'the engine runs on a worker thread']);
    }
  } finally {
    service.dispose();
  }
  return rows;
}
