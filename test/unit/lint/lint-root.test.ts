// lintRoot on real generated homes: each Codex validator passes on the clean home and fails once the home is broken.
import { appendFile, mkdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyTextEdits } from '../../../electron/core/formats/lines';
import { lintRoot, type ExtraLintRule } from '../../../electron/core/lint';
import { LintReportSchema, type LintDiagnostic, type LintReport } from '../../../shared/lint';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

const NOW = new Date('2026-03-05T12:00:00Z');
let tmp: { dir: string; cleanup: () => Promise<void> };
let seq = 0;

/** A fresh small home (v1 and v2 roots, no git) per test, so each mutation starts from a clean workspace. */
async function freshHome(): Promise<{ v1: string; v2: string }> {
  const dir = join(tmp.dir, `home-${seq++}`);
  await generateHome({ dir, scale: 'small', version: 'both', now: NOW, git: false });
  return { v1: join(dir, 'memories'), v2: join(dir, 'memories_v2') };
}

function diagnostics(report: LintReport, path: string, rule?: string): LintDiagnostic[] {
  const all = report.files.find((f) => f.path === path)?.diagnostics ?? [];
  return rule ? all.filter((d) => d.rule === rule) : all;
}

async function lint(root: string, version: 'v1' | 'v2'): Promise<LintReport> {
  return LintReportSchema.parse(await lintRoot(root, version, { now: NOW }));
}

/** Applies every fix of `rule` on `path` (with the parsers' own edit applier) and re-lints. */
async function applyFixes(root: string, version: 'v1' | 'v2', report: LintReport, path: string, rule: string): Promise<LintReport> {
  const edits = diagnostics(report, path, rule).flatMap((d) => d.fix?.edits ?? []);
  expect(edits.length).toBeGreaterThan(0);
  const file = join(root, path);
  await writeFile(file, applyTextEdits(await readFile(file, 'utf8'), edits));
  return lint(root, version);
}

beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.cleanup());

describe('a clean generated home', () => {
  it('has no diagnostics in either root', async () => {
    const home = await freshHome();
    for (const [root, version] of [
      [home.v1, 'v1'],
      [home.v2, 'v2'],
    ] as const) {
      const report = await lint(root, version);
      expect(report.files, JSON.stringify(report.files, null, 1)).toEqual([]);
      expect(report.counts).toEqual({ error: 0, warning: 0, info: 0 });
      expect(report.scannedFiles).toBeGreaterThan(5);
    }
  });
});

describe('codex/summary-first-line', () => {
  let home: { v1: string; v2: string };
  beforeEach(async () => {
    home = await freshHome();
  });
  const summary = () => join(home.v1, 'memory_summary.md');

  it('fails on "V1 " and its fix makes it exactly v1', async () => {
    const text = await readFile(summary(), 'utf8');
    await writeFile(summary(), text.replace(/^v1\n/, 'V1 \n'));
    const report = await lint(home.v1, 'v1');
    expect(diagnostics(report, 'memory_summary.md', 'codex/summary-first-line')).toMatchObject([{ severity: 'error', line: 1 }]);
    expect(report.counts.error).toBe(1);
    const fixed = await applyFixes(home.v1, 'v1', report, 'memory_summary.md', 'codex/summary-first-line');
    expect(fixed.files).toEqual([]);
    expect(await readFile(summary(), 'utf8')).toBe(text);
  });

  it('fails when blank lines come first, and when v1 is absent; both fixes pass', async () => {
    const text = await readFile(summary(), 'utf8');
    await writeFile(summary(), `\n\n${text}`);
    let report = await lint(home.v1, 'v1');
    expect((await applyFixes(home.v1, 'v1', report, 'memory_summary.md', 'codex/summary-first-line')).files).toEqual([]);
    await writeFile(summary(), text.replace(/^v1\n/, ''));
    report = await lint(home.v1, 'v1');
    expect(diagnostics(report, 'memory_summary.md')[0]?.fix?.description).toMatch(/Insert/);
    expect((await applyFixes(home.v1, 'v1', report, 'memory_summary.md', 'codex/summary-first-line')).files).toEqual([]);
  });

  it('fails without a fix for a BOM, and for a missing summary (v2 too)', async () => {
    const text = await readFile(summary(), 'utf8');
    await writeFile(summary(), `\uFEFF${text}`);
    const [bom] = diagnostics(await lint(home.v1, 'v1'), 'memory_summary.md', 'codex/summary-first-line');
    expect(bom?.message).toMatch(/byte-order mark/);
    expect(bom?.fix).toBeUndefined();
    await unlink(join(home.v2, 'memory_summary.md'));
    const [missing] = diagnostics(await lint(home.v2, 'v2'), 'memory_summary.md', 'codex/summary-first-line');
    expect(missing).toMatchObject({ severity: 'error', message: expect.stringMatching(/missing/) });
  });

  it('accepts CRLF line ends, as Rust lines() does', async () => {
    const text = await readFile(summary(), 'utf8');
    await writeFile(summary(), text.replace(/\n/g, '\r\n'));
    expect(diagnostics(await lint(home.v1, 'v1'), 'memory_summary.md')).toEqual([]);
  });
});

describe('codex/v1-memory-md', () => {
  it('passes with a regular MEMORY.md, fails when missing, a folder or a symlink', async () => {
    const home = await freshHome();
    const memory = join(home.v1, 'MEMORY.md');
    expect(diagnostics(await lint(home.v1, 'v1'), 'MEMORY.md')).toEqual([]);
    const text = await readFile(memory, 'utf8');
    await unlink(memory);
    expect(diagnostics(await lint(home.v1, 'v1'), 'MEMORY.md', 'codex/v1-memory-md')).toMatchObject([
      { severity: 'error', message: expect.stringMatching(/missing/) },
    ]);
    expect(diagnostics(await lint(home.v2, 'v2'), 'MEMORY.md')).toEqual([]); // v2 never needs it
    await mkdir(memory);
    expect(diagnostics(await lint(home.v1, 'v1'), 'MEMORY.md', 'codex/v1-memory-md')[0]?.message).toMatch(/not a regular file/);
    await rm(memory, { recursive: true });
    await writeFile(join(home.v1, 'elsewhere.md'), text);
    await symlink(join(home.v1, 'elsewhere.md'), memory);
    const report = await lint(home.v1, 'v1');
    expect(
      diagnostics(report, 'MEMORY.md')
        .map((d) => d.rule)
        .sort(),
    ).toEqual(['codex/no-symlinks', 'codex/v1-memory-md']);
  });
});

describe('codex/v2-headings', () => {
  it('fails on a misspelt and on a missing heading; the fixes restore them in order', async () => {
    const home = await freshHome();
    const path = join(home.v2, 'memory_summary.md');
    const text = await readFile(path, 'utf8');
    expect(text).toContain('## General Tips\n');
    await writeFile(path, text.replace('## General Tips\n', '### general tips:\n').replace('## User preferences\n', ''));
    const report = await lint(home.v2, 'v2');
    const found = diagnostics(report, 'memory_summary.md', 'codex/v2-headings');
    expect(found.map((d) => d.fix?.description)).toEqual([
      expect.stringMatching(/^Insert "## User preferences" before line \d+$/),
      expect.stringMatching(/^Rewrite line \d+ as "## General Tips"$/),
    ]);
    const fixed = await applyFixes(home.v2, 'v2', report, 'memory_summary.md', 'codex/v2-headings');
    expect(fixed.files).toEqual([]);
    const after = await readFile(path, 'utf8');
    expect(after.indexOf('## User preferences')).toBeLessThan(after.indexOf('## General Tips'));
  });

  it('accepts headings with surrounding white space (line.trim() == heading)', async () => {
    const home = await freshHome();
    const path = join(home.v2, 'memory_summary.md');
    await writeFile(path, (await readFile(path, 'utf8')).replace('## General Tips\n', '  ## General Tips\t\n'));
    expect((await lint(home.v2, 'v2')).files).toEqual([]);
  });

  it('appends a heading that has no later heading to go before', async () => {
    const home = await freshHome();
    const path = join(home.v2, 'memory_summary.md');
    await writeFile(path, "v1\n## User Profile\nx\n## User preferences\n## General Tips\n## What's in\n");
    const report = await lint(home.v2, 'v2');
    expect(diagnostics(report, 'memory_summary.md', 'codex/v2-headings')[0]?.fix?.description).toBe('Append "## What\'s in Memory"');
    expect((await applyFixes(home.v2, 'v2', report, 'memory_summary.md', 'codex/v2-headings')).files).toEqual([]);
  });
});

describe('codex/v2-size', () => {
  it('passes at 9,999 bytes and fails at 10,000', async () => {
    const home = await freshHome();
    const path = join(home.v2, 'memory_summary.md');
    const text = await readFile(path, 'utf8');
    const pad = (n: number) => `${text}${'x'.repeat(n - Buffer.byteLength(text) - 1)}\n`;
    await writeFile(path, pad(9_999));
    expect(diagnostics(await lint(home.v2, 'v2'), 'memory_summary.md')).toEqual([]);
    await writeFile(path, pad(10_000));
    const [d] = diagnostics(await lint(home.v2, 'v2'), 'memory_summary.md', 'codex/v2-size');
    expect(d).toMatchObject({ severity: 'error', message: expect.stringMatching(/10,000 bytes.*fewer than 10,000.*at least 1 bytes/) });
    expect(d?.line).toBe(text.split('\n').length); // the padding line, where byte 10,000 falls
    expect(diagnostics(await lint(home.v1, 'v1'), 'memory_summary.md')).toEqual([]); // v1 has no size rule
  });
});

describe('codex/no-symlinks', () => {
  it('flags symlinks anywhere in the root, including .git, and a symlinked root', async () => {
    const home = await freshHome();
    expect(diagnostics(await lint(home.v1, 'v1'), 'rollout_summaries/link.md')).toEqual([]);
    await symlink('/etc/hostname', join(home.v1, 'rollout_summaries/link.md'));
    await mkdir(join(home.v1, '.git/refs'), { recursive: true });
    await symlink('../HEAD', join(home.v1, '.git/refs/odd'));
    const report = await lint(home.v1, 'v1');
    expect(diagnostics(report, 'rollout_summaries/link.md', 'codex/no-symlinks')).toHaveLength(1);
    expect(diagnostics(report, '.git/refs/odd', 'codex/no-symlinks')).toHaveLength(1);
    const linked = join(tmp.dir, `linked-root-${seq++}`);
    await symlink(home.v1, linked);
    expect((await lint(linked, 'v1')).files).toMatchObject([
      { path: '.', diagnostics: [{ rule: 'codex/no-symlinks', severity: 'error' }] },
    ]);
  });

  it('explains an emptied root (codex debug clear-memories) with one note instead of missing-file errors', async () => {
    for (const version of ['v1', 'v2'] as const) {
      const empty = join(tmp.dir, `cleared-${version}`);
      await mkdir(empty);
      const report = await lint(empty, version);
      expect(report.counts).toEqual({ error: 0, warning: 0, info: 1 });
      expect(report.files).toMatchObject([{ path: 'memory_summary.md', diagnostics: [{ rule: 'codex/empty-root', severity: 'info' }] }]);
      // One file is enough for the ordinary checks again: a root with files but no summary is broken.
      await mkdir(join(empty, 'rollout_summaries'));
      await writeFile(join(empty, 'rollout_summaries', 'a.md'), 'thread_id: x\n');
      const partial = await lint(empty, version);
      expect(partial.counts.error).toBeGreaterThan(0);
      expect(partial.files.flatMap((f) => f.diagnostics.map((d) => d.rule))).not.toContain('codex/empty-root');
    }
  });

  it('refuses a missing root', async () => {
    await expect(lintRoot(join(tmp.dir, 'nothing-here'), 'v1')).rejects.toMatchObject({ kind: 'NotFound' });
  });
});

describe('secrets/* across the root', () => {
  it('finds planted secrets in any Markdown file, never in .git or non-Markdown files', async () => {
    const home = await freshHome();
    const token = `ghp_${'aB3dE6gH9j'.repeat(4)}`;
    const note = 'extensions/ad_hoc/notes/2026-03-04T10-00-00-ci-token.md';
    await mkdir(join(home.v1, 'extensions/ad_hoc/notes'), { recursive: true });
    await writeFile(join(home.v1, note), `Remember the CI token:\n\n${token}\n`);
    await appendFile(join(home.v1, 'MEMORY.md'), `\n- deploy with password=${'hunter2'.repeat(2)}\n`);
    await writeFile(join(home.v1, '.git-not-really.txt'), token);
    await mkdir(join(home.v1, '.git'), { recursive: true });
    await writeFile(join(home.v1, '.git/notes.md'), token);
    const report = await lint(home.v1, 'v1');
    expect(diagnostics(report, note)).toMatchObject([{ rule: 'secrets/github-token', severity: 'error', line: 3, startColumn: 1 }]);
    expect(diagnostics(report, 'MEMORY.md')).toMatchObject([{ rule: 'secrets/secret-assignment', severity: 'warning' }]);
    expect(report.files.map((f) => f.path).sort()).toEqual(['MEMORY.md', note]);
    expect(report.counts).toEqual({ error: 1, warning: 1, info: 0 });
    expect(JSON.stringify(report)).not.toContain(token);
  });
});

describe('unreadable files', () => {
  it('warns for a Markdown file that is not UTF-8, and fails the summary check when it is the summary', async () => {
    const home = await freshHome();
    await writeFile(join(home.v2, 'rollout_summaries/broken.md'), Buffer.from([0x76, 0x31, 0x0a, 0xff, 0xfe]));
    await writeFile(join(home.v2, 'memory_summary.md'), Buffer.from([0x76, 0x31, 0x0a, 0xc3]));
    const report = await lint(home.v2, 'v2');
    expect(diagnostics(report, 'rollout_summaries/broken.md')).toMatchObject([
      { rule: 'lint/unreadable', severity: 'warning', message: expect.stringMatching(/not valid UTF-8/) },
    ]);
    expect(
      diagnostics(report, 'memory_summary.md')
        .map((d) => d.rule)
        .sort(),
    ).toEqual(['codex/summary-first-line', 'lint/unreadable']);
  });
});

describe('extraRules', () => {
  it('merges diagnostics from parser rules and survives a broken rule', async () => {
    const home = await freshHome();
    const seen: string[] = [];
    const rules: ExtraLintRule[] = [
      (file, ctx) => {
        seen.push(`${file.kind}:${ctx.version}:${ctx.maxUnusedDays}:${ctx.now.toISOString()}`);
        return file.kind === 'summary'
          ? [{ severity: 'info', rule: 'template/example', line: 2, endLine: 2, message: 'from a parser' }]
          : [];
      },
      (file) => {
        if (file.path === 'MEMORY.md') throw new Error('parser crashed');
        return [];
      },
    ];
    const report = LintReportSchema.parse(await lintRoot(home.v1, 'v1', { now: NOW, maxUnusedDays: 60, extraRules: rules }));
    expect(diagnostics(report, 'memory_summary.md')).toMatchObject([{ rule: 'template/example', severity: 'info' }]);
    expect(diagnostics(report, 'MEMORY.md')).toMatchObject([
      { rule: 'lint/rule-failed', message: expect.stringMatching(/parser crashed/) },
    ]);
    expect(report.counts).toEqual({ error: 0, warning: 1, info: 1 });
    expect(seen).toContain(`summary:v1:60:${NOW.toISOString()}`);
    expect(seen.length).toBe(report.scannedFiles);
  });
});

describe('the heavy generated home', () => {
  it('lints both roots with no findings', { timeout: 600_000 }, async () => {
    const dir = join(tmp.dir, 'heavy');
    await generateHome({ dir, scale: 'heavy', version: 'both', now: NOW, git: false });
    for (const [sub, version] of [
      ['memories', 'v1'],
      ['memories_v2', 'v2'],
    ] as const) {
      const started = performance.now();
      const report = await lint(join(dir, sub), version);
      const ms = Math.round(performance.now() - started);
      console.info(`lintRoot heavy ${version}: ${report.scannedFiles} Markdown files in ${ms} ms`);
      expect(report.files).toEqual([]);
      expect(report.scannedFiles).toBeGreaterThan(4_096);
    }
  });
});
