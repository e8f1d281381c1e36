// A plan nobody waits for any more (a superseded wizard query, a closed page) stops while it lists and reads the source.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, openGeneratedHome } from '../helpers';
import { makeClaudeHome } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A real signal that aborts the moment its `aborted` has been asked more than `asks` times (the work's own checks). */
function abortsAfter(asks: number): { signal: AbortSignal; asked: () => number } {
  const controller = new AbortController();
  let count = 0;
  const signal = new Proxy(controller.signal, {
    get(target, prop) {
      if (prop === 'aborted' && ++count > asks) controller.abort();
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { signal, asked: () => count };
}

describe('import.plan with a caller that leaves', () => {
  it('is answered Cancelled once its signal aborts between two folders or files, and plans in full otherwise', async () => {
    const temp = await makeTempDir();
    const claude = await makeClaudeHome(temp.dir);
    const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 8, git: false }, { callerPaths: 'person' });
    cleanups.push(async () => {
      await g.dispose();
      await temp.cleanup();
    });
    const input = { from: 'claude' as const, sourceHome: claude.claudeHome, choices: { secretDefault: 'redact' as const } };

    const staying = abortsAfter(Number.MAX_SAFE_INTEGER);
    const full = await g.service.dispatch('import.plan', input, { signal: staying.signal });
    expect(full.ok).toBe(true);
    // The plan asked its caller between folders and files, not only once at the start (the service's own check).
    expect(staying.asked()).toBeGreaterThan(3);

    // The service asks once before the handler runs; the plan's first own check then finds the caller gone.
    const leaving = abortsAfter(1);
    expect(await g.service.dispatch('import.plan', input, { signal: leaving.signal })).toMatchObject({
      ok: false,
      error: { kind: 'Cancelled' },
    });
  });
});
