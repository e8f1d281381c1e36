// Off-thread parsing on the pool's worker (transpiled from the sources under test), fallbacks and file reads.
import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMemoryFile } from '../../../electron/core/formats';
import { parseMemoryBytes } from '../../../electron/core/formats/read-file';
import {
  configureParseWorkers,
  OFF_THREAD_THRESHOLD_BYTES,
  parseFileOffThread,
  parseFileOffThreadDetailed,
  parseMemoryFileInWorker,
  parseTextOffThread,
  resolveWorkerScript,
  shutdownParseWorkers,
} from '../../../electron/core/formats/worker-pool';
import { assertInvariants, SPEC_MEMORY_MD, SPEC_RAW_MEMORIES, withRule } from './helpers';

const repo = resolve(import.meta.dirname, '../../..');
/** The worker the unit run transpiled from the sources under test (test/unit/global-setup.ts). */
const compiled = process.env.MEMORY_STUDIO_POOL_SCRIPT ?? '';

function bigMemoryMd(targetBytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const block = SPEC_MEMORY_MD.replace('invoice-svc CI and test stability', `invoice-svc CI and test stability ${i}`);
    parts.push(block);
    size += block.length + 1;
  }
  return parts.join('\n');
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'formats-worker-'));
});

afterAll(async () => {
  await configureParseWorkers({});
  await shutdownParseWorkers();
  await rm(dir, { recursive: true, force: true });
});

describe('parse worker', () => {
  it('runs the worker transpiled from the sources under test, never an older build in out/', () => {
    expect(resolveWorkerScript()).toBe(compiled);
    expect(compiled).not.toContain(`${join(repo, 'out')}/`);
    for (const source of ['electron/core/tasks/registry.ts', 'electron/core/formats/parse-task.ts']) {
      const transpiled = join(compiled, '..', '..', '..', '..', source.replace(/\.ts$/, '.js'));
      expect(statSync(transpiled).mtimeMs).toBeGreaterThanOrEqual(statSync(join(repo, source)).mtimeMs);
    }
  });

  it('parses a text over 256 KiB on a worker, with the same result as in the thread', async () => {
    const text = bigMemoryMd(2 * 1024 * 1024);
    expect(text.length).toBeGreaterThan(OFF_THREAD_THRESHOLD_BYTES);
    const off = await parseTextOffThread(text, { path: 'memories/MEMORY.md' });
    expect(off.ranIn).toBe('worker');
    expect(off.note).toBeNull();
    assertInvariants(off.parsed, text);
    expect(off.parsed).toEqual(parseMemoryFile(text, { path: 'memories/MEMORY.md' }));
    if (off.parsed.kind !== 'memory_md') throw new Error('kind');
    expect(off.parsed.blocks.length).toBeGreaterThan(1000);
  });

  it('parses small texts in the calling thread', async () => {
    const small = await parseTextOffThread(SPEC_RAW_MEMORIES, { path: 'raw_memories.md' });
    expect(small.ranIn).toBe('thread');
    const forced = await parseTextOffThread(SPEC_RAW_MEMORIES, { path: 'raw_memories.md', thresholdBytes: 0 });
    expect(forced.ranIn).toBe('worker');
    expect(forced.parsed).toEqual(small.parsed);
    expect((await parseMemoryFileInWorker(SPEC_RAW_MEMORIES, { path: 'raw_memories.md' })).kind).toBe('raw_memories');
  });

  it('runs concurrent parses on the pool', async () => {
    const texts = Array.from({ length: 6 }, (_, i) => SPEC_MEMORY_MD.replace('Task Group: ', `Task Group: ${i} `));
    const results = await Promise.all(texts.map((t) => parseTextOffThread(t, { path: 'MEMORY.md', thresholdBytes: 0 })));
    expect(results.map((r) => r.ranIn)).toEqual(Array(6).fill('worker'));
    results.forEach((r, i) =>
      expect(r.parsed.kind === 'memory_md' && r.parsed.blocks[0]?.title).toBe(`${i} invoice-svc CI and test stability`),
    );
  });

  it('reads big files in the worker and small ones in the thread; missing files reject', async () => {
    const big = join(dir, 'MEMORY.md');
    const text = bigMemoryMd(1.5 * 1024 * 1024);
    await writeFile(big, text);
    const off = await parseFileOffThreadDetailed(big, { path: big });
    expect(off.ranIn).toBe('worker');
    assertInvariants(off.parsed, text);
    expect(off.parsed.kind).toBe('memory_md');
    const small = join(dir, 'raw_memories.md');
    await writeFile(small, SPEC_RAW_MEMORIES);
    expect((await parseFileOffThreadDetailed(small, { path: small })).ranIn).toBe('thread');
    expect((await parseFileOffThread(small, { path: small })).kind).toBe('raw_memories');
    await expect(parseFileOffThread(join(dir, 'missing.md'), { path: 'missing.md' })).rejects.toThrow(/ENOENT/);
  });

  it('format/invalid-utf8: invalid bytes are decoded leniently and reported, in the worker and in the thread', async () => {
    const bytes = Buffer.concat([Buffer.from('v1\n## User Profile\n'), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from('\n')]);
    const inThread = parseMemoryBytes(bytes, { path: 'memory_summary.md' });
    expect(withRule(inThread, 'format/invalid-utf8')).toMatchObject([{ severity: 'warning', line: 3 }]);
    expect(inThread.source.lines[2]).toBe('\uFFFD\uFFFDA');
    const file = join(dir, 'memory_summary.md');
    await writeFile(file, bytes);
    const off = await parseFileOffThreadDetailed(file, { path: file, thresholdBytes: 0 });
    expect(off.ranIn).toBe('worker');
    expect(off.parsed).toEqual({ ...inThread, path: file });
    expect(rulesWithout(parseMemoryBytes(Buffer.from('v1\n'), { path: 'memory_summary.md' }))).not.toContain('format/invalid-utf8');
  });

  it('falls back to the calling thread, with a note, when no compiled worker exists or the worker dies', async () => {
    await configureParseWorkers({ script: null });
    const none = await parseTextOffThread(SPEC_RAW_MEMORIES, { path: 'raw_memories.md', thresholdBytes: 0 });
    expect(none).toMatchObject({ ranIn: 'thread', note: expect.stringMatching(/npm run build:node/) });
    const broken = join(dir, 'broken-worker.js');
    await writeFile(broken, "throw new Error('boom');\n");
    await configureParseWorkers({ script: broken });
    const crashed = await parseTextOffThread(SPEC_RAW_MEMORIES, { path: 'raw_memories.md', thresholdBytes: 0 });
    expect(crashed).toMatchObject({ ranIn: 'thread', note: expect.stringMatching(/boom|exit/) });
    expect(crashed.parsed.kind).toBe('raw_memories');
    await configureParseWorkers({});
  });
});

function rulesWithout(p: { diagnostics: Array<{ rule: string }> }): string[] {
  return p.diagnostics.map((d) => d.rule);
}
