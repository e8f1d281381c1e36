// Provenance on generated homes: usage, cited-by and never-cited agree with the sessions' own citation blocks and the DB.
import { appendFile, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSessionIndex,
  citedBy,
  clearSessionScanCache,
  collectUsage,
  listSessionFiles,
  neverCited,
  resolvePointer,
} from '../../../electron/core/sessions';
import { NeverCitedReportSchema, PointerResolutionSchema, UsageReportSchema } from '../../../shared/provenance';
import { SessionIndexSchema } from '../../../shared/sessions';
import { cleanupHomes, makeHome, type TestHome } from '../codex-db/home-fixture';

interface Expected {
  blocks: number;
  /** path -> number of entries naming it */
  paths: Map<string, number>;
  /** thread id -> number of blocks naming it */
  ids: Map<string, number>;
  legacySession: string | null;
}

/** An independent reading of the fixture's citation blocks (regexes, not the code under test). */
async function expectedCitations(dir: string): Promise<Expected> {
  const out: Expected = { blocks: 0, paths: new Map(), ids: new Map(), legacySession: null };
  for (const f of (await listSessionFiles(dir)).files) {
    for (const raw of (await readFile(f.path, 'utf8')).split('\n')) {
      if (!raw.includes('oai-mem-citation')) continue;
      const text: string = JSON.parse(raw).payload.content[0].text;
      out.blocks++;
      const entries = /<citation_entries>\n([\s\S]*?)<\/citation_entries>/.exec(text)?.[1] ?? '';
      for (const m of entries.matchAll(/^(.+):(\d+)-(\d+)\|note=\[(.*)\]$/gm))
        out.paths.set(m[1] as string, (out.paths.get(m[1] as string) ?? 0) + 1);
      const ids = /<(rollout_ids|thread_ids)>\n([\s\S]*?)<\/\1>/.exec(text);
      if (ids?.[1] === 'thread_ids') out.legacySession = f.path;
      for (const id of new Set((ids?.[2] ?? '').split('\n').filter(Boolean))) out.ids.set(id, (out.ids.get(id) ?? 0) + 1);
    }
  }
  return out;
}

function dbRows<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

async function summaryThread(dir: string, rel: string): Promise<string> {
  const text = await readFile(join(dir, 'memories', rel), 'utf8');
  return /^thread_id: (.+)$/m.exec(text)?.[1] ?? '';
}

let t: TestHome;
let expected: Expected;

beforeAll(async () => {
  clearSessionScanCache();
  t = await makeHome();
  expected = await expectedCitations(t.dir);
});
afterAll(cleanupHomes);

describe('collectUsage', () => {
  it('counts every citation block and entry of the fixture, per file and range', async () => {
    const usage = await collectUsage(t.home);
    expect(() => UsageReportSchema.parse(usage)).not.toThrow();
    expect(usage.sessions).toMatchObject({
      scanned: t.manifest.sessions,
      citationBlocks: t.manifest.db.citations,
      withCitations: t.manifest.db.citations,
      unreadable: 0,
    });
    expect(expected.blocks).toBe(t.manifest.db.citations);
    expect(usage.files.reduce((n, f) => n + f.count, 0)).toBe(t.manifest.db.citationEntries);
    expect(new Map(usage.files.map((f) => [f.path, f.count]))).toEqual(expected.paths);
    for (const f of usage.files) {
      expect(f.version).toBe('v1');
      expect(f.ranges.reduce((n, r) => n + r.count, 0)).toBe(f.count);
      expect(f.lastCitedAt && f.firstCitedAt && f.lastCitedAt.seconds >= f.firstCitedAt.seconds).toBe(true);
    }
    expect(usage.files.find((f) => f.path === 'MEMORY.md')?.versionBasis).toBe('exists-in-one-root');
    expect(usage.problems).toEqual([]);
  });

  it("agrees with Codex's usage_count per thread (legacy <thread_ids> block included)", async () => {
    expect(expected.legacySession).not.toBeNull();
    const usage = await collectUsage(t.home);
    const db = new Map(
      dbRows<{ thread_id: string; usage_count: number }>(
        join(t.dir, 'memories_1.sqlite'),
        'SELECT thread_id, usage_count FROM stage1_outputs WHERE usage_count IS NOT NULL',
      ).map((r) => [r.thread_id, r.usage_count]),
    );
    expect(new Map(usage.threads.map((th) => [th.threadId, th.citedInBlocks]))).toEqual(expected.ids);
    for (const th of usage.threads) expect(th.db.find((d) => d.version === 'v1')?.usageCount).toBe(db.get(th.threadId));
  });

  it('serves unchanged files from the (path, mtime, size) cache and re-reads a changed one', async () => {
    const own = await makeHome({ seed: 11 });
    await collectUsage(own.home);
    const warm = await collectUsage(own.home);
    expect(warm.sessions.cacheHits).toBe(own.manifest.sessions);
    const [first] = (await listSessionFiles(own.dir)).files;
    const extra = JSON.stringify({
      timestamp: '2026-03-05T11:00:00.000Z',
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: '<oai-mem-citation><citation_entries>\nskills/new/SKILL.md:1-3|note=[extra]\n</citation_entries></oai-mem-citation>',
          },
        ],
      },
    });
    await appendFile(first?.path ?? '', `${extra}\n`);
    const after = await collectUsage(own.home);
    expect(after.sessions.cacheHits).toBe(own.manifest.sessions - 1);
    expect(after.sessions.citationBlocks).toBe(own.manifest.db.citations + 1);
    expect(after.files.find((f) => f.path === 'skills/new/SKILL.md')).toMatchObject({
      version: 'v1',
      versionBasis: 'v1-only-kind',
      count: 1,
    });
  });
});

describe('version attribution', () => {
  it("uses a root named in the cited path, then the session's own read-path prompt", async () => {
    const own = await makeHome({ seed: 5 });
    const [name] = await readdir(join(own.dir, 'memories_v2', 'rollout_summaries'));
    const dev = JSON.stringify({
      timestamp: '2026-03-05T10:00:00.000Z',
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: `Memory: ${own.dir}/memories_v2/memory_summary.md is below.` }],
      },
    });
    const reply = (text: string): string =>
      JSON.stringify({
        timestamp: '2026-03-05T10:05:00.000Z',
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
      });
    const cite = (entry: string): string =>
      `ok\n<oai-mem-citation>\n<citation_entries>\n${entry}\n</citation_entries>\n</oai-mem-citation>`;
    const id = '019a0000-0000-7000-8000-0000000000ff';
    const dir = join(own.dir, 'sessions', '2026', '03', '05');
    await appendFile(
      join(dir, `rollout-2026-03-05T10-00-00-${id}.jsonl`),
      `${dev}\n${reply(cite(`rollout_summaries/${name}:1-2|note=[v2 by prompt]`))}\n`,
    );
    await appendFile(
      join(dir, `rollout-2026-03-05T10-01-00-${id.replace('ff', 'fe')}.jsonl`),
      `${reply(cite(`${own.dir}/memories_v2/rollout_summaries/${name}:3-4|note=[v2 by path]`))}\n`,
    );
    const usage = await collectUsage(own.home);
    const file = usage.files.find((f) => f.version === 'v2' && f.path === `rollout_summaries/${name}`);
    expect(file?.count).toBe(2);
    expect(file?.ranges.map((r) => r.lineStart)).toEqual([1, 3]);
    expect(['session-base-path', 'path-prefix']).toContain(file?.versionBasis);
    const hits = await citedBy(own.home, 'v2', `rollout_summaries/${name}`);
    expect(hits.map((h) => h.note).sort()).toEqual(['v2 by path', 'v2 by prompt']);
  });
});

describe('citedBy and neverCited', () => {
  it('lists, for each cited file, exactly the citation entries naming it, newest first', async () => {
    for (const [path, count] of expected.paths) {
      const hits = (await citedBy(t.home, 'v1', path)).filter((h) => h.via === 'entry');
      expect(hits).toHaveLength(count);
      const times = hits.map((h) => h.time?.seconds ?? 0);
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(hits.every((h) => h.sessionPath.includes(h.threadId) && h.lineStart !== null && h.note !== null)).toBe(true);
    }
    expect(await citedBy(t.home, 'v2', 'MEMORY.md')).toEqual([]);
  });

  it('adds rollout-id citations for a summary whose thread a block names without naming the file', async () => {
    const files = await readdir(join(t.dir, 'memories', 'rollout_summaries'));
    for (const name of files) {
      const rel = `rollout_summaries/${name}`;
      const id = await summaryThread(t.dir, rel);
      const hits = await citedBy(t.home, 'v1', rel);
      expect(hits.filter((h) => h.via === 'entry')).toHaveLength(expected.paths.get(rel) ?? 0);
      expect(hits.length).toBe(Math.max(expected.paths.get(rel) ?? 0, expected.ids.get(id) ?? 0));
    }
  });

  it('reports as never cited exactly the citable files no entry, id or DB counter touched', async () => {
    const report = await neverCited(t.home, 'v1');
    expect(() => NeverCitedReportSchema.parse(report)).not.toThrow();
    const summaries = await readdir(join(t.dir, 'memories', 'rollout_summaries'));
    const expectSummaries: string[] = [];
    for (const name of summaries) {
      const rel = `rollout_summaries/${name}`;
      if (!expected.paths.has(rel) && !expected.ids.has(await summaryThread(t.dir, rel))) expectSummaries.push(rel);
    }
    const listed = report.files.map((f) => f.path);
    expect(listed.filter((p) => p.startsWith('rollout_summaries/')).sort()).toEqual(expectSummaries.sort());
    expect(listed).not.toContain('MEMORY.md');
    const skills = (t.manifest.roots.v1?.counts.skill ?? 0) + (t.manifest.roots.v1?.counts['skill-file'] ?? 0);
    expect(skills).toBeGreaterThan(0);
    expect(listed.filter((p) => p.startsWith('skills/'))).toHaveLength(skills);
    expect(report.files.every((f) => f.kind !== 'rollout-summary' || (f.threadId !== null && !f.dbUsageCount))).toBe(true);
    expect(report.considered).toBe(1 + summaries.length + skills);
  });
});

describe('resolvePointer', () => {
  it('follows a pointer to its summary, the thread_id header and the session through the catalog', async () => {
    const [name] = await readdir(join(t.dir, 'memories', 'rollout_summaries'));
    const id = await summaryThread(t.dir, `rollout_summaries/${name}`);
    for (const input of [`rollout_summaries/${name}`, name ?? '', `memories/rollout_summaries/${name}`]) {
      const r = await resolvePointer(t.home, 'v1', input);
      expect(() => PointerResolutionSchema.parse(r)).not.toThrow();
      expect(r).toMatchObject({
        file: `rollout_summaries/${name}`,
        exists: true,
        threadId: id,
        threadIdFrom: 'header',
        sessionVia: 'state-db',
        sessionExists: true,
      });
      expect(r.sessionPath).toContain(id);
      expect(r.header?.cwd).toMatch(/^\/home\/dana\//);
    }
  });

  it('uses the hint for a missing summary and refuses paths outside rollout_summaries', async () => {
    const [first] = (await listSessionFiles(t.dir)).files;
    const r = await resolvePointer(t.home, 'v1', 'rollout_summaries/gone.md', { threadIdHint: first?.threadId ?? '' });
    expect(r).toMatchObject({ exists: false, threadIdFrom: 'hint', sessionExists: true, sessionPath: first?.path });
    await expect(resolvePointer(t.home, 'v1', '../../state_5.sqlite')).rejects.toMatchObject({ kind: 'Invalid' });
    await expect(resolvePointer(t.home, 'v1', 'skills/pdf/SKILL.md')).rejects.toMatchObject({ kind: 'Invalid' });
    await expect(resolvePointer(t.home, 'v1', 'rollout_summaries/../MEMORY.md')).rejects.toMatchObject({ kind: 'Invalid' });
  });

  it('falls back to the file-name scan when the catalog path is stale or the catalog is gone', async () => {
    const own = await makeHome({ seed: 7 });
    const [name] = await readdir(join(own.dir, 'memories', 'rollout_summaries'));
    const rel = `rollout_summaries/${name}`;
    const id = await summaryThread(own.dir, rel);
    const before = await resolvePointer(own.home, 'v1', rel);
    const archived = join(own.dir, 'archived_sessions', (before.sessionPath ?? '').split('/').pop() ?? '');
    await rename(before.sessionPath ?? '', archived);
    const moved = await resolvePointer(own.home, 'v1', rel);
    expect(moved).toMatchObject({
      threadId: id,
      sessionVia: 'scan',
      sessionPath: archived,
      sessionExists: true,
      dbRolloutPath: before.sessionPath,
    });
    expect(moved.notes.join(' ')).toMatch(/no longer exists/);
    await rm(join(own.dir, 'state_5.sqlite'));
    const noCatalog = await resolvePointer(await own.reload(), 'v1', rel);
    expect(noCatalog).toMatchObject({ sessionVia: 'scan', sessionPath: archived, dbRolloutPath: null });
    await rm(archived);
    const gone = await resolvePointer(await own.reload(), 'v1', rel);
    expect(gone).toMatchObject({ sessionExists: false, sessionPath: null });
  });
});

describe('buildSessionIndex', () => {
  it('maps every thread to its rollout, from the catalog or from each file’s session_meta', async () => {
    const fromDb = await buildSessionIndex(t.home);
    expect(() => SessionIndexSchema.parse(fromDb)).not.toThrow();
    expect(fromDb.entries).toHaveLength(t.manifest.sessions);
    expect(fromDb.entries.every((e) => e.source === 'state-db' && e.path.includes(e.threadId))).toBe(true);
    expect(fromDb.entries.filter((e) => e.archived)).toHaveLength(t.manifest.db.archivedThreads);
    const fromMeta = await buildSessionIndex(t.home, { readMeta: 'all' });
    const byId = new Map(fromDb.entries.map((e) => [e.threadId, e]));
    for (const e of fromMeta.entries) {
      expect(e.source).toBe('session-meta');
      expect(e.cwd).toBe(byId.get(e.threadId)?.cwd);
      expect(e.startedAt?.seconds).toBe(byId.get(e.threadId)?.startedAt?.seconds);
    }
  });
});
