// Shared steps of the interop scenarios: a home real Codex consolidated, and what the next session is told.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ageCooldown, CodexHome, nowSec, type Version } from './codex';
import { injectedSummary, type FakeProvider } from './fake-provider';
import { phase2Command } from './phase2-scripts';
import type { BudgetJson, InspectJson, LintJson } from './report-types';
import { studio } from './studio';

/** Memory Studio's three read reports for a home, whole process each, as a user runs them. */
export async function studioReports(home: CodexHome): Promise<{ inspect: InspectJson; lint: LintJson; budget: BudgetJson }> {
  const args = ['--codex-home', home.codexHome];
  const [inspect, lint, budget] = await Promise.all([
    studio<InspectJson>(['inspect', ...args]),
    studio<LintJson>(['lint', ...args]),
    studio<BudgetJson>(['budget', ...args]),
  ]);
  expect(inspect.code, inspect.stderr).toBe(0);
  expect(budget.code, budget.stderr).toBe(0);
  return { inspect: inspect.json, lint: lint.json, budget: budget.json };
}

/** Starts a session and returns the memory summary Codex put in its first request (null: none injected). */
export async function nextSessionSummary(home: CodexHome): Promise<string | null> {
  const before = home.provider.of('ordinary').length;
  const result = await home.exec('what do you remember?');
  expect(result.code, result.stderr.slice(-2000)).toBe(0);
  const request = home.provider.of('ordinary')[before];
  expect(request, 'the session sent its first turn to the fake provider').toBeDefined();
  return injectedSummary(request!);
}

export interface ConsolidatedHome {
  home: CodexHome;
  /** A `codex exec` thread Codex must never extract (source `exec`), idle long enough otherwise. */
  execThread: string;
  /** The interactive thread phase 1 extracted and phase 2 consolidated. */
  extracted: string;
  /** What Memory Studio said before the run that extracted it. */
  before: InspectJson;
}

/**
 * A home real Codex made and consolidated: a first session (phase 2 runs once on the seeded ad-hoc instructions),
 * a second one, then the first left as an `exec` thread and the second turned interactive and idle, and a third
 * session in which phase 1 extracts exactly what Codex's rules allow and phase 2 consolidates it.
 * `initialVersion` lets a home start on one version and switch (both roots then exist).
 */
export async function consolidatedHome(
  provider: FakeProvider,
  version: Version | 'default',
  initialVersion: Version | 'default' = version,
): Promise<ConsolidatedHome> {
  const options = (v: Version | 'default') => (v === 'default' ? {} : { version: v });
  const effective = (v: Version | 'default'): Version => (v === 'default' ? 'v2' : v);
  const home = await CodexHome.create(provider, options(initialVersion));
  const command = async (v: Version) => phase2Command(home.base, { version: v, project: home.work });
  provider.hooks.phase2Command = () => null;
  const commands = { v1: await command('v1'), v2: await command('v2') };
  let active = effective(initialVersion);
  provider.hooks.phase2Command = () => commands[active];

  let since = nowSec();
  const first = await home.exec('first session', { holdUntil: home.phase2Finished(active, since) });
  expect(first.code, first.stderr.slice(-2000)).toBe(0);
  expect(home.globalJob(active)?.status).toBe('done');
  const second = await home.exec('second session');
  expect(second.code, second.stderr.slice(-2000)).toBe(0);
  if (initialVersion !== version) {
    await home.writeConfig(options(version));
    active = effective(version);
  }

  // First: a `codex exec` thread, idle for two hours. Second: an interactive session idle for two hours.
  home.setThread(first.threadId!, { idleSeconds: 7200 });
  home.makeEligible(second.threadId!);
  const before = (await studioReports(home)).inspect;

  if (home.globalJob(active)) ageCooldown(home, active);
  const phase1Before = provider.of('phase1').length;
  since = nowSec();
  const third = await home.exec('third session', { holdUntil: home.phase2Finished(active, since) });
  expect(third.code, third.stderr.slice(-2000)).toBe(0);
  expect(home.globalJob(active)).toMatchObject({ status: 'done', last_error: null });
  expect(provider.of('phase1').length - phase1Before, 'phase 1 extracted exactly one thread').toBe(1);
  return { home, execThread: first.threadId!, extracted: second.threadId!, before };
}

/** Writes a summary far over the 2,500-token budget by hand, as a person editing the file would. */
export async function writeOversizedSummary(home: CodexHome, version: Version): Promise<string> {
  const lines = ['v1', '', '## User Profile', '', 'Engineer testing how Codex truncates a long summary.', '', '## User preferences', ''];
  for (let i = 1; i <= 700; i++) lines.push(`- preference ${i}: keep every interop home temporary and every pointer exact (line ${i})`);
  lines.push(
    '',
    '## General Tips',
    '',
    '- the middle of an oversized summary is cut, the head and the tail stay',
    '',
    "## What's in Memory",
    '',
    '### interop',
    '',
    '- nothing else',
    '',
  );
  const text = lines.join('\n');
  await writeFile(join(home.memoryRoots[version], 'memory_summary.md'), text);
  return text;
}

/**
 * Checks Memory Studio's reports against what real Codex did and does: the version it uses, every file of its
 * layout classified, phase-1 eligibility equal to what Codex claimed, and the injected summary byte for byte
 * (also for a summary over the budget, which Codex truncates).
 */
export async function checkHomeAgainstCodex(made: ConsolidatedHome, version: Version, versionSource: 'config' | 'default'): Promise<void> {
  const { home, before, execThread, extracted } = made;
  const beforeVersion = before.health.versions.find((v) => v.version === version);
  expect(before.memoryVersion).toEqual({ version, source: versionSource });
  expect(beforeVersion?.active).toBe(true);
  // Before the run: exactly the interactive thread waits; the idle `codex exec` thread is never extracted.
  expect(beforeVersion?.phase1).toMatchObject({ eligible: 1, nextStartClaims: 1, threadIds: [extracted] });
  expect(beforeVersion?.phase1?.threadIds).not.toContain(execThread);
  expect(before.health.threads?.notInteractive).toBeGreaterThanOrEqual(1);

  const { inspect, lint, budget } = await studioReports(home);
  expect(inspect.memoryVersion).toEqual({ version, source: versionSource });
  expect(inspect.activeVersions).toEqual([version]);
  for (const v of inspect.health.versions) expect(v.active, `${v.version} active`).toBe(v.version === version);
  // After the run nothing waits: the extracted thread is up to date, the others are `exec` threads or too recent.
  expect(inspect.health.versions.find((v) => v.version === version)?.phase1?.eligible).toBe(0);
  const root = inspect.roots.find((r) => r.version === version);
  expect(root, `${version} root listed`).toBeDefined();
  expect(root?.counts.unknown, 'every file of Codex’s layout is classified').toBe(0);
  expect(root?.counts['rollout-summary']).toBe(1);
  expect(root?.counts.summary).toBe(1);
  expect(root?.counts['extension-instructions']).toBe(1);
  expect(root?.counts['workspace-diff'], 'Codex deletes the workspace diff after a successful run').toBe(0);
  if (version === 'v1') expect(root?.counts.memory).toBe(1);
  const rootLint = lint.find((r) => r.version === version);
  expect(rootLint?.counts.error, JSON.stringify(rootLint?.files)).toBe(0);
  expect(inspect.health.problems).toEqual([]);

  const lens = budget.find((b) => b.version === version);
  expect(lens?.truncated).toBe(false);
  expect(await nextSessionSummary(home), 'the budget lens shows exactly what the next session is told').toBe(lens?.injectedText);

  await writeOversizedSummary(home, version);
  const over = (await studioReports(home)).budget.find((b) => b.version === version);
  expect(over?.truncated).toBe(true);
  expect(over?.markerText).toMatch(/^…\d+ tokens truncated…$/);
  expect(await nextSessionSummary(home), 'the truncated summary is byte-equal too').toBe(over?.injectedText);
}
