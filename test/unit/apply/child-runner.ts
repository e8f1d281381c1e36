// Spawns apply-child.cjs and lets a test kill it at a chosen moment after it starts applying.
import { type ChildProcess, spawn } from 'node:child_process';
import { CHILD } from './helpers';
import { Rng } from '../../../electron/core/demo-home/prng';

export interface ChildResult {
  ok?: boolean;
  kind?: string;
  message?: string;
  killed: boolean;
}

export function startChild(planFile: string, dataDir: string): { child: ChildProcess; ready: Promise<void>; done: Promise<ChildResult> } {
  const child = spawn(process.execPath, [CHILD, planFile, dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('ready\n')) signalReady();
  });
  // 'exit' (not 'close') reaps the child, so a killed pid is really gone before recovery checks it.
  const done = new Promise<ChildResult>((resolve) => {
    child.on('exit', (_code, signal) => {
      signalReady();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      resolve({ ...(line ? (JSON.parse(line) as Omit<ChildResult, 'killed'>) : {}), killed: signal === 'SIGKILL' });
    });
  });
  return { child, ready, done };
}

/** Deterministic delays from a seed: the generator's mulberry32. */
export function seededRandom(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}
