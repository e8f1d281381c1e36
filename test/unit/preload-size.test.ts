// The sandboxed preload exposes one function per channel and carries names only: no schema library, under 20 KB.
// Built here, as `npm run build:preload` builds it, into a temporary folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { channelNames } from '../../shared/contract';

const repo = resolve(import.meta.dirname, '..', '..');
const outDir = mkdtempSync(join(tmpdir(), 'ms-preload-'));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the preload bundle', () => {
  it('names every channel and bundles no schema library, in under 20 KB', () => {
    execFileSync(
      process.execPath,
      [
        join(repo, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--config',
        join(repo, 'electron', 'preload', 'vite.config.mts'),
        '--outDir',
        outDir,
        '--logLevel',
        'error',
      ],
      { cwd: repo, stdio: 'pipe' },
    );
    const file = join(outDir, 'index.cjs');
    const text = readFileSync(file, 'utf8');
    expect(statSync(file).size).toBeLessThan(20 * 1024);
    for (const name of channelNames) expect(text).toContain(`"${name}"`);
    expect(text).not.toMatch(/zod|ZodError|safeParse/);
    expect(text).toContain('require("electron")');
  });
});
