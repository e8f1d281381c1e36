// Migration 7: an older data folder's texts are masked in place and the old bytes are gone from the DB file and its WAL.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeFileHunks } from '../../../electron/core/review';
import { migrate, migrations, STUDIO_DB_FILE } from '../../../electron/core/studio-db';
import { secretsAtRest } from '../at-rest-bytes';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

const first = `ghp_${'Qw3rTy7uIo'.repeat(3)}PaSdFg`;
const second = `ghp_${'Zx8cVb2nMk'.repeat(3)}LpOiUy`;
const planted = [
  { label: 'kept line', secret: first },
  { label: 'legacy added line', secret: second },
];
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const lines = Array.from({ length: 20 }, (_, i) => `- line ${i + 1}\n`);
const base = ['# Legacy\n', `token: ${first}\n`, ...lines].join('');
const proposed = [
  '# Legacy\n',
  `token: ${first}\n`,
  ...lines.slice(0, 8),
  '- line 9 (edited)\n',
  ...lines.slice(9),
  `key: ${second}\n`,
].join('');

let home: GeneratedHomeService;
let dataDir: string;

/** A Studio DB as builds before migration 7 left it: every text whole, in the WAL and in the file. */
function legacyDb(root: string): string[] {
  const path = join(dataDir, STUDIO_DB_FILE);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  migrate(
    db,
    path,
    migrations.filter((m) => m.version <= 6),
  );
  const hunks = computeFileHunks(base, proposed);
  db.prepare("INSERT INTO proposals (id, title, source, created_at) VALUES ('p-1e9ac1', ?, 'edit', 1)").run(`Rotate ${first}`);
  db.prepare(
    `INSERT INTO proposal_files (proposal_id, ord, version, root, rel_path, base_sha256, base_content, proposed_content, hunks_json)
     VALUES ('p-1e9ac1', 0, 'v1', ?, 'legacy.md', ?, ?, ?, ?)`,
  ).run(root, sha256(base), base, proposed, JSON.stringify(hunks));
  db.prepare("INSERT INTO history (id, kind, at, summary) VALUES ('e-1e9ac1', 'external', 1, 'outside')").run();
  db.prepare(
    `INSERT INTO history_files (history_id, ord, version, root, rel_path, before_sha256, before_content, after_sha256, after_content)
     VALUES ('e-1e9ac1', 0, 'v1', ?, 'legacy.md', ?, ?, NULL, NULL)`,
  ).run(root, sha256(base), base);
  db.close();
  return hunks.map((h) => h.id);
}

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 31, git: false });
  dataDir = join(home.dir, 'data');
});

afterAll(async () => {
  await home.dispose();
});

describe('migration 7 (no secret at rest)', () => {
  it('masks every stored text of an older DB and rewrites the file, so no byte of a secret is left', async () => {
    await writeFile(join(home.root, 'legacy.md'), base);
    await mkdir(dataDir, { recursive: true });
    const [edit, added] = legacyDb(home.root) as [string, string];
    // The test means something: the older DB holds both secrets in clear.
    expect(secretsAtRest(dataDir, planted).length).toBeGreaterThan(0);

    const proposal = await home.service.call('review.get', { id: 'p-1e9ac1' });
    expect(proposal.title).toBe('Rotate ghp_****');
    expect(secretsAtRest(dataDir, planted)).toEqual([]);
    const texts = await home.service.call('review.fileTexts', { id: 'p-1e9ac1', ord: 0 });
    expect(texts.baseContent).toBe(base.replace(first, 'ghp_****'));
    const entry = await home.service.call('history.list', {});
    expect(entry.find((e) => e.id === 'e-1e9ac1')?.files[0]?.secretsRemoved).toBe(1);

    // A legacy proposal's added secret line is gone from the DB: Apply refuses to write its masked copy, and writes nothing.
    await home.service.call('review.decide', { id: 'p-1e9ac1', files: [{ ord: 0, decisions: { [edit]: 'accept', [added]: 'accept' } }] });
    const refused = await home.service.dispatch('review.apply', { id: 'p-1e9ac1' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toContain("would be written from Memory Studio's masked copy, without its secret");
    expect(await readFile(join(home.root, 'legacy.md'), 'utf8')).toBe(base);

    // The rest of it applies, and the secret on the line it kept is written back exactly as it is on disk.
    await home.service.call('review.decide', { id: 'p-1e9ac1', files: [{ ord: 0, decisions: { [added]: 'reject' } }] });
    await home.service.call('review.apply', { id: 'p-1e9ac1' });
    expect(await readFile(join(home.root, 'legacy.md'), 'utf8')).toBe(base.replace('- line 9\n', '- line 9 (edited)\n'));
    expect(secretsAtRest(dataDir, planted)).toEqual([]);
  });
});
