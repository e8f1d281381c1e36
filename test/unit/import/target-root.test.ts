// A missing target root is not made by proposing (a rejected import leaves nothing); Apply creates it under its locks.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IMPORT_INSTRUCTIONS } from '../../../electron/core/import';
import { makeTempDir, openGeneratedHome } from '../helpers';
import { makeClaudeHome } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('import target root', () => {
  it('proposing leaves a missing root alone; Apply creates it with the default folder mode and writes into it', async () => {
    const temp = await makeTempDir();
    const f = await makeClaudeHome(temp.dir);
    const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 5, git: false }, { callerPaths: 'person' });
    cleanups.push(async () => {
      await g.dispose();
      await temp.cleanup();
    });
    const v2 = (await g.service.call('home.get', {})).roots.find((r) => r.version === 'v2')?.path ?? '';
    expect(await exists(v2)).toBe(false);
    const input = { from: 'claude' as const, sourceHome: f.claudeHome, choices: { secretDefault: 'redact' as const } };
    const rejected = await g.service.call('import.propose', input);
    expect(rejected.writes.some((w) => w.version === 'v2')).toBe(true);
    expect(await exists(v2)).toBe(false);
    await g.service.call('review.reject', { id: rejected.proposal?.id ?? '' });
    expect(await exists(v2)).toBe(false);

    const outcome = await g.service.call('import.propose', input);
    const id = outcome.proposal?.id ?? '';
    const proposal = await g.service.call('review.get', { id });
    await g.service.call('review.decide', {
      id,
      files: proposal.files.map((x) => ({ ord: x.ord, decisions: Object.fromEntries(x.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    await g.service.call('review.apply', { id });
    expect(await readFile(join(v2, 'extensions', 'external_agent_import', 'instructions.md'), 'utf8')).toBe(IMPORT_INSTRUCTIONS);
    const reference = join(temp.dir, 'reference-folder');
    await mkdir(reference);
    expect((await stat(v2)).mode & 0o777).toBe((await stat(reference)).mode & 0o777);
  });
});
