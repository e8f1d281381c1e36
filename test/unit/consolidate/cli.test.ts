// `memory-studio consolidate` as a user runs it: --preview prints Codex's inputs, a run prints its proposal id.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateHome } from '../../fixtures';
import { codexClaim, globalRow } from '../apply/helpers';
import { withTempDir } from '../helpers';

const root = resolve(__dirname, '..', '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');

function cli(args: string[]) {
  if (!existsSync(join(root, 'out', 'electron', 'host', 'cli.js')))
    throw new Error('out/ is missing: run "npm run build" first, as npm test does.');
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000 });
}

describe('memory-studio consolidate', () => {
  it('previews, runs builtin into a proposal, and applies it with the review commands', async () => {
    await withTempDir(async (dir) => {
      const home = (await generateHome({ dir: join(dir, 'home'), scale: 'small', version: 'v2', seed: 3, git: false, now: new Date() }))
        .codexHome;
      const data = join(dir, 'data');
      const preview = cli(['consolidate', '--codex-home', home, '--data-dir', data, '--version', 'v2', '--preview', '--json']);
      expect(preview.status).toBe(0);
      const parsed = JSON.parse(preview.stdout);
      expect(parsed.version).toBe('v2');
      expect(parsed.engine).toBe('builtin');
      expect(parsed.selection.rows.length).toBeGreaterThan(0);
      expect(parsed.lease.state).toBe('free');

      const run = cli(['consolidate', '--codex-home', home, '--data-dir', data, '--version', 'v2', '--json']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result.state).toBe('proposed');
      expect(result.proposalId).toMatch(/^p-/);
      expect(result.phases.map((p: { state: string }) => p.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
      // The CLI process ends, so it hands Codex's lease back untouched instead of holding it for a review.
      expect(globalRow(join(home, 'memories_v2_1.sqlite'))?.worker_id ?? '').not.toMatch(/^memory-studio:/);

      const applied = cli(['apply', result.proposalId, '--accept', 'all', '--codex-home', home, '--data-dir', data, '--json']);
      expect(applied.status).toBe(0);
      expect(readFileSync(join(home, 'memories_v2', 'memory_summary.md'), 'utf8').startsWith('v1\n')).toBe(true);
      const again = cli(['consolidate', '--codex-home', home, '--data-dir', data, '--version', 'v2', '--json']);
      expect(JSON.parse(again.stdout).state).toBe('unchanged');
    });
  });

  it('exits 3 with a message when Codex holds its lease, and 2 on a bad engine', async () => {
    await withTempDir(async (dir) => {
      const home = (await generateHome({ dir: join(dir, 'home'), scale: 'small', version: 'v1', seed: 3, git: false, now: new Date() }))
        .codexHome;
      expect(codexClaim(join(home, 'memories_1.sqlite'), { workerId: 'codex' }).claimed).toBe(true);
      const locked = cli(['consolidate', '--codex-home', home, '--data-dir', join(dir, 'data')]);
      expect(locked.status).toBe(3);
      expect(locked.stderr).toMatch(/Codex is consolidating/);
      const lockedJson = cli(['consolidate', '--codex-home', home, '--data-dir', join(dir, 'data'), '--json']);
      expect(lockedJson.status).toBe(3);
      expect(JSON.parse(lockedJson.stdout)).toMatchObject({ state: 'refused', error: { kind: 'Locked' } });
      expect(cli(['consolidate', '--codex-home', home, '--engine', 'gpt']).status).toBe(2);
    });
  });
});
