// Demo homes (both scales, both versions) opened by real Codex: clean migrations, a new thread recorded, phase 1 on a demo thread.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CodexHome, nowSec, waitFor, type Version } from './support/codex';
import { FakeProvider, requestText } from './support/fake-provider';
import { studio } from './support/studio';

const provider = new FakeProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());

interface Manifest {
  threads: number;
}

/**
 * A migration problem in Codex's log: SQLite refusing a migration ("table threads already exists"), sqlx finding an
 * applied migration changed or missing, or any warning or error from the migrator; and any error about its databases.
 * (Codex's own "state db missing rollout path" warning for the session it has just started is not about the home.)
 */
function migrationTrouble(line: string): boolean {
  if (/already exists|previously applied|was modified|migration \d+ .*(failed|missing)/i.test(line)) return true;
  if (/^\S+\s+(ERROR|WARN)\b/.test(line) && /migrat|sqlx/i.test(line)) return true;
  return /^\S+\s+ERROR\b/.test(line) && /sqlite|state db|state runtime|database/i.test(line);
}

it.each<['small' | 'heavy', Version]>([
  ['small', 'v1'],
  ['small', 'v2'],
  ['heavy', 'v1'],
  ['heavy', 'v2'],
])(
  'a %s %s demo home opens in real Codex: migrations clean at debug level, its session recorded, phase 1 claims a demo thread',
  async (scale, version) => {
    let manifest: Manifest | null = null;
    const home = await CodexHome.generated(provider, async (codexHome) => {
      const made = await studio<Manifest>(['demo-home', codexHome, '--scale', scale, '--version', version, '--seed', '7']);
      expect(made.code, made.stderr).toBe(0);
      manifest = made.json;
    });
    try {
      const dbs = ['state_5.sqlite', version === 'v1' ? 'memories_1.sqlite' : 'memories_v2_1.sqlite'];
      const demoThreads = new Set(
        home.read(home.sqlitePath('state_5.sqlite'), (db) =>
          (db.prepare('SELECT id FROM threads').all() as Array<{ id: string }>).map((r) => r.id),
        ),
      );
      expect(demoThreads.size).toBe(manifest!.threads);
      const stage1Done = (since: number) =>
        home.read(
          home.memoryDbPath(version),
          (db) =>
            db
              .prepare("SELECT job_key FROM jobs WHERE kind = 'memory_stage1' AND status = 'done' AND finished_at >= ?")
              .all(since) as Array<{ job_key: string }>,
        );
      const since = nowSec();
      const phase1Before = provider.of('phase1').length;
      const result = await home.exec('hello, demo home', {
        // --strict-config: the demo's config.toml has no key the selected Codex would ignore.
        extraArgs: ['--strict-config'],
        env: { RUST_LOG: 'debug' },
        holdUntil: async () => {
          await waitFor('phase 1 to extract a demo thread', () =>
            stage1Done(since).some((r) => demoThreads.has(r.job_key)) ? true : undefined,
          );
        },
      });
      expect(result.code, result.stderr.slice(-3000)).toBe(0);
      const trouble = result.stderr
        .split('\n')
        .filter(migrationTrouble)
        .map((line) => line.slice(0, 400));
      expect(trouble, 'no migration error, even at debug level').toEqual([]);
      for (const db of dbs) {
        const applied = home.read(
          home.sqlitePath(db),
          (d) => d.prepare('SELECT COUNT(*) AS n FROM _sqlx_migrations WHERE success = 1').get() as { n: number },
        );
        expect(applied.n, `${db}: every migration recorded as applied`).toBeGreaterThan(0);
      }
      const threads = home.read(
        home.sqlitePath('state_5.sqlite'),
        (db) => db.prepare('SELECT id FROM threads').all() as Array<{ id: string }>,
      );
      expect(threads.map((t) => t.id)).toContain(result.threadId);
      expect(threads).toHaveLength(manifest!.threads + 1);
      const extracted = stage1Done(since)
        .map((r) => r.job_key)
        .filter((id) => demoThreads.has(id));
      expect(extracted.length).toBeGreaterThan(0);
      const phase1Text = provider.of('phase1').slice(phase1Before).map(requestText).join('\n');
      expect(phase1Text).toContain(extracted[0]);
    } finally {
      await home.remove();
    }
  },
);
