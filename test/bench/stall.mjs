// Main-loop figures of a running serve host: the worst stall during a heavy v1 consolidation and during a budget of a
// pathological summary, and app.info's latency (over HTTP, from this process) while each runs.
/* global fetch -- Node's own fetch: the bench talks to the serve host over real HTTP. */
import { performance } from 'node:perf_hooks';
import { URL } from 'node:url';
import { fork } from 'node:child_process';
import { join } from 'node:path';

function startHost(root, codexHome, dataDir) {
  const child = fork(join(root, 'test', 'bench', 'stall-host.mjs'), [root, codexHome, dataDir], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = (type) =>
    new Promise((resolve) =>
      child.on('message', function on(m) {
        if (m.type !== type) return;
        child.off('message', on);
        resolve(m);
      }),
    );
  return { child, next, ready: next('ready') };
}

function client(url) {
  const { origin, searchParams } = new URL(url);
  const token = searchParams.get('token');
  return async (channel, input = {}) => {
    const response = await fetch(`${origin}/api/${channel}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    const result = await response.json();
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value;
  };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** Calls app.info back to back until `done` settles; each call's round trip is one sample. */
async function pollWhile(call, done) {
  let finished = false;
  const result = done.finally(() => (finished = true));
  const samples = [];
  while (!finished) {
    const started = performance.now();
    await call('app.info');
    samples.push(performance.now() - started);
  }
  return { result: await result, samples };
}

async function window(host, call, work) {
  host.child.send({ type: 'window-start' });
  await host.next('window-started');
  const { result, samples } = await pollWhile(call, work());
  host.child.send({ type: 'window-end' });
  const { maxStallMs } = await host.next('window');
  return { result, maxStallMs, p99: percentile(samples, 99), calls: samples.length };
}

async function waitIndexed(call) {
  for (;;) {
    const status = await call('index.status');
    if (status.state === 'ready' || status.state === 'off' || status.state === 'cancelled') return status;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Rows of [figure, value ms, budget ms]. */
export async function stallFigures(root, { heavyHome, heavyData, pathoHome, pathoData }) {
  const rows = [];
  const heavy = startHost(root, heavyHome, heavyData);
  try {
    const call = client((await heavy.ready).url);
    await call('home.get');
    await waitIndexed(call);
    // The window runs on to the proposal's reject and the removal of the run's staging copy (4,000+ files).
    const run = await window(heavy, call, async () => {
      const started = await call('consolidate.start', { version: 'v1', engine: 'builtin' });
      let ended = null;
      for (;;) {
        const status = await call('consolidate.status', { id: started.id });
        if (!ended && ['proposed', 'unchanged', 'failed', 'cancelled'].includes(status.state)) {
          ended = status;
          if (status.proposalId) await call('review.reject', { id: status.proposalId });
        }
        if (ended && status.stagingDir === null) return ended;
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    rows.push([`worst main-loop stall, heavy v1 consolidation (${run.result.state}), its reject and staging removal`, run.maxStallMs, 100]);
    rows.push([`app.info p99 over HTTP meanwhile (${run.calls} calls)`, run.p99, 50]);
  } finally {
    heavy.child.send({ type: 'stop' });
  }
  const patho = startHost(root, pathoHome, pathoData);
  try {
    const call = client((await patho.ready).url);
    // A fresh data folder: no count of this summary is kept yet, so the budget counts the whole line (the slow case).
    const budget = await window(patho, call, () => call('inspect.budget', { version: 'v1' }));
    rows.push([`worst main-loop stall, budget of a 100,000-character line (${budget.result.o200kTokens} tokens)`, budget.maxStallMs, 100]);
    rows.push([`app.info p99 over HTTP meanwhile (${budget.calls} calls)`, budget.p99, 50]);
  } finally {
    patho.child.send({ type: 'stop' });
  }
  return rows;
}
