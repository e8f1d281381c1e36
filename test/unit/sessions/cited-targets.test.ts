// Where a session's cited paths are in a real generated home: the root a path names, else the root holding the file
// (config.toml's version first), else nowhere; and `provenance.session` sends every entry with its target.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citedTarget, parseSessionRollout, resolveCitations, listSessionFiles } from '../../../electron/core/sessions';
import { SessionReadingSchema } from '../../../shared/sessions';
import { cleanupHomes, makeHome, type TestHome } from '../codex-db/home-fixture';

const NOTE_V1 = 'extensions/ad_hoc/notes/2026-03-01T00-00-00-only-in-v1.md';
const NOTE_V2 = 'extensions/ad_hoc/notes/2026-03-01T00-00-00-only-in-v2.md';

let t: TestHome;

async function put(root: string, rel: string): Promise<void> {
  const abs = join(t.dir, root, ...rel.split('/'));
  await mkdir(join(abs, '..'), { recursive: true });
  await writeFile(abs, '# a note\n');
}

beforeAll(async () => {
  t = await makeHome({ version: 'both' });
  await put('memories', NOTE_V1);
  await put('memories_v2', NOTE_V2);
});
afterAll(cleanupHomes);

describe('citedTarget', () => {
  it('takes the root a path names by its folder, also through an absolute path, even when the file is gone', async () => {
    const { home } = t;
    expect(await citedTarget(home, 'memories_v2/rollout_summaries/gone.md')).toEqual({ version: 'v2', path: 'rollout_summaries/gone.md' });
    expect(await citedTarget(home, `${home.codexHome}/memories/MEMORY.md`)).toEqual({ version: 'v1', path: 'MEMORY.md' });
    expect(await citedTarget(home, '~/.codex/memories_v2/memory_summary.md')).toEqual({ version: 'v2', path: 'memory_summary.md' });
    expect(await citedTarget(home, 'C:\\Users\\dana\\.codex\\memories\\MEMORY.md')).toEqual({ version: 'v1', path: 'MEMORY.md' });
  });

  it('finds a bare path in the root that holds it, and in the configured root first when both do', async () => {
    expect(await citedTarget(t.home, NOTE_V1)).toEqual({ version: 'v1', path: NOTE_V1 });
    expect(await citedTarget(t.home, NOTE_V2)).toEqual({ version: 'v2', path: NOTE_V2 });
    // The generated home with both roots configures v1; both roots have a summary.
    expect(t.home.config.memories.version).toBe('v1');
    expect(await citedTarget(t.home, 'memory_summary.md')).toEqual({ version: 'v1', path: 'memory_summary.md' });
    const config = join(t.dir, 'config.toml');
    const original = await readFile(config, 'utf8');
    try {
      await writeFile(config, original.replace('version = "v1"', 'version = "v2"'));
      expect(await citedTarget(await t.reload(), 'memory_summary.md')).toEqual({ version: 'v2', path: 'memory_summary.md' });
    } finally {
      await writeFile(config, original);
    }
  });

  it('gives null for a path no root has, an absolute path through no root, and a way out of a root', async () => {
    for (const cited of ['rollout_summaries/never-written.md', '/etc/passwd', 'memories/../state_5.sqlite', 'memories/', '../MEMORY.md'])
      expect(await citedTarget(t.home, cited), cited).toBeNull();
  });
});

describe('resolveCitations', () => {
  it("sends each entry of a real session with the target core found, and keeps the session's own fields", async () => {
    const files = (await listSessionFiles(t.dir)).files;
    let checked = 0;
    for (const file of files) {
      const session = await parseSessionRollout(file.path);
      if (session.citations.length === 0) continue;
      const reading = SessionReadingSchema.parse(await resolveCitations(t.home, session));
      expect(reading.threadId).toBe(session.threadId);
      expect(reading.citations.map((c) => c.entries.map((e) => e.path))).toEqual(
        session.citations.map((c) => c.entries.map((e) => e.path)),
      );
      for (const entry of reading.citations.flatMap((c) => c.entries)) {
        expect(entry.target).toEqual(await citedTarget(t.home, entry.path));
        expect(entry.target, entry.path).not.toBeNull();
        checked += 1;
      }
    }
    // The generator's sessions cite MEMORY.md and rollout summaries that exist: every one of them is linked.
    expect(checked).toBeGreaterThan(0);
  });
});
