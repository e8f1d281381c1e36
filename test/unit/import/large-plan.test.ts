// A large plan travels without file texts (they cost ~20 MB per choice change at 10,000 files); import.fileText gives one.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INLINE_TEXT_FILES } from '../../../electron/core/import';
import { makeTempDir, openGeneratedHome } from '../helpers';
import { APP_KEY, makeClaudeHome, put } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('import plan size', () => {
  it('leaves texts out above the inline limit, keeps readability, and serves one file\u2019s texts on request', async () => {
    const temp = await makeTempDir();
    const claude = await makeClaudeHome(temp.dir);
    const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 8, git: false }, { callerPaths: 'person' });
    cleanups.push(async () => {
      await g.dispose();
      await temp.cleanup();
    });
    const input = { from: 'claude' as const, sourceHome: claude.claudeHome, choices: { secretDefault: 'redact' as const } };
    const small = await g.service.call('import.plan', input);
    expect(small.textsOmitted).toBe(false);
    expect(small.projects.find((p) => p.key === APP_KEY)?.files.find((f) => f.relPath === 'MEMORY.md')?.sourceText).not.toBeNull();

    for (let i = 0; i <= INLINE_TEXT_FILES; i++)
      await put(join(claude.memoryDir, 'many', `topic_${i}.md`), `---\nname: topic ${i}\ntype: project\n---\nFact number ${i}.\n`);
    const large = await g.service.dispatch('import.plan', input);
    expect(large.ok).toBe(true);
    if (!large.ok) return;
    const plan = large.value as typeof small;
    expect(plan.textsOmitted).toBe(true);
    const files = plan.projects.flatMap((p) => p.files);
    expect(files.every((f) => f.content === null && f.sourceText === null)).toBe(true);
    expect(files.find((f) => f.relPath === 'many/topic_7.md')).toMatchObject({ readable: true, status: 'importable' });
    const text = await g.service.dispatch('import.fileText', { plan: input, project: APP_KEY, relPath: 'many/topic_7.md' });
    expect(text).toMatchObject({
      ok: true,
      value: {
        sourceText: '---\nname: topic 7\ntype: project\n---\nFact number 7.\n',
        content: '---\nname: topic 7\ntype: project\n---\nFact number 7.\n',
      },
    });
    expect(await g.service.dispatch('import.fileText', { plan: input, project: APP_KEY, relPath: 'nope.md' })).toMatchObject({
      ok: false,
      error: { kind: 'NotFound' },
    });
  });
});
