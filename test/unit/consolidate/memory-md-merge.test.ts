// The builtin engine's MEMORY.md merge: what no input affects stays byte for byte and in place.
import { describe, expect, it } from 'vitest';
import { mergeMemoryMd, type MergeSource } from '../../../electron/core/consolidate/engines/builtin/memory-md-merge';
import type { Entry } from '../../../electron/core/consolidate/engines/builtin/model';

function entry(n: number, cwd: string, group: string, extra: Partial<Entry> = {}): Entry {
  const file = `2026-02-${String(n).padStart(2, '0')}T10-00-00-ab${n}c-task_${n}.md`;
  return {
    rollout: {
      file,
      threadId: `019c0000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`,
      updatedAt: `2026-02-${String(n).padStart(2, '0')}T11:00:00+00:00`,
      updatedMs: Date.UTC(2026, 1, n, 11),
      rolloutPath: `/h/sessions/rollout-${n}.jsonl`,
      cwd,
      gitBranch: null,
      title: `task ${n}`,
      sentence: `Did task ${n}`,
      tasks: [],
    },
    scope: cwd.split('/').pop() as string,
    day: `2026-02-${String(n).padStart(2, '0')}`,
    topic: `task ${n}`,
    title: `do task ${n}`,
    keywords: [`kw${n}`],
    group,
    outcome: 'success',
    sentence: `Did task ${n}`,
    preferences: [],
    knowledge: [`lesson of task ${n}`],
    failures: [],
    ...extra,
  } as Entry;
}

const bullet = (e: Entry) =>
  `- rollout_summaries/${e.rollout.file} (cwd=${e.rollout.cwd}, rollout_path=${e.rollout.rolloutPath}, updated_at=${e.rollout.updatedAt}, thread_id=${e.rollout.threadId}, hand-written note)`;

/** A MEMORY.md written by someone else (an LLM, a person): its own wording, which the merge must not rewrite. */
function handWritten(a: Entry[], b: Entry[]): string {
  const task = (e: Entry, n: number) => [
    `## Task ${n}: ${e.title} (written by hand), ${e.outcome}`,
    '',
    '### rollout_summary_files',
    '',
    bullet(e),
    '',
    '### keywords',
    '',
    `- ${e.keywords.join(', ')}, extra words`,
    '',
  ];
  return [
    '# Task Group: API error handling',
    '',
    'scope: how the api service reports errors; not the web client',
    'applies_to: cwd=/src/api; reuse_rule=safe while the error middleware is unchanged',
    '',
    ...a.flatMap((e, i) => task(e, i + 1)),
    '## Reusable knowledge',
    '',
    ...a.map((e, i) => `- ${e.knowledge[0]}, phrased by hand [Task ${i + 1}]`),
    '',
    '# Task Group: web build',
    '',
    'scope: vite build of the web app',
    'applies_to: cwd=/src/web; reuse_rule=verify against the lockfile',
    '',
    ...b.flatMap((e, i) => task(e, i + 1)),
    '# Task Group: a hand-written block with no sources',
    '',
    'scope: anything',
    'applies_to: cwd=any; reuse_rule=always',
    '',
    '- keep answers short',
    '',
  ].join('\n');
}

function source(existing: string, entries: Entry[]): MergeSource {
  return { existing, entries, skippedRollouts: [], notes: [], imports: [], extensions: [], skills: new Set() };
}

const api = [entry(1, '/src/api', 'API error handling'), entry(2, '/src/api', 'API error handling')];
const web = [entry(3, '/src/web', 'web build')];

describe('mergeMemoryMd', () => {
  it('leaves a file whose inputs are all still there byte for byte, and is idempotent', () => {
    const text = handWritten(api, web);
    const merged = mergeMemoryMd(source(text, [...api, ...web]));
    expect(merged.text).toBe(text);
    expect(merged.keptBlocks).toBe(3);
    expect(mergeMemoryMd(source(merged.text, [...api, ...web])).text).toBe(merged.text);
  });

  it('a dropped input removes only its task and its [Task n] refs; the other blocks stay byte for byte', () => {
    const text = handWritten(api, web);
    const merged = mergeMemoryMd(source(text, [api[0] as Entry, ...web])).text;
    expect(merged).not.toContain((api[1] as Entry).rollout.file);
    expect(merged).not.toContain('[Task 2]');
    expect(merged).toContain('- lesson of task 1, phrased by hand [Task 1]');
    const after = merged.slice(merged.indexOf('# Task Group: web build'));
    expect(after).toBe(text.slice(text.indexOf('# Task Group: web build')));
    expect(merged.slice(0, merged.indexOf('## Task 1'))).toBe(text.slice(0, text.indexOf('## Task 1')));
  });

  it('a block whose every input was dropped goes, and nothing around it changes', () => {
    const text = handWritten(api, web);
    const merged = mergeMemoryMd(source(text, [...api])).text;
    expect(merged).not.toContain('# Task Group: web build');
    expect(merged).toBe(text.replace(/# Task Group: web build[\s\S]*?(?=# Task Group: a hand-written)/, ''));
  });

  it('a new rollout of an existing task group is appended to that block as its next task, with its knowledge', () => {
    const text = handWritten(api, web);
    const added = entry(4, '/src/web', 'web build', { knowledge: ['pin the vite version'] });
    const merged = mergeMemoryMd(source(text, [...api, ...web, added])).text;
    const block = merged.slice(merged.indexOf('# Task Group: web build'), merged.indexOf('# Task Group: a hand-written'));
    expect(block).toContain(`## Task 2: ${added.title}, success`);
    expect(block).toContain(`rollout_summaries/${added.rollout.file}`);
    expect(block).toContain('## Reusable knowledge\n\n- pin the vite version [Task 2]');
    expect(merged.slice(0, merged.indexOf('# Task Group: web build'))).toBe(text.slice(0, text.indexOf('# Task Group: web build')));
    expect(mergeMemoryMd(source(merged, [...api, ...web, added])).text).toBe(merged);
  });

  it('a rollout of a new task group becomes a new block at the top; the rest is unchanged below it', () => {
    const text = handWritten(api, web);
    const added = entry(5, '/src/infra', 'terraform state');
    const merged = mergeMemoryMd(source(text, [...api, ...web, added])).text;
    expect(merged.startsWith('# Task Group: terraform state\n')).toBe(true);
    expect(merged.endsWith(text)).toBe(true);
  });

  it('a re-extracted rollout changes only the updated_at of its bullet', () => {
    const text = handWritten(api, web);
    const newer = { ...(web[0] as Entry), rollout: { ...(web[0] as Entry).rollout, updatedAt: '2026-02-09T09:00:00+00:00' } };
    const merged = mergeMemoryMd(source(text, [...api, newer])).text;
    expect(merged).toBe(text.replace(`updated_at=${(web[0] as Entry).rollout.updatedAt}`, 'updated_at=2026-02-09T09:00:00+00:00'));
  });

  it('keeps a CRLF file CRLF: untouched lines byte for byte, added lines with CRLF too', () => {
    const text = handWritten(api, web).replace(/\n/g, '\r\n');
    expect(mergeMemoryMd(source(text, [...api, ...web])).text).toBe(text);
    const added = entry(6, '/src/web', 'web build');
    const merged = mergeMemoryMd(source(text, [...api, ...web, added])).text;
    expect(merged).toContain(`## Task 2: ${added.title}, success\r\n`);
    expect(merged.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('never cuts a bullet naming a file the engine does not read (a scope.json, an unread extension)', () => {
    const text = handWritten(api, web).replace(
      '- keep answers short',
      '## Task 1: notes from elsewhere, uncertain\n\n### extension_resource_files\n\n- extensions/external_agent_import/resources/k/scope.json (source=external_agent_import)\n- extensions/other/resources/a.md (source=other)',
    );
    expect(mergeMemoryMd(source(text, [...api, ...web])).text).toBe(text);
  });
});
