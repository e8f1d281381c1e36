// Validation of consolidation results: Codex's artifact checks (v1 and v2) plus our lint, on folders and on in-memory files.
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateResultFiles, validateStaged } from '../../../electron/core/consolidate/validate';
import { cleanupTemps, generatedHome } from './fixture';

afterEach(cleanupTemps);

const rules = (v: { diagnostics: Array<{ rule: string; severity: string; path: string }> }, severity = 'error') =>
  v.diagnostics.filter((d) => d.severity === severity).map((d) => `${d.path} ${d.rule}`);

const V2_GOOD =
  "v1\n## User Profile\nDev.\n## User preferences\n- short answers\n## General Tips\n- run tests\n## What's in Memory\n### app\n#### 2026-03-01\n- note\n";

describe('validateStaged', () => {
  it('passes a generated v1 and v2 root', async () => {
    for (const version of ['v1', 'v2'] as const) {
      const { root } = await generatedHome(version, false);
      const v = await validateStaged(root, version);
      expect(rules(v)).toEqual([]);
      expect(v.ok).toBe(true);
    }
  });

  it('v1: refuses a missing MEMORY.md, a bad first line and any symlink', async () => {
    const { root } = await generatedHome('v1', false);
    await rm(join(root, 'MEMORY.md'));
    const summary = await readFile(join(root, 'memory_summary.md'), 'utf8');
    await writeFile(join(root, 'memory_summary.md'), `V1${summary.slice(2)}`);
    await symlink('memory_summary.md', join(root, 'skills', 'link.md'));
    const v = await validateStaged(root, 'v1');
    expect(v.ok).toBe(false);
    expect(rules(v)).toEqual(
      expect.arrayContaining([
        'MEMORY.md codex/v1-memory-md',
        'memory_summary.md codex/summary-first-line',
        'skills/link.md codex/no-symlinks',
      ]),
    );
  });

  it('v2: refuses a missing heading and a summary of 10,000 bytes or more', async () => {
    const { root } = await generatedHome('v2', false);
    await writeFile(join(root, 'memory_summary.md'), V2_GOOD.replace('## General Tips\n', '## Tips\n'));
    expect(rules(await validateStaged(root, 'v2'))).toEqual(['memory_summary.md codex/v2-headings']);
    await writeFile(join(root, 'memory_summary.md'), V2_GOOD + '- x\n'.repeat(2500));
    expect(rules(await validateStaged(root, 'v2'))).toEqual(['memory_summary.md codex/v2-size']);
    await writeFile(join(root, 'memory_summary.md'), V2_GOOD);
    expect((await validateStaged(root, 'v2')).ok).toBe(true);
  });

  it('refuses a secret in the result and a dangling pointer, as errors', async () => {
    const { root } = await generatedHome('v1', false);
    const memory = await readFile(join(root, 'MEMORY.md'), 'utf8');
    await writeFile(join(root, 'MEMORY.md'), `${memory}\n- token: sk-abcdefghijklmnopqrstuvwxyz0123456789\n`);
    let v = await validateStaged(root, 'v1');
    expect(v.ok).toBe(false);
    expect(rules(v)).toEqual(['MEMORY.md secrets/openai-key']);
    await writeFile(join(root, 'MEMORY.md'), memory);
    const [first] = (await readdir(join(root, 'rollout_summaries'))).sort();
    await rm(join(root, 'rollout_summaries', first as string));
    v = await validateStaged(root, 'v1');
    expect(v.ok).toBe(false);
    expect(rules(v)).toContain('MEMORY.md template/pointer-target');
  });
});

describe('validateResultFiles', () => {
  it('judges the summary and MEMORY.md that would land, for v1 and v2', () => {
    expect(validateResultFiles(new Map([['memory_summary.md', 'v1\n\n## User Profile\n']]), 'v1').ok).toBe(true);
    expect(rules(validateResultFiles(new Map([['memory_summary.md', '\nv1\n']]), 'v1'))).toEqual([
      'memory_summary.md codex/summary-first-line',
    ]);
    expect(rules(validateResultFiles(new Map([['memory_summary.md', null]]), 'v1'))).toEqual([
      'memory_summary.md codex/summary-first-line',
    ]);
    expect(rules(validateResultFiles(new Map([['MEMORY.md', null]]), 'v1'))).toEqual(['MEMORY.md codex/v1-memory-md']);
    expect(validateResultFiles(new Map([['MEMORY.md', null]]), 'v2').ok).toBe(true);
    expect(validateResultFiles(new Map([['memory_summary.md', V2_GOOD]]), 'v2').ok).toBe(true);
    expect(rules(validateResultFiles(new Map([['memory_summary.md', 'v1\n## User Profile\n']]), 'v2'))).toEqual(
      Array(3).fill('memory_summary.md codex/v2-headings'),
    );
  });

  it('checks pointers against the given rollout summaries, and refuses a secret', () => {
    const pointer = '- rollout_summaries/2026-03-01T10-00-00-Ab12-fix.md — fixed it; thread_id=0199aaaa-0000-7000-8000-000000000001\n';
    const files = new Map([['memory_summary.md', V2_GOOD + pointer]]);
    expect(validateResultFiles(files, 'v2').ok).toBe(true);
    const missing = validateResultFiles(files, 'v2', { rolloutSummaries: new Set() });
    expect(rules(missing)).toEqual(['memory_summary.md template/pointer-target']);
    expect(validateResultFiles(files, 'v2', { rolloutSummaries: new Set(['2026-03-01T10-00-00-Ab12-fix.md']) }).ok).toBe(true);
    const leaked = new Map([['memory_summary.md', V2_GOOD + pointer + 'api_key = "sk-abcdefghijklmnopqrstuvwxyz0123456789"\n']]);
    expect(rules(validateResultFiles(leaked, 'v2')).filter((r) => r.startsWith('memory_summary.md secrets/')).length).toBeGreaterThan(0);
  });
});
