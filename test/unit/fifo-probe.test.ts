// The FIFO probe (test/probes/fifo-probe.mjs) as a test: a named pipe under every name a command reads, every CLI command
// and serve channel run on it as a real process, none may hang, fail without naming the pipe, keep Codex's lease or
// stay up after SIGINT. One test per planted name; the figures (tries, clean, defects) are printed at the end.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Try {
  target: string;
  command: string;
  clean: boolean;
  outcome: string;
}
interface Probe {
  TARGETS: Array<{ id: string }>;
  prepareBase(dir: string): Promise<unknown>;
  probeTarget(base: unknown, index: number, target: { id: string }, record: (t: Try) => void): Promise<void>;
}

const repo = resolve(__dirname, '..', '..');
const built = existsSync(join(repo, 'out', 'electron', 'host', 'cli.js')) && existsSync(join(repo, 'out', 'renderer', 'index.html'));
const probe = (await import(join(repo, 'test', 'probes', 'fifo-probe.mjs'))) as Probe;
const tries: Try[] = [];
let dir = '';
let base: unknown;

beforeAll(async () => {
  if (!built) return;
  dir = await mkdtemp(join(tmpdir(), 'fifo-probe-'));
  base = await probe.prepareBase(dir);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  const defects = tries.filter((t) => !t.clean).length;
  if (tries.length > 0) console.log(`FIFO probe: ${tries.length} tries, ${tries.length - defects} clean, ${defects} defects`);
});

describe.skipIf(!built)('a FIFO under every name a command reads', () => {
  for (const [index, target] of probe.TARGETS.entries()) {
    it(target.id, async () => {
      const mine: Try[] = [];
      await probe.probeTarget(base, index, target, (t) => mine.push(t));
      tries.push(...mine);
      expect(mine.filter((t) => !t.clean).map((t) => `${t.command}: ${t.outcome}`)).toEqual([]);
      expect(mine.length).toBeGreaterThan(20); // every command and channel ran
    });
  }
});
