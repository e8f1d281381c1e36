// The first screen: from the line `memory-studio serve` prints (`Open: URL`) to the answer of the first home.get, as the
// renderer asks it (POST /api/home.get with the token), on the heavy home with a warm data folder. Whole process.
/* global fetch -- Node's own fetch: the bench talks to the serve host over real HTTP. */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { URL } from 'node:url';

/** One start of serve: ms from its URL line to the first home.get answer; the host is stopped with Ctrl+C after. */
async function once(bin, codexHome, dataDir) {
  const child = spawn(process.execPath, [bin, 'serve', '--codex-home', codexHome, '--data-dir', dataDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const found = /Open: (\S+)/.exec(out);
        if (found) resolve(found[1]);
      });
      void exited.then(() => reject(new Error(`serve exited before printing its URL:\n${errors.slice(0, 2000)}`)));
    });
    const shown = performance.now();
    const { origin, searchParams } = new URL(url);
    const response = await fetch(`${origin}/api/home.get`, {
      method: 'POST',
      headers: { authorization: `Bearer ${searchParams.get('token')}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const result = await response.json();
    if (!result.ok) throw new Error(`home.get: ${result.error.message}`);
    return performance.now() - shown;
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

/** The median of `runs` starts (after one that warms the data folder's index for this host). */
export async function firstScreenFigure(bin, codexHome, dataDir, runs) {
  await once(bin, codexHome, dataDir);
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await once(bin, codexHome, dataDir));
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}
