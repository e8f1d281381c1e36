// A serve host in a child process (stall-host.mjs: the built core, its main-loop stall monitor read over IPC), called
// over real HTTP from the bench the way the renderer's http-transport calls it: POST /api/<channel>, the token as a
// Bearer header, the page's own origin.
/* global fetch -- Node's own fetch: the bench talks to the serve host over real HTTP. */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { URL } from 'node:url';
import { percentile } from './harness.mjs';

export function startHost(root, codexHome, dataDir, env = process.env) {
  const child = fork(join(root, 'test', 'bench', 'stall-host.mjs'), [root, codexHome, dataDir], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env,
  });
  const next = (type) =>
    new Promise((resolve) =>
      child.on('message', function on(m) {
        if (m.type !== type) return;
        child.off('message', on);
        resolve(m);
      }),
    );
  return { child, next, ready: next('ready'), stop: () => child.send({ type: 'stop' }) };
}

/** A caller of the contract over HTTP, as the page makes it from the URL the host printed. */
export function client(url) {
  const { origin, searchParams } = new URL(url);
  const token = searchParams.get('token');
  return async (channel, input = {}) => {
    const response = await fetch(`${origin}/api/${channel}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin },
      body: JSON.stringify(input),
      cache: 'no-store',
    });
    const result = await response.json();
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value;
  };
}

/**
 * The watcher's own caller: one keep-alive connection of its own, opened before any window, as a second page open on the
 * host holds one. Its round trips are the host's answer time, not this process opening a connection behind the
 * storm's fifty (which the window's work makes through `client`'s pool, as many callers at once do).
 */
export async function watcher(url) {
  const { origin, searchParams, hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: `Bearer ${searchParams.get('token')}`, 'content-type': 'application/json', origin };
  const call = (channel, input = {}) =>
    new Promise((resolve, reject) => {
      const req = request({ agent, hostname, port, method: 'POST', path: `/api/${channel}`, headers }, (response) => {
        const chunks = [];
        response.on('data', (c) => chunks.push(c));
        response.on('end', () => {
          try {
            const text = Buffer.concat(chunks).toString('utf8');
            if (response.statusCode !== 200) throw new Error(`${channel}: HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
            const result = JSON.parse(text);
            if (result.ok) resolve(result.value);
            else reject(new Error(`${channel}: ${result.error.message}`));
          } catch (error) {
            reject(error);
          }
        });
      });
      req.on('error', reject);
      req.end(JSON.stringify(input));
    });
  await call('app.info'); // the connection is open before the first window
  return Object.assign(call, { close: () => agent.destroy() });
}

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

/**
 * The worst main-loop stall of the host and app.info's p99 over HTTP while `work` runs (everything it awaits is inside),
 * app.info asked by `watch` (see watcher) on its own connection.
 */
export async function measureWindow(host, watch, work) {
  // The host closes a connection idle for 5 s: one call just before the window keeps the watcher's open (or reopens it
  // here), so no window's first sample is a new connection behind the window's own.
  await watch('app.info');
  host.child.send({ type: 'window-start' });
  await host.next('window-started');
  const { result, samples } = await pollWhile(watch, work());
  host.child.send({ type: 'window-end' });
  const { maxStallMs } = await host.next('window');
  return { result, maxStallMs, p99: percentile(samples, 99), calls: samples.length };
}

export async function waitIndexed(call) {
  for (;;) {
    const status = await call('index.status');
    if (status.state === 'ready' || status.state === 'off' || status.state === 'cancelled') return status;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Round trips of `calls()` ([channel, input] pairs) one at a time, as a person's page makes them: ms each. */
export async function roundTrips(call, calls) {
  const samples = [];
  for (const [channel, input] of calls) {
    const started = performance.now();
    await call(channel, input);
    samples.push(performance.now() - started);
  }
  return samples;
}
