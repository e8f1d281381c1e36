// Consolidated v1 skills and the transient `phase2_workspace_diff.md`.
import type { SkillRef } from './memory-md';
import type { OutFile } from './types';

interface SkillSpec extends SkillRef {
  description: string;
  argumentHint: string | null;
  whenToUse: string[];
  inputs: string[];
  procedure: string[];
  pitfalls: string[];
  checklist: string[];
  script: string | null;
}

const skillSpecs: readonly SkillSpec[] = [
  {
    name: 'invoice-pdf-test-fix',
    group: 'invoice-svc CI and test stability',
    description: 'Use when invoice-svc PDF export tests fail with glyph or width mismatches, especially only in CI.',
    argumentHint: '"[test-filter]"',
    whenToUse: ['PDF export assertions fail only in CI', 'glyph width or font fallback errors in test output'],
    inputs: ['$ARGUMENTS: optional pytest -k filter (default `export`)'],
    procedure: [
      'Explain the failing assertion to the user before editing anything.',
      'Run `FONTCONFIG_FILE=tests/fonts.conf pytest -k ${0:-export}` locally.',
      'Compare `fc-match DejaVuSans` between local and CI images.',
      'Pin fonts in CI instead of re-running the job.',
    ],
    pitfalls: ['re-running CI hides the font fallback', 'do not touch renderer code for a test-environment problem'],
    checklist: ['export tests pass twice in a row', '`scripts/check.sh` exits 0'],
    script: [
      '#!/usr/bin/env bash',
      '# Checks that the pinned font configuration is in place before running export tests.',
      'set -euo pipefail',
      'test -f tests/fonts.conf || { echo "missing tests/fonts.conf" >&2; exit 1; }',
      'FONTCONFIG_FILE=tests/fonts.conf fc-match DejaVuSans',
      'FONTCONFIG_FILE=tests/fonts.conf pytest -q -k "${1:-export}"',
      '',
    ].join('\n'),
  },
  {
    name: 'webapp-e2e-triage',
    group: 'webapp rendering and build',
    description: 'Use when a webapp Playwright test times out on CI but passes locally.',
    argumentHint: '"<spec-file>"',
    whenToUse: ['Playwright timeouts only on CI runners', 'flaky checkout or payment flows'],
    inputs: ['$0: the spec file, e.g. checkout.spec.ts'],
    procedure: [
      'Reproduce with `npx playwright test $0 --repeat-each=20`.',
      'Record a trace with `--trace on` and find the first early action.',
      'Wait on a concrete event (`waitForResponse`, locator state); never add sleeps.',
    ],
    pitfalls: ['raising timeouts only makes failures slower', 'the user rejects fixed sleeps'],
    checklist: ['20 repeats pass locally', 'CI job green twice'],
    script: null,
  },
  {
    name: 'tiles-rs-release',
    group: 'tiles-rs releases',
    description: 'Use when cutting a tiles-rs release to crates.io with cargo-release.',
    argumentHint: '"[patch|minor]"',
    whenToUse: ['the user asks to release, tag or publish tiles-rs'],
    inputs: ['$ARGUMENTS[0]: release level, default minor'],
    procedure: [
      'Commit Cargo.lock and make sure the tree is clean.',
      'Run `cargo release ${0:-minor}` as a dry run and show the output.',
      'Update CHANGELOG.md (keep-a-changelog headings).',
      'After the user confirms, run `cargo release ${0:-minor} --execute`.',
    ],
    pitfalls: ['a dirty Cargo.lock aborts the publish', 'never publish without a dry run 🚀'],
    checklist: ['tag pushed', 'crate visible on crates.io', 'CHANGELOG.md has the new version'],
    script: null,
  },
];

export const skills: readonly SkillRef[] = skillSpecs.map(({ name, group }) => ({ name, group }));

/** `skills/<name>/SKILL.md` (front matter + required sections) and `skills/<name>/scripts/check.sh`. */
export function skillFiles(): OutFile[] {
  const files: OutFile[] = [];
  for (const s of skillSpecs) {
    const front = ['---', `name: ${s.name}`, `description: ${s.description}`];
    if (s.argumentHint) front.push(`argument-hint: ${s.argumentHint}`);
    front.push('---');
    const body = [
      '## When to use',
      ...s.whenToUse.map((x) => `- ${x}`),
      '',
      '## Inputs',
      ...s.inputs.map((x) => `- ${x}`),
      '',
      '## Procedure',
      ...s.procedure.map((x, i) => `${i + 1}. ${x}`),
      '',
      '## Efficiency plan',
      '- search MEMORY.md for the task group first; open at most two rollout summaries',
      '',
      '## Pitfalls',
      ...s.pitfalls.map((x) => `- ${x}`),
      '',
      '## Verification checklist',
      ...s.checklist.map((x) => `- ${x}`),
    ];
    files.push({ rel: `skills/${s.name}/SKILL.md`, data: `${[...front, ...body].join('\n')}\n` });
    if (s.script) files.push({ rel: `skills/${s.name}/scripts/check.sh`, data: s.script, mode: 0o755 });
  }
  return files;
}

export type DiffChange =
  | { status: 'added'; path: string; text: string }
  | { status: 'modified'; path: string; text: string; insertedFrom: number; insertedLines: number };

/** `phase2_workspace_diff.md` as `render_workspace_diff_file` lays it out, with unified diffs of the changes. */
export function workspaceDiffFile(changes: readonly DiffChange[]): string {
  const out: string[] = [
    '# Memory Workspace Diff',
    '',
    'Generated by Codex before Phase 2 memory consolidation. Read this file first and do not edit it.',
    '',
    '## Status',
  ];
  if (changes.length === 0) return `${[...out, '- none'].join('\n')}\n`;
  for (const c of changes) out.push(`- ${c.status} ${c.path}`);
  out.push('', '## Diff', '', '```diff');
  for (const c of changes) {
    const lines = c.text.replace(/\n$/, '').split('\n');
    out.push(`diff --git a/${c.path} b/${c.path}`);
    if (c.status === 'added') {
      out.push('new file mode 100644', '--- /dev/null', `+++ b/${c.path}`, `@@ -0,0 +1,${lines.length} @@`);
      for (const l of lines) out.push(`+${l}`);
    } else {
      const from = c.insertedFrom;
      const added = lines.slice(from - 1, from - 1 + c.insertedLines);
      out.push(`--- a/${c.path}`, `+++ b/${c.path}`, `@@ -${from - 1},0 +${from},${added.length} @@`);
      for (const l of added) out.push(`+${l}`);
    }
  }
  out.push('```');
  return `${out.join('\n')}\n`;
}
