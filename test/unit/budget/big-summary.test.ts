// A memory_summary.md past the editor's 16 MiB: Codex reads it whole and injects its cut, so `budget` and `inspect`
// report that cut (and that the editor cannot open the file) instead of failing; past the 64 MiB analysis cap they refuse.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeBudget } from '../../../electron/core/budget';
import { ANALYSIS_CAP_BYTES, DEFAULT_READ_CAP_BYTES, readMemoryFile } from '../../../electron/core/codex/workspace';
import type { BudgetReport } from '../../../shared/budget';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';

const repo = resolve(__dirname, '..', '..', '..');
const bin = join(repo, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(repo, 'out', 'electron', 'host', 'cli.js'));

let temp: { dir: string; cleanup: () => Promise<void> };
let manifest: HomeManifest;
let summaryPath = '';
let text = '';

beforeAll(async () => {
  temp = await makeTempDir();
  manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'v1', seed: 11, git: false });
  summaryPath = join(manifest.codexHome, 'memories', 'memory_summary.md');
  // The generated summary's own sections, repeated past the editor's cap: real text, as a summary that grew for years.
  const body = (await readFile(summaryPath, 'utf8')).replace(/^v1\n/, '');
  const copies = Math.ceil((DEFAULT_READ_CAP_BYTES + 512 * 1024) / Buffer.byteLength(body));
  text = `v1\n${Array.from({ length: copies }, () => body).join('\n')}`;
  await writeFile(summaryPath, text);
}, 300_000);

afterAll(() => temp.cleanup());

const cli = (args: string[]) =>
  spawnSync(process.execPath, [bin, ...args, '--codex-home', manifest.codexHome, '--data-dir', join(temp.dir, 'data'), '--json'], {
    encoding: 'utf8',
    timeout: 170_000,
    env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });

describe.skipIf(!built)('a memory_summary.md past the editor cap', () => {
  it('the editor still refuses to open it, with its size', async () => {
    await expect(readMemoryFile(join(manifest.codexHome, 'memories'), 'v1', 'memory_summary.md')).rejects.toThrow(
      /more than the 16\.0 MiB Memory Studio opens in the editor/,
    );
  });

  it('budget reports what Codex injects from it, and that the editor cannot open it', () => {
    const result = cli(['budget', '--version', 'v1']);
    expect(result.status, result.stderr).toBe(0);
    const [report] = JSON.parse(result.stdout) as BudgetReport[];
    const expected = computeBudget(text, { version: 'v1' });
    expect(report).toMatchObject({
      summaryExists: true,
      summaryBytes: Buffer.byteLength(text),
      truncated: true,
      removed: expected.removed,
      markerText: expected.markerText,
      injectedBytes: expected.injectedBytes,
      estimatedTokens: expected.estimatedTokens,
    });
    expect(report?.notes.join('\n')).toMatch(/more than the 16\.0 MiB Memory Studio opens in its editor.*Codex reads it whole/);
  });

  it('inspect gives the same cut and says the editor cannot open it', () => {
    const result = cli(['inspect', '--version', 'v1']);
    expect(result.status, result.stderr).toBe(0);
    const overview = JSON.parse(result.stdout) as { roots: Array<{ budget: Record<string, unknown> }> };
    const expected = computeBudget(text, { version: 'v1' });
    expect(overview.roots[0]?.budget).toMatchObject({
      truncated: true,
      estimatedTokens: expected.estimatedTokens,
      hiddenLines: { start: expected.removed?.startLine, end: expected.removed?.endLine },
      summaryBytes: Buffer.byteLength(text),
      opensInEditor: false,
    });
  });

  it('past the 64 MiB analysis cap both refuse with its size', async () => {
    await truncate(summaryPath, ANALYSIS_CAP_BYTES + 1);
    for (const command of ['budget', 'inspect']) {
      const result = cli([command, '--version', 'v1']);
      expect(result.status, result.stderr).toBe(1);
      expect((JSON.parse(result.stdout) as { error: { message: string } }).error.message).toMatch(/more than the 64\.0 MiB/);
    }
  });
});
