// Shell scripts the fake provider's phase-2 agent runs in the memory root: consolidation output in Codex's formats.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Phase2ScriptOptions {
  version: 'v1' | 'v2';
  project: string;
  /** Extra General Tips bullets, to push a summary over the 2,500-token budget. */
  paddingLines?: number;
}

const q = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A POSIX sh script writing memory_summary.md (and MEMORY.md for v1) from the rollout summaries present. */
export function phase2Script(options: Phase2ScriptOptions): string {
  const padding = Array.from(
    { length: options.paddingLines ?? 0 },
    (_, i) => `- interop tip ${i + 1}: keep the fake provider on 127.0.0.1 and every home temporary`,
  );
  const head = [
    'v1',
    '',
    '## User Profile',
    '',
    'Engineer who checks Memory Studio against the real Codex CLI.',
    '',
    '## User preferences',
    '',
    '- run every interop scenario in its own temporary Codex home',
    '',
    '## General Tips',
    '',
    '- the fake provider answers phase 1 with JSON',
    ...padding,
    '',
    "## What's in Memory",
    '',
    `### ${options.project}`,
    '',
    '#### 2026-12-01',
    '',
  ];
  const lines = [
    'set -eu',
    `{ printf '%s\\n' ${head.map(q).join(' ')}`,
    '  for f in rollout_summaries/*.md; do [ -e "$f" ] || continue',
    '    tid=$(sed -n "s/^thread_id: //p" "$f" | head -n 1)',
    options.version === 'v2'
      ? `    printf -- '- %s — interop session that greeted the fake model; thread_id=%s\\n' "$f" "$tid"`
      : `    printf -- '- interop greeting: fake provider, phase 1\\n  - desc: greeted the fake model (%s)\\n  - learnings: phase 1 answers JSON\\n' "$f"`,
    '  done; } > memory_summary.md.tmp',
    'mv memory_summary.md.tmp memory_summary.md',
  ];
  if (options.version === 'v1') {
    const block = [
      '# Task Group: interop greetings',
      '',
      'scope: greeting the fake model in interop tests',
      `applies_to: cwd=${options.project}; reuse_rule=safe in interop homes only`,
      '',
      '## Task 1: greet the fake model, success',
      '',
      '### rollout_summary_files',
      '',
    ];
    lines.push(
      `{ printf '%s\\n' ${block.map(q).join(' ')}`,
      '  for f in rollout_summaries/*.md; do [ -e "$f" ] || continue',
      '    tid=$(sed -n "s/^thread_id: //p" "$f" | head -n 1)',
      `    printf -- '- %s (cwd=${options.project}, thread_id=%s, greeted)\\n' "$f" "$tid"`,
      `  done; printf '%s\\n' '' '### keywords' '' '- interop, fake provider' ''; } > MEMORY.md.tmp`,
      'mv MEMORY.md.tmp MEMORY.md',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the script beside the home and returns the command the agent runs (`sh FILE`, no quoting games). */
export async function phase2Command(dir: string, options: Phase2ScriptOptions): Promise<string> {
  const file = join(dir, `phase2-${options.version}.sh`);
  await writeFile(file, phase2Script(options));
  return `sh ${q(file)}`;
}
