// The CLI on the index, as a user runs it: search, and inspect/lint/budget answering the same with the index on or off.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHome, type HomeManifest } from '../fixtures';
import { makeTempDir } from './helpers';

const root = resolve(__dirname, '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');

let tmp: { dir: string; cleanup: () => Promise<void> };
let manifest: HomeManifest;

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [bin, ...args, '--codex-home', manifest.codexHome], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
}

const withoutTimes = (text: string) => JSON.parse(text, (key, value) => (key === 'elapsedMs' ? 0 : value));

beforeAll(async () => {
  tmp = await makeTempDir();
  manifest = await generateHome({
    dir: join(tmp.dir, 'home'),
    scale: 'small',
    version: 'both',
    seed: 4,
    now: new Date('2026-11-20T12:00:00Z'),
  });
  await writeFile(
    join(manifest.codexHome, 'memories', 'extensions/ad_hoc/notes/2026-11-20T12-00-00-secret.md'),
    'Staging uses OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz0123 for now.\n',
  );
});
afterAll(() => tmp.cleanup());

describe('memory-studio search', () => {
  it('prints ranked hits with version, path, line, score and snippet, and exits 1 on no match', () => {
    const data = join(tmp.dir, 'data-search');
    const result = run(['search', 'staging', 'uses', '--json', '--data-dir', data]);
    expect(result.status, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.hits[0]).toMatchObject({
      version: 'v1',
      relPath: 'extensions/ad_hoc/notes/2026-11-20T12-00-00-secret.md',
      line: 1,
      snippet: expect.stringContaining('Staging uses'),
    });
    expect(typeof parsed.hits[0].score).toBe('number');
    const text = run(['search', 'invoice', '--version', 'v2', '--limit', '3', '--data-dir', data]);
    expect(text.status).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^v2 \S+:\d+ {2}\(\d+\.\d\d\) {2}/);
    const none = run(['search', 'xylophonequartz', '--data-dir', data]);
    expect(none.status).toBe(1);
    expect(none.stdout).toContain('No matches for "xylophonequartz"');
    expect(run(['search', '--data-dir', data]).status).toBe(2);
    expect(run(['search', 'x', '--kind', 'nonsense', '--data-dir', data]).stderr).toContain('--kind must be one of');
  });
});

describe('inspect, lint and budget with and without the index', () => {
  it('answer the same, and say why when the index is off', () => {
    const on = join(tmp.dir, 'data-on');
    const off = join(tmp.dir, 'data-off');
    // A tiny page limit gives SQLite's real "database or disk is full" while the first build writes.
    const full = { MEMORY_STUDIO_INDEX_MAX_PAGES: '20' };
    for (const command of ['inspect', 'lint', 'budget']) {
      const indexed = run([command, '--json', '--data-dir', on]);
      const direct = run([command, '--json', '--data-dir', off], full);
      // budget reads one file and only remembers token counts, so a full index does not stop it.
      if (command !== 'budget') expect(direct.stderr, command).toMatch(/index is off: the disk holding .* is full/);
      expect(indexed.status, indexed.stderr).toBe(direct.status);
      expect(withoutTimes(indexed.stdout), command).toEqual(withoutTimes(direct.stdout));
      // Warm: the second run re-reads nothing and answers the same.
      expect(withoutTimes(run([command, '--json', '--data-dir', on]).stdout), command).toEqual(withoutTimes(indexed.stdout));
    }
    const lint = JSON.parse(run(['lint', '--json', '--data-dir', on]).stdout);
    expect(lint[0].files.flatMap((f: { diagnostics: Array<{ rule: string }> }) => f.diagnostics.map((d) => d.rule))).toContain(
      'secrets/openai-key',
    );
  });
});
