// Bench helper, run as a child process: the serve host on the built core, with a main-loop stall monitor the bench
// reads through IPC. The bench itself calls the host over HTTP (whole process against whole process).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';

const require = createRequire(import.meta.url);
const [root, codexHome, dataDir] = process.argv.slice(2);
const out = (path) => require(join(root, 'out', 'electron', path));
const { createStudioService } = out('core/service/service.js');
const { startServeHost } = out('host/serve.js');

const service = createStudioService({
  home: { codexHome, source: 'flag' },
  dataDir,
  host: 'serve',
  appVersion: 'bench',
  log: () => undefined,
  holdConsolidationLease: true, // as the app and serve run it: the lease stays held while the proposal waits for review
});
const handle = await startServeHost({ service, rendererDir: join(root, 'out', 'renderer'), port: 0 });

// Two views of the same thing: the histogram's max, and the worst gap between 1 ms ticks (what a request would wait).
let histogram = null;
let worstGap = 0;
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  worstGap = Math.max(worstGap, now - last - 1);
  last = now;
}, 1).unref();

process.on('message', (message) => {
  if (message.type === 'window-start') {
    histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    worstGap = 0;
    last = performance.now();
    process.send({ type: 'window-started' });
  } else if (message.type === 'window-end') {
    histogram?.disable();
    process.send({ type: 'window', maxStallMs: Math.max(worstGap, (histogram?.max ?? 0) / 1e6) });
  } else if (message.type === 'stop') {
    service.dispose();
    void handle.close().then(() => process.exit(0));
  }
});
process.send({ type: 'ready', url: handle.url });
