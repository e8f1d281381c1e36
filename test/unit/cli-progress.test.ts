// The CLI's build progress on stderr: announced past 200 files, and its end line says how long and how much memory.
import { describe, expect, it } from 'vitest';
import type { IndexStatus } from '../../shared/search';
import { progressPrinter } from '../../electron/host/cli-index';
import { runWithIo } from '../../electron/host/cli-io';

const status = (state: IndexStatus['state'], done: number, total: number): IndexStatus => ({
  state,
  done,
  total,
  message: '',
  notice: null,
  path: null,
});

async function printed(statuses: IndexStatus[]): Promise<string> {
  let err = '';
  const io = {
    cwd: process.cwd(),
    env: process.env,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    index: null,
    write: (_: 'out' | 'err', text: string) => (err += text),
  };
  await runWithIo(io, async () => {
    const print = progressPrinter();
    for (const s of statuses) print(s);
  });
  return err;
}

describe('the CLI index build progress', () => {
  it('announces a build of 200 files or more and ends with its time and the peak memory of the process', async () => {
    const err = await printed([status('building', 0, 250), status('building', 125, 250), status('ready', 250, 250)]);
    expect(err).toContain('Indexing 250 files of this Codex home');
    const end = /indexed 250 files in \d+\.\d s \(peak memory (\d+) MiB\)\./.exec(err);
    expect(end, err).not.toBeNull();
    // What the process holds now is a floor for its peak.
    expect(Number(end?.[1])).toBeGreaterThanOrEqual(Math.floor(process.memoryUsage().rss / 1024 / 1024) - 1);
  });

  it('says nothing for a small refresh', async () => {
    expect(await printed([status('building', 0, 12), status('ready', 12, 12)])).toBe('');
  });
});
