// Shared helpers for the format-parser tests: parse shortcuts, rule lookups, fixes, the spec's synthetic examples.
import { expect } from 'vitest';
import { applyTextEdits, parseMemoryFile, serializeParsedFile, type ParseOptions } from '../../../electron/core/formats';
import { Rng } from '../../../electron/core/demo-home/prng';
import { ParsedFileSchema, type ParsedDiagnostic, type ParsedFile, type ParsedKind, type ParsedOf } from '../../../shared/formats';

export { Rng };

/** Parses and checks the invariants every result must hold (schema, round trip, line ranges). */
export function parse(text: string, path: string, options: Partial<ParseOptions> = {}): ParsedFile {
  const parsed = parseMemoryFile(text, { path, ...options });
  assertInvariants(parsed, text);
  return parsed;
}

export function parseAs<K extends ParsedKind>(kind: K, text: string, path: string, options: Partial<ParseOptions> = {}): ParsedOf<K> {
  const parsed = parse(text, path, options);
  expect(parsed.kind).toBe(kind);
  return parsed as ParsedOf<K>;
}

export function assertInvariants(parsed: ParsedFile, text: string): void {
  expect(serializeParsedFile(parsed) === text, `round trip of ${parsed.path}`).toBe(true);
  const check = ParsedFileSchema.safeParse(parsed);
  if (!check.success) throw new Error(`schema: ${check.error.message.slice(0, 2000)}`);
  const max = Math.max(1, parsed.lineCount);
  for (const d of parsed.diagnostics) {
    if (!(d.line >= 1 && d.line <= d.endLine && d.endLine <= max))
      throw new Error(`diagnostic range ${d.rule} ${d.line}-${d.endLine} of ${max}`);
    expect(d.rule).not.toBe('format/parser-error');
  }
}

export const rulesOf = (parsed: ParsedFile): string[] => parsed.diagnostics.map((d) => d.rule);
export const withRule = (parsed: ParsedFile, rule: string): ParsedDiagnostic[] => parsed.diagnostics.filter((d) => d.rule === rule);

/** Applies every fix of `rule` and returns the new text. */
export function applyFixes(text: string, parsed: ParsedFile, rule: string): string {
  const edits = withRule(parsed, rule).flatMap((d) => d.fix?.edits ?? []);
  expect(edits.length).toBeGreaterThan(0);
  return applyTextEdits(text, edits);
}

export const SPEC_RAW_MEMORIES = `# Raw Memories

Merged stage-1 raw memories (stable ascending thread-id order):

## Thread \`019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61\`
updated_at: 2026-03-02T18:40:11+00:00
cwd: /home/dana/src/invoice-svc
rollout_path: /home/dana/.codex/sessions/2026/03/02/rollout-2026-03-02T17-05-44-019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61.jsonl
rollout_summary_file: 2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md

---
description: fixed flaky PDF export test by pinning fonts; user wants failing tests explained before edits
task: fix flaky pdf export test
task_group: invoice-svc testing
task_outcome: success
cwd: /home/dana/src/invoice-svc
keywords: pdf export, fontconfig, pytest -k export, flaky
---

### Task 1: stabilise PDF export test
task: fix flaky pdf export test
task_group: invoice-svc testing
task_outcome: success

Preference signals:
- when tests failed, the user said "tell me what broke before touching code" -> explain failures first

Reusable knowledge:
- export tests depend on system fonts; CI image lacks DejaVu

Failures and how to do differently:
- re-running the test did not help; pin fonts via FONTCONFIG_FILE instead

References:
- \`FONTCONFIG_FILE=tests/fonts.conf pytest -k export\`
`;

export const SPEC_ROLLOUT_SUMMARY_NAME = 'rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md';
export const SPEC_ROLLOUT_SUMMARY = `thread_id: 019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61
updated_at: 2026-03-02T18:40:11+00:00
rollout_path: /home/dana/.codex/sessions/2026/03/02/rollout-2026-03-02T17-05-44-019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61.jsonl
cwd: /home/dana/src/invoice-svc
git_branch: fix/pdf-fonts

# Stabilised the flaky PDF export test by pinning fonts in CI.

Rollout context: user wanted the nightly CI red build fixed without touching renderer code.

## Task 1: stabilise PDF export test
Outcome: success

Preference signals:
- the user asked "tell me what broke before touching code" -> report failure cause before editing

Key steps:
- reproduced locally with \`pytest -k export -p no:randomly\` [1]

References:
- [1] \`pytest -k export\` -> \`AssertionError: glyph width 7.1 != 7.3\`
`;

export const SPEC_MEMORY_MD = `# Task Group: invoice-svc CI and test stability

scope: flaky tests and CI image quirks in invoice-svc; not renderer feature work
applies_to: cwd=/home/dana/src/invoice-svc; reuse_rule=safe while CI image is ubuntu-22 based

## Task 1: fix flaky PDF export test, success

### rollout_summary_files

- rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md (cwd=/home/dana/src/invoice-svc, rollout_path=/home/dana/.codex/sessions/2026/03/02/rollout-2026-03-02T17-05-44-019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61.jsonl, updated_at=2026-03-02T18:40:11+00:00, thread_id=019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61, fix validated in CI)

### keywords

- pdf export, FONTCONFIG_FILE, glyph width, pytest -k export

## User preferences

- when tests fail, the user asked "tell me what broke before touching code" -> explain cause first [Task 1]

## Reusable knowledge

- export tests depend on system fonts; pin with FONTCONFIG_FILE=tests/fonts.conf [Task 1]

## Failures and how to do differently

- symptom: glyph width mismatch -> cause: missing DejaVu in CI -> fix: pin fonts [Task 1]
`;

export const SPEC_SUMMARY_V2 = `v1
## User Profile
Backend developer on invoice-svc (Python) who works mostly from the CLI.
## User preferences
- when tests fail, explain the cause before editing (stated in one task; not yet a general default)
## General Tips
- invoice-svc CI images lack system fonts; export tests need pinned fonts
## What's in Memory
### invoice-svc
#### 2026-03-02
- rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md — pinned fonts to fix flaky PDF export test; thread_id=019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61
  - PR: https://git.example.com/dana/invoice-svc/pull/412
### Older Memory Topics
#### dotfiles
- rollout_summaries/2026-01-11T09-12-03-Ab12-zsh_prompt_tweaks.md — zsh prompt changes; thread_id=0199f3aa-0000-7000-8000-00000000ab12
`;

export const SPEC_SUMMARY_V1 = `v1

## User Profile

Backend developer on invoice-svc (Python) who works mostly from the CLI.

## User preferences

- explain failing tests before editing

## General Tips

- invoice-svc CI images lack system fonts

## What's in Memory

### invoice-svc

#### 2026-03-02

- pdf export tests: pdf export, fontconfig, flaky
  - desc: pinned fonts to fix the flaky export test (rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md)
  - learnings: pin fonts with FONTCONFIG_FILE

### Older Memory Topics

#### dotfiles

- zsh prompt: zsh, prompt, startup
  - desc: zsh prompt changes (last seen 2026-01-11)
`;

export const SPEC_SKILL = `---
name: invoice-pdf-test-fix
description: Use when invoice-svc PDF export tests fail with glyph/width mismatches in CI.
argument-hint: "[test-filter]"
---
## When to use
- PDF export assertions fail only in CI
## Procedure
1. Run \`FONTCONFIG_FILE=tests/fonts.conf pytest -k \${0:-export}\`
## Verification checklist
- export tests pass twice in a row
`;

export const SPEC_WORKSPACE_DIFF = `# Memory Workspace Diff

Generated by Codex before Phase 2 memory consolidation. Read this file first and do not edit it.

## Status
- added rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md
- modified raw_memories.md

## Diff

\`\`\`diff
diff --git a/raw_memories.md b/raw_memories.md
--- a/raw_memories.md
+++ b/raw_memories.md
@@ -1,2 +1,3 @@
 # Raw Memories
+
+added line
-removed line
\`\`\`
`;
