// Tests the builtin consolidation engine on generated homes: Codex's validators, pointers, budget, determinism, idempotence, golden files.
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MemoryVersion } from '../../../shared/domain';
import { computeBudget } from '../../../electron/core/budget';
import { builtinEngine, buildConsolidation, readStagedInputs } from '../../../electron/core/consolidate/engines/builtin';
import { parseMemoryFile } from '../../../electron/core/formats';
import { diffAgainstBaseline, renderWorkspaceDiffFile } from '../../../electron/core/consolidate/workspace-diff';
import { computeHunks } from '../../../electron/core/review/hunks';
import { checkSummaryFirstLine, checkV2Headings, checkV2Size } from '../../../electron/core/lint';
import { generateHome, type DemoScale } from '../../fixtures';
import { addAndDropOne, changedLines, entryOf } from './summary-fixture';
import { withTempDir } from '../helpers';

const NOW = new Date('2026-03-05T12:00:00Z');
const SEED = 7;
const GOLDEN = join(import.meta.dirname, 'golden');
const ROOT_DIR: Record<MemoryVersion, string> = { v1: 'memories', v2: 'memories_v2' };

/** A staging copy of a generated root, without `.git` (what the run's stage step hands an engine). */
async function stage(codexHome: string, version: MemoryVersion, dest: string): Promise<string> {
  const target = join(dest, `staging-${version}`);
  await cp(join(codexHome, ROOT_DIR[version]), target, { recursive: true, filter: (src) => !/[\\/]\.git(?:[\\/]|$)/.test(src) });
  return target;
}

async function run(staging: string, version: MemoryVersion): Promise<Map<string, string>> {
  return buildConsolidation(await readStagedInputs(staging, version), version).files;
}

const POINTER = /(?:rollout_summaries|extensions|skills)\/[^\s()`'",;[\]<>]+?\.md\b/g;

/** Everything the outputs point at must exist in staging. */
function unresolved(staging: string, files: Map<string, string>): string[] {
  const refs = new Set([...files.values()].flatMap((t) => [...t.matchAll(POINTER)].map((m) => m[0])));
  return [...refs].filter((r) => !existsSync(join(staging, r)));
}

async function checkOutputs(staging: string, version: MemoryVersion, files: Map<string, string>, strict = true): Promise<void> {
  const summary = files.get('memory_summary.md') as string;
  expect(summary).toBeDefined();
  expect(checkSummaryFirstLine(summary)).toEqual([]);
  expect(checkV2Headings(summary)).toEqual([]);
  if (version === 'v2') expect(checkV2Size(summary)).toEqual([]);
  expect(computeBudget(summary, { version }).truncated).toBe(false);
  const parsed = parseMemoryFile(summary, { path: 'memory_summary.md', version });
  expect(parsed.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  expect(unresolved(staging, files)).toEqual([]);
  if (version === 'v2') {
    expect([...files.keys()]).toEqual(['memory_summary.md']);
    return;
  }
  const memory = files.get('MEMORY.md') as string;
  const parsedMemory = parseMemoryFile(memory, { path: 'MEMORY.md', version });
  expect(parsedMemory.diagnostics.filter((d) => d.severity === 'error' || (strict && d.severity === 'warning'))).toEqual([]);
  const rollouts = (await readStagedInputs(staging, version)).rollouts.map((r) => r.file);
  const referenced = new Set([...memory.matchAll(/^- rollout_summaries\/(\S+\.md) \(/gm)].map((m) => m[1]));
  expect(rollouts.filter((f) => !referenced.has(f))).toEqual([]);
}

async function writeOutputs(staging: string, files: Map<string, string>): Promise<void> {
  for (const [rel, text] of files) await writeFile(join(staging, rel), text, 'utf8');
}

/** Validates, then checks determinism and idempotence; returns the first run's files. */
async function fullCheck(staging: string, version: MemoryVersion, strict = true): Promise<Map<string, string>> {
  const first = await run(staging, version);
  await checkOutputs(staging, version, first, strict);
  expect(await run(staging, version)).toEqual(first);
  await writeOutputs(staging, first);
  const second = await run(staging, version);
  expect(second).toEqual(first);
  await writeOutputs(staging, second);
  expect(await run(staging, version)).toEqual(first);
  return first;
}

async function generated(dir: string, scale: DemoScale, seed = SEED, git = false): Promise<string> {
  const manifest = await generateHome({ dir: join(dir, 'home'), scale, version: 'both', seed, now: NOW, git });
  return manifest.codexHome;
}

/** `phase2_workspace_diff.md` in staging as the run writes it: staging against the live root's git baseline. */
async function writeWorkspaceDiff(staging: string, liveRoot: string): Promise<void> {
  await writeFile(join(staging, 'phase2_workspace_diff.md'), renderWorkspaceDiffFile(await diffAgainstBaseline(staging, liveRoot)), 'utf8');
}

const PROJECTS = [
  '/home/u/src/api',
  '/home/u/work/api',
  '/home/u/src/web',
  '/home/u/src/infra',
  '/home/u/src/mobile',
  '/home/u/src/docs',
  '/home/u/src/data',
  '/home/u/src/ops',
];

/** A rollout summary file as Codex writes it; v1 with a title and task sections, v2 free-form. */
function rolloutFile(i: number, version: MemoryVersion, day: number): { name: string; text: string } {
  const hour = String(i % 24).padStart(2, '0');
  const date = `2026-02-${String(day).padStart(2, '0')}`;
  const id = `019c0000-0000-7000-8000-${i.toString(16).padStart(12, '0')}`;
  const cwd = PROJECTS[i % PROJECTS.length] as string;
  const header = [
    `thread_id: ${id}`,
    i === 5 ? 'updated_at: not a date' : `updated_at: ${date}T${hour}:10:00+00:00`,
    `rollout_path: /home/u/.codex/sessions/r-${i}.jsonl`,
    `cwd: ${cwd}`,
  ];
  if (i % 3 === 0) header.push(`git_branch: feature/topic-${i % 9}`);
  const body =
    version === 'v1'
      ? [
          `# Worked on topic ${i % 13} of ${cwd} and wrote a fairly long sentence about what changed in session ${i}.`,
          '',
          `## Task 1: improve topic ${i % 13} (#${i})`,
          'Outcome: success',
          '',
          'Preference signals:',
          `- the user prefers style ${i % 7} for this kind of change`,
          '',
          'Reusable knowledge:',
          `- fact ${i % 11}: run the checker ${i % 11} before committing`,
          '',
          'Failures and how to do differently:',
          `- attempt ${i} failed first; retry with the flag`,
        ]
      : [
          `Worked on topic ${i % 13} of ${cwd}; session ${i} changed several files and verified them.`,
          '',
          'More free-form history follows here.',
        ];
  return {
    name: `${date}T${hour}-10-00-${i.toString(36).padStart(4, '0')}-topic_${i % 13}.md`,
    text: `${header.join('\n')}\n\n${body.join('\n')}\n`,
  };
}

/** A synthetic "medium" staging folder: `n` rollouts over 28 days and 8 projects (two share a folder name). */
async function syntheticStaging(dir: string, version: MemoryVersion, n: number): Promise<string> {
  const staging = join(dir, `synthetic-${version}-${n}`);
  await mkdir(join(staging, 'rollout_summaries'), { recursive: true });
  for (let i = 0; i < n; i++) {
    const { name, text } = rolloutFile(i, version, 1 + (Math.floor(i / PROJECTS.length) % 28));
    await writeFile(join(staging, 'rollout_summaries', name), text, 'utf8');
  }
  await mkdir(join(staging, 'extensions/team/resources'), { recursive: true });
  await writeFile(join(staging, 'extensions/team/instructions.md'), '# Team digests\n', 'utf8');
  await writeFile(join(staging, 'extensions/team/resources/2026-02-01T10-00-00-digest.md'), '# Digest\n', 'utf8');
  await mkdir(join(staging, 'extensions/external_agent_import/resources/_custom'), { recursive: true });
  await writeFile(
    join(staging, 'extensions/external_agent_import/resources/_custom/notes.md'),
    '---\nname: Custom notes\n---\nbody\n',
    'utf8',
  );
  await mkdir(join(staging, 'extensions/ad_hoc/notes'), { recursive: true });
  await writeFile(
    join(staging, 'extensions/ad_hoc/notes/2026-02-10T08-00-00-remember-ports.md'),
    '# Remember\r\n\r\nThe api listens on port 8080.\r\n',
    'utf8',
  );
  await writeFile(join(staging, 'extensions/ad_hoc/notes/2026-02-11T08-00-00-empty.md'), '\n', 'utf8');
  await writeFile(join(staging, 'rollout_summaries/not-a-summary.md'), '# Stray file\n', 'utf8');
  return staging;
}

describe('builtin consolidation engine', () => {
  for (const version of ['v1', 'v2'] as const) {
    it(`compacts a synthetic medium staging folder (${version}) to fit, with full-cwd scopes for clashing folder names`, async () => {
      await withTempDir(async (dir) => {
        const staging = await syntheticStaging(dir, version, 400);
        if (version === 'v1') {
          const manual =
            '# Task Group: team conventions\n\nscope: agreed conventions\napplies_to: cwd=/home/u/src/api; reuse_rule=always\n\n## Task 1: agreed conventions, success\n\n### keywords\n\n- conventions\n';
          await writeFile(join(staging, 'MEMORY.md'), manual, 'utf8');
        }
        const { report } = buildConsolidation(await readStagedInputs(staging, version), version);
        const files = await fullCheck(staging, version, false);
        // No summary yet: rebuilt from the inputs and compacted to fit; the next run merges into it and changes nothing.
        expect(report.summary.mode).toBe('rebuilt');
        expect(report.compactionLevel).toBeGreaterThan(0);
        expect(report.rollouts).toBe(400);
        expect(report.warnings).toEqual(['rollout_summaries/not-a-summary.md has no "thread_id:" header; it was left out.']);
        const again = buildConsolidation(await readStagedInputs(staging, version), version).report;
        expect(again.summary).toMatchObject({ mode: 'merged', added: 0, removed: 0, trimmed: 0 });
        expect(again.summary.kept).toBe(again.recentEntries + again.olderEntries);
        const summary = files.get('memory_summary.md') as string;
        expect(summary).toContain('### /home/u/src/api');
        expect(summary).toContain('### /home/u/work/api');
        expect(summary).toContain('The api listens on port 8080. [ad-hoc note]');
        expect(summary).toContain(
          'extensions/external_agent_import/resources/_custom/notes.md (cwd=unknown, source=external_agent_import)',
        );
        if (version === 'v1') {
          const memory = files.get('MEMORY.md') as string;
          expect(memory).toContain('# Task Group: team conventions');
          expect(memory).toContain('- extensions/team/resources/2026-02-01T10-00-00-digest.md (source=team)');
          expect(memory.split('# Task Group: team conventions').length).toBe(2);
        }
      });
    });
  }

  it('rebuilds valid, deterministic, idempotent files for a small home (both versions) and matches the golden files', async () => {
    await withTempDir(async (dir) => {
      const home = await generated(dir, 'small');
      for (const version of ['v1', 'v2'] as const) {
        const staging = await stage(home, version, dir);
        const files = await fullCheck(staging, version);
        for (const [rel, text] of files) {
          // rollout_path values hold the temp home's absolute path: neutralise it for the golden comparison.
          const stable = text.split(home).join('<CODEX_HOME>');
          const golden = join(GOLDEN, `${version}-${rel}`);
          if (process.env.UPDATE_GOLDEN === '1') {
            await mkdir(GOLDEN, { recursive: true });
            await writeFile(golden, stable, 'utf8');
          }
          expect(stable).toBe(await readFile(golden, 'utf8'));
        }
      }
    });
  });

  it('produces the same golden output from a second generation with the same seed and now', async () => {
    await withTempDir(async (dir) => {
      const home = await generated(dir, 'small');
      const staging = await stage(home, 'v2', dir);
      const files = await run(staging, 'v2');
      expect(files.get('memory_summary.md')).toBe(await readFile(join(GOLDEN, 'v2-memory_summary.md'), 'utf8'));
    });
  });

  it("keeps hand edits to the summary byte for byte and folds a new note in once (Codex's workspace diff says what is new)", async () => {
    await withTempDir(async (dir) => {
      const home = await generated(dir, 'small', 11, true);
      const staging = await stage(home, 'v1', dir);
      const before = await readFile(join(staging, 'memory_summary.md'), 'utf8');
      const edited = before
        .replace('## User Profile\n\n', '## User Profile\n\nHand-written profile line that must survive.\n')
        .replace('## User preferences\n\n', '## User preferences\n\n- prefers tabs over spaces in Makefiles\n')
        .replace('## General Tips\n\n', '## General Tips\n\n- `make -n` shows what would run\n')
        .replace("## What's in Memory", "## Scratch\n\nscribbles\n\n## What's in Memory");
      await writeFile(join(staging, 'memory_summary.md'), edited, 'utf8');
      const notes = join(staging, 'extensions/ad_hoc/notes');
      await writeFile(join(notes, '2026-03-04T10-00-00-remember-tabs.md'), '# Remember\n\nUse tabs in Makefiles.\n', 'utf8');
      await writeWorkspaceDiff(staging, join(home, 'memories'));
      const { report } = buildConsolidation(await readStagedInputs(staging, 'v1'), 'v1');
      expect(report).toMatchObject({ keptProfile: true, keptPreferences: 1, keptTips: 1, warnings: [] });
      expect(report.summary).toMatchObject({ mode: 'merged', added: 0, removed: 0, trimmed: 0 });
      const files = await fullCheck(staging, 'v1');
      const summary = files.get('memory_summary.md') as string;
      // The only change: the new note's line, after the last preference line. The hand edits (the profile line, the
      // preference, the tip, a section the template does not know) and the notes' hand-worded lines stay as written.
      const hunks = computeHunks(edited, summary);
      expect(hunks.map((h) => h.lines.filter((l) => /^[-+]/.test(l)))).toEqual([['+- Remember: Use tabs in Makefiles. [ad-hoc note]']]);
      expect(summary).toContain('## Scratch\n\nscribbles\n');
      expect(files.get('MEMORY.md')).toContain('extensions/ad_hoc/notes/2026-03-04T10-00-00-remember-tabs.md');
    });
  });

  it('cuts an over-long profile to 350 words and caps hand-written bullets, idempotently', async () => {
    await withTempDir(async (dir) => {
      const staging = await syntheticStaging(dir, 'v2', 40);
      const profile = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ');
      const prefs = Array.from(
        { length: 30 },
        (_, i) => `- hand-written preference number ${i} with some extra words to take up space`,
      ).join('\n');
      const old = ['v1', '## User Profile', profile, '## User preferences', prefs, '## General Tips', "## What's in Memory", ''].join('\n');
      await writeFile(join(staging, 'memory_summary.md'), old, 'utf8');
      const { report } = buildConsolidation(await readStagedInputs(staging, 'v2'), 'v2');
      expect(report.warnings).toContain("The User Profile was cut to the template's 350 words.");
      const files = await fullCheck(staging, 'v2', false);
      const summary = files.get('memory_summary.md') as string;
      expect(summary).toContain('word349 …');
      expect(summary).not.toContain('word350');
      const kept = summary.split('\n').filter((l) => l.startsWith('- hand-written preference number '));
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThanOrEqual(12);
      expect(kept[0]).toContain('number 0 ');
    });
  });

  it('routes imported Claude Code memory under Older Memory Topics and extension_resource_files; an import line already there stays', async () => {
    await withTempDir(async (dir) => {
      const home = await generated(dir, 'small');
      const staging = await stage(home, 'v1', dir);
      const existing = await readFile(join(staging, 'memory_summary.md'), 'utf8');
      const kept = (await run(staging, 'v1')).get('memory_summary.md') as string;
      expect(kept).toContain('#### webapp (imported from Claude Code)\n\n- imported project conventions: ');
      // Without that group, the merge adds the import where the rebuild puts it: last under the older topics.
      const group = /#### webapp \(imported from Claude Code\)\n[\s\S]*?(?=\n#|$)/.exec(existing)?.[0] as string;
      await writeFile(join(staging, 'memory_summary.md'), existing.replace(group, ''), 'utf8');
      const files = await run(staging, 'v1');
      const summary = files.get('memory_summary.md') as string;
      const older = summary.slice(summary.indexOf('### Older Memory Topics'));
      expect(older).toContain(
        'extensions/external_agent_import/resources/-home-dana-src-webapp/MEMORY.md (cwd=/home/dana/src/webapp, source=external_agent_import)',
      );
      const memory = files.get('MEMORY.md') as string;
      expect(memory).toContain('### extension_resource_files');
      expect(memory).toContain(
        '- extensions/external_agent_import/resources/-home-dana-src-webapp/feedback_testing.md (cwd=/home/dana/src/webapp, source=external_agent_import)',
      );
    });
  });

  it('works on an empty staging folder and through the Engine interface', async () => {
    await withTempDir(async (dir) => {
      const staging = join(dir, 'empty');
      await mkdir(join(staging, 'rollout_summaries'), { recursive: true });
      for (const version of ['v1', 'v2'] as const) await checkOutputs(staging, version, await run(staging, version));
      const result = await builtinEngine({
        version: 'v1',
        stagingRoot: staging,
        settings: {} as never,
        instructions: '',
        signal: new AbortController().signal,
        progress: () => undefined,
        log: () => undefined,
        env: {},
      });
      expect(result).toMatchObject({ engine: 'builtin', model: null, wrote: ['MEMORY.md', 'memory_summary.md'] });
      expect((await readFile(join(staging, 'memory_summary.md'), 'utf8')).startsWith('v1\n')).toBe(true);
    });
  });

  it(
    'on a heavy home (4,096 rollout summaries per root) changes only what changed: MEMORY.md keeps 90% of its lines in at most 400 hunks, the summary only loses what the budget needs',
    { timeout: 600_000 },
    async () => {
      await withTempDir(async (dir) => {
        const home = await generated(dir, 'heavy', SEED, true);
        for (const version of ['v1', 'v2'] as const) {
          const staging = await stage(home, version, dir);
          await writeWorkspaceDiff(staging, join(home, ROOT_DIR[version]));
          const before = version === 'v1' ? await readFile(join(staging, 'MEMORY.md'), 'utf8') : null;
          const summaryBefore = await readFile(join(staging, 'memory_summary.md'), 'utf8');
          const files = await run(staging, version);
          await checkOutputs(staging, version, files);
          if (before !== null) {
            const hunks = computeHunks(before, files.get('MEMORY.md') as string);
            const removed = hunks.reduce((n, h) => n + h.removed, 0);
            expect(removed / before.split('\n').length).toBeLessThanOrEqual(0.1);
            expect(hunks.length).toBeLessThanOrEqual(400);
          }
          // Nothing changed since Codex's baseline, but the demo's v1 summary is over Codex's budget: whole entries go,
          // oldest first; no line is added or reworded.
          const summary = files.get('memory_summary.md') as string;
          expect(changedLines(summaryBefore, summary).added).toEqual([]);
          if (version === 'v2') expect(summary).toBe(summaryBefore);
          await writeOutputs(staging, files);
          expect(await run(staging, version)).toEqual(files);
          // One thread added and one dropped (as Codex's workspace diff lists them): only their two entries change.
          const { added, dropped } = await addAndDropOne(staging, summary);
          await writeWorkspaceDiff(staging, join(home, ROOT_DIR[version]));
          const after = (await run(staging, version)).get('memory_summary.md') as string;
          const changed = changedLines(summary, after);
          expect(changed.added.length * changed.removed.length).toBeGreaterThan(0);
          expect(changed.removed).toEqual(entryOf(summary, dropped));
          expect(changed.added).toEqual(entryOf(after, added));
          expect(changed.headings.every((h) => /^#### \d{4}-\d{2}-\d{2}$/.test(h))).toBe(true);
        }
      });
    },
  );

  it('a home where one input changed gets a MEMORY.md diff limited to that input’s block', async () => {
    await withTempDir(async (dir) => {
      const home = await generated(dir, 'small');
      const staging = await stage(home, 'v1', dir);
      await writeOutputs(staging, await run(staging, 'v1'));
      const before = await readFile(join(staging, 'MEMORY.md'), 'utf8');
      const dropped = (await readdir(join(staging, 'rollout_summaries'))).sort()[0] as string;
      await rm(join(staging, 'rollout_summaries', dropped));
      const after = (await run(staging, 'v1')).get('MEMORY.md') as string;
      const hunks = computeHunks(before, after);
      expect(hunks.length).toBeGreaterThan(0);
      const blockOf = (line: number) =>
        before
          .split('\n')
          .slice(0, line)
          .filter((l) => l.startsWith('# Task Group: '))
          .pop();
      const owner = before.split('\n').findIndex((l) => l.includes(`rollout_summaries/${dropped}`));
      // Each hunk's first changed line (its context lines may reach into the block above) lies in the dropped input's block.
      const firstChange = (h: (typeof hunks)[number]) => h.oldStart + h.lines.findIndex((l) => l.startsWith('-') || l.startsWith('+'));
      for (const h of hunks) expect(blockOf(firstChange(h))).toBe(blockOf(owner + 1));
      expect(after).not.toContain(dropped);
    });
  });
});
