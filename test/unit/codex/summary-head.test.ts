// One reader of rollout-summary heads (codex/summary-head.ts): its cache stays within its limit, dropping the least
// recently used, re-reads a file whose size or mtime changed, and the index's parse of a whole text agrees with it.
import { stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSummaryHead, SummaryHeadCache, SUMMARY_HEAD_BYTES, summaryHeadOf } from '../../../electron/core/codex/summary-head';
import { withTempDir } from '../helpers';

const summary = (thread: string, title = `Work on ${thread}`) =>
  `thread_id: ${thread}\nupdated_at: 2026-03-01T10:00:00Z\nrollout_path: /s/${thread}.jsonl\ncwd: /home/me/app\n\n# ${title}\n\nBody.\n`;

async function stampOf(path: string) {
  const info = await stat(path);
  return { size: info.size, mtimeMs: Math.round(info.mtimeMs) };
}

describe('rollout summary heads', () => {
  it('the cache never holds more than its limit and drops the least recently used', async () => {
    await withTempDir(async (dir) => {
      const cache = new SummaryHeadCache(4);
      const paths = Array.from({ length: 10 }, (_, i) => join(dir, `s${i}.md`));
      for (const [i, path] of paths.entries()) await writeFile(path, summary(`t${i}`));
      const stamps = await Promise.all(paths.map(stampOf));
      for (const [i, path] of paths.entries()) {
        expect((await cache.read(path, path, stamps[i])).header?.threadId).toBe(`t${i}`);
        expect(cache.size).toBe(Math.min(i + 1, 4));
      }
      // s6…s9 are kept; s6 used again becomes the newest, so s7 is the next to go.
      await cache.read(paths[6] as string, 'label', stamps[6]);
      await writeFile(join(dir, 'new.md'), summary('t-new'));
      await cache.read(join(dir, 'new.md'));
      expect(cache.size).toBe(4);
      // Gone from disk: a kept head still answers (no read), a dropped one must be read again and fails.
      for (const path of paths) await unlink(path);
      expect((await cache.read(paths[6] as string, 'label', stamps[6])).header?.threadId).toBe('t6');
      expect((await cache.read(paths[9] as string, 'label', stamps[9])).title).toBe('Work on t9');
      await expect(cache.read(paths[7] as string, 'label', stamps[7])).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(cache.read(paths[0] as string, 'label', stamps[0])).rejects.toMatchObject({ code: 'ENOENT' });
      expect(cache.size).toBeLessThanOrEqual(4);
    });
  });

  it('re-reads an edited summary: a new size, or the same size with a new mtime', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'edited.md');
      await writeFile(path, summary('aaaa'));
      expect((await readSummaryHead(path)).header?.threadId).toBe('aaaa');
      await writeFile(path, summary('bbbbbbbb'));
      expect((await readSummaryHead(path)).header?.threadId).toBe('bbbbbbbb');
      await writeFile(path, summary('cccccccc'));
      const later = new Date(Date.now() + 5_000);
      await utimes(path, later, later);
      expect(await readSummaryHead(path)).toEqual({
        header: {
          threadId: 'cccccccc',
          updatedAt: '2026-03-01T10:00:00Z',
          rolloutPath: '/s/cccccccc.jsonl',
          cwd: '/home/me/app',
          gitBranch: null,
        },
        title: 'Work on cccccccc',
      });
    });
  });

  it('the index parses a whole text to the head the reader sees: only the first 8 KiB count', async () => {
    await withTempDir(async (dir) => {
      // Under 8,192 characters but over 8 KiB of UTF-8: the cut falls in the cwd line, before the title.
      const long = `thread_id: t1\ncwd: /${'é'.repeat(SUMMARY_HEAD_BYTES / 2)}\n\n# Late title\n`;
      expect(long.length).toBeLessThan(SUMMARY_HEAD_BYTES);
      for (const [name, text] of [
        ['short.md', summary('t0')],
        ['long.md', long],
      ] as const) {
        await writeFile(join(dir, name), text);
        expect(summaryHeadOf(text)).toEqual(await readSummaryHead(join(dir, name)));
      }
      expect(summaryHeadOf(long)).toMatchObject({ header: { threadId: 't1' }, title: null });
    });
  });
});
