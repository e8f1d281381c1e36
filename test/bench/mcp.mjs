// `memory-studio mcp` on the heavy home, as a client sees it over stdio (raw JSON-RPC, no SDK in the way): how soon
// initialize is answered after the process starts (beside Node's own start), memory_search's p95 once warm (beside rg
// over the same two roots, one process per query, as an agent without the server would grep), and the server's memory.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, percentile, row } from './harness.mjs';
import { QUERIES } from './search-app.mjs';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
};

/** A server process and a way to send a request and await its answer. */
function startServer(bin, home, dataDir) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'mcp', '--codex-home', home, '--data-dir', dataDir], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '1' },
  });
  const waiting = new Map();
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c.toString()));
  child.stdout.on('data', (chunk) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  let next = 1;
  const request = (method, params, id = next++) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method} within 300 s:\n${stderr.slice(-2000)}`)), 300_000);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const stop = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.stdin.end();
    });
  return { child, started, request, stop };
}

/** Spawn to initialize answered, and spawn to exit of a bare Node, in alternating pairs. */
async function readiness(bin, home, dataDir, runs) {
  const ours = [];
  const node = [];
  for (let i = 0; i < runs + 1; i++) {
    const server = startServer(bin, home, dataDir);
    await server.request(INITIALIZE.method, INITIALIZE.params, 0);
    const ms = performance.now() - server.started;
    await server.stop();
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    const bare = performance.now() - t;
    if (i > 0) {
      ours.push(ms);
      node.push(bare);
    }
  }
  return { ours: median(ours), node: median(node), p95: percentile(ours, 95) };
}

/** The server's resident memory now and at its peak (Linux: /proc), in MiB; null elsewhere. */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Each query as rg would run it for an agent: case-insensitive, its first word, over both roots. */
function rgTimes(home, rounds) {
  const roots = [join(home, 'memories'), join(home, 'memories_v2')];
  const times = [];
  for (let r = 0; r < rounds; r++) {
    for (const query of QUERIES) {
      const word = query.replace(/"/g, '').split(/\s+/)[0];
      const t = performance.now();
      const result = spawnSync('rg', ['-i', '-n', '--fixed-strings', word, ...roots], { encoding: 'utf8', maxBuffer: 256 << 20 });
      if (result.status !== 0 && result.status !== 1) throw new Error(`rg failed: ${result.stderr}`);
      times.push(performance.now() - t);
    }
  }
  return times;
}

export async function mcpFigures({ bin, heavy, scratch, have, runs }) {
  const table = [];
  const dataDir = join(scratch, 'data-mcp');
  const server = startServer(bin, heavy, dataDir);
  try {
    await server.request(INITIALIZE.method, INITIALIZE.params, 0);
    server.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await server.request('tools/list', {});
    // The first search waits for the index's cold build; then every query twice unmeasured, so the answers are warm.
    const search = (query) => server.request('tools/call', { name: 'memory_search', arguments: { query, limit: 10 } });
    for (let round = 0; round < 2; round++) for (const query of QUERIES) await search(query);
    const times = [];
    for (let round = 0; round < Math.max(3, Math.ceil(runs / 2)); round++) {
      for (const query of QUERIES) {
        const t = performance.now();
        const answer = await search(query);
        times.push(performance.now() - t);
        if (answer.result?.isError) throw new Error(`memory_search "${query}" failed: ${JSON.stringify(answer.result.content)}`);
      }
    }
    const memory = memoryOf(server.child.pid);
    const p95 = percentile(times, 95);
    const rg = have.rg ? rgTimes(heavy, Math.max(1, Math.ceil(runs / 4))) : null;
    row(table, `memory_search p95, warm, over stdio (${times.length} calls)`, {
      ours: p95,
      anchorLabel: rg ? `rg -i over both roots, p95` : 'rg missing',
      anchor: rg ? percentile(rg, 95) : null,
      ratio: rg ? p95 / percentile(rg, 95) : null,
      budget: '10 ms',
      within: p95 <= 10,
    });
    if (memory) {
      table.push({
        figure: 'server memory after the searches (RSS; peak)',
        ours: `${memory.rss.toFixed(0)} MiB`,
        anchorLabel: `peak ${memory.peak.toFixed(0)} MiB`,
        anchor: '',
        ratio: '',
        node: '',
        budget: 'none (reported)',
        verdict: 'reported',
      });
    }
  } finally {
    await server.stop();
  }
  const ready = await readiness(bin, heavy, dataDir, runs);
  const first = [];
  row(first, 'server ready: spawn to initialize answered (median)', {
    ours: ready.ours,
    anchorLabel: 'node -e 0, spawn to exit',
    anchor: ready.node,
    ratio: ready.ours / ready.node,
    budget: '300 ms',
    within: ready.ours <= 300,
  });
  return [...first, ...table];
}
