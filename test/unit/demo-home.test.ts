// Tests the demo-home generator: files, counts, Codex formats, DB contents, citations and determinism.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { generateHome, MANIFEST_FILE, type HomeManifest } from '../fixtures';

const NOW = new Date('2026-03-05T12:00:00Z');
const temps: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'demo-home-test-'));
  temps.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

const hasGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Independent FileKind rules (section 1 of the spec), written separately from the generator's. */
function kindOf(rel: string): string | null {
  if (rel === '.git' || rel.startsWith('.git/')) return null;
  const rules: Array<[RegExp, string]> = [
    [/^memory_summary\.md$/, 'summary'],
    [/^MEMORY\.md$/, 'memory'],
    [/^raw_memories\.md$/, 'raw-memories'],
    [/^phase2_workspace_diff\.md$/, 'workspace-diff'],
    [/^rollout_summaries\/[^/]+\.md$/, 'rollout-summary'],
    [/^skills\/[^/]+\/SKILL\.md$/, 'skill'],
    [/^skills\/.+/, 'skill-file'],
    [/^extensions\/ad_hoc\/notes\/[^/]+\.md$/, 'ad-hoc-note'],
    [/^extensions\/[^/]+\/instructions\.md$/, 'extension-instructions'],
    [/^extensions\/[^/]+\/manifest\.json$/, 'extension-manifest'],
    [/^extensions\/[^/]+\/resources\/(.+\/)?scope\.json$/, 'extension-scope'],
    [/^extensions\/[^/]+\/resources\/.+/, 'extension-resource'],
  ];
  for (const [re, kind] of rules) if (re.test(rel)) return kind;
  return 'unknown';
}

function walk(root: string, skipGit = true): string[] {
  const out: string[] = [];
  const rec = (dir: string, rel: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (skipGit && e.name === '.git') continue;
      if (e.isDirectory()) rec(path.join(dir, e.name), r);
      else out.push(r);
    }
  };
  rec(root, '');
  return out.sort();
}

function checkRootAgainstDisk(manifest: HomeManifest, key: 'v1' | 'v2'): string[] {
  const root = manifest.roots[key];
  expect(root).toBeDefined();
  if (!root) return [];
  const files = walk(root.path);
  const counts: Record<string, number> = {};
  for (const k of Object.keys(root.counts)) counts[k] = 0;
  let bytes = 0;
  for (const f of files) {
    const kind = kindOf(f);
    if (kind === null) continue;
    counts[kind] = (counts[kind] ?? 0) + 1;
    bytes += fs.statSync(path.join(root.path, f)).size;
  }
  expect(Object.keys(root.counts)).toHaveLength(13);
  expect(counts).toEqual(root.counts);
  expect(root.files).toBe(files.length);
  expect(root.bytes).toBe(bytes);
  return files;
}

/** Codex's `rollout_summary_file_stem`, reimplemented with BigInt for cross-checking. */
function expectedStem(threadId: string, slug: string | null): string {
  const n = BigInt(`0x${threadId.replace(/-/g, '')}`);
  const ms = Number(n >> 80n);
  const ts = new Date(ms - (ms % 1000)).toISOString().slice(0, 19).replace(/:/g, '-');
  let v = Number(n & 0xffffffffn) % 14_776_336;
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let hash = '';
  for (let i = 0; i < 4; i++) {
    hash = alphabet[v % 62] + hash;
    v = Math.floor(v / 62);
  }
  let s = '';
  for (const ch of slug ?? '') {
    if (s.length >= 60) break;
    s += /[A-Za-z0-9]/.test(ch) ? ch.toLowerCase() : '_';
  }
  s = s.replace(/_+$/, '');
  return s ? `${ts}-${hash}-${s}` : `${ts}-${hash}`;
}

/** The citation parser of `codex-rs/memories/read/src/citations.rs` (spec section 7). */
function parseCitation(text: string): { entries: Array<{ path: string; start: number; end: number; note: string }>; ids: string[] } | null {
  const between = (open: string, close: string): string | null => {
    const a = text.indexOf(open);
    if (a < 0) return null;
    const b = text.indexOf(close, a + open.length);
    return b < 0 ? null : text.slice(a + open.length, b);
  };
  const entries: Array<{ path: string; start: number; end: number; note: string }> = [];
  for (const raw of (between('<citation_entries>', '</citation_entries>') ?? '').split('\n')) {
    const line = raw.trim();
    const at = line.lastIndexOf('|note=[');
    if (at < 0 || !line.endsWith(']')) continue;
    const loc = line.slice(0, at);
    const note = line.slice(at + 7, -1);
    const colon = loc.lastIndexOf(':');
    if (colon < 0) continue;
    const [a, b] = [
      loc.slice(colon + 1).split('-')[0],
      loc
        .slice(colon + 1)
        .split('-')
        .slice(1)
        .join('-'),
    ];
    const start = Number(a);
    const end = Number(b);
    if (!Number.isInteger(start) || !Number.isInteger(end)) continue;
    entries.push({ path: loc.slice(0, colon), start, end, note });
  }
  const idBlock = between('<rollout_ids>', '</rollout_ids>') ?? between('<thread_ids>', '</thread_ids>') ?? '';
  const ids = Array.from(
    new Set(
      idBlock
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  );
  return entries.length === 0 && ids.length === 0 ? null : { entries, ids };
}

function sessionFiles(home: string): string[] {
  const out: string[] = [];
  for (const sub of ['sessions', 'archived_sessions']) {
    const dir = path.join(home, sub);
    if (fs.existsSync(dir)) for (const f of walk(dir)) if (f.endsWith('.jsonl')) out.push(path.join(dir, f));
  }
  return out;
}

function assistantTexts(file: string): string[] {
  const texts: string[] = [];
  for (const line of fs.readFileSync(file, 'utf8').trim().split('\n')) {
    const item = JSON.parse(line) as { type: string; payload: { type?: string; role?: string; content?: Array<{ text: string }> } };
    if (item.type === 'response_item' && item.payload.type === 'message' && item.payload.role === 'assistant') {
      for (const c of item.payload.content ?? []) texts.push(c.text);
    }
  }
  return texts;
}

const uuidV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('demo home generator', () => {
  let small: { v1: HomeManifest; v2: HomeManifest; both: HomeManifest } | null = null;
  const smallHomes = async (): Promise<{ v1: HomeManifest; v2: HomeManifest; both: HomeManifest }> => {
    if (!small) {
      const [v1, v2, both] = await Promise.all([
        tempDir().then((d) => generateHome({ dir: path.join(d, 'home'), version: 'v1', now: NOW, seed: 7 })),
        tempDir().then((d) => generateHome({ dir: path.join(d, 'home'), version: 'v2', now: NOW, seed: 7, git: false })),
        tempDir().then((d) => generateHome({ dir: d, version: 'both', now: NOW, seed: 7 })),
      ]);
      small = { v1, v2, both };
    }
    return small;
  };

  it('small v1 home has the files and counts its manifest claims', async () => {
    const { v1 } = await smallHomes();
    expect(v1.roots.v2).toBeUndefined();
    expect(v1.threads).toBeGreaterThanOrEqual(18);
    expect(v1.threads).toBeLessThanOrEqual(24);
    const files = checkRootAgainstDisk(v1, 'v1');
    const root = v1.roots.v1?.path ?? '';
    for (const f of ['memory_summary.md', 'MEMORY.md', 'raw_memories.md', 'extensions/ad_hoc/instructions.md']) {
      expect(files).toContain(f);
    }
    // Codex writes phase2_workspace_diff.md only for the length of a run: a home at rest has none.
    expect(files).not.toContain('phase2_workspace_diff.md');
    expect(files).toContain('extensions/external_agent_import/instructions.md');
    expect(fs.readFileSync(path.join(root, 'extensions/external_agent_import/resources/-home-dana-src-webapp/scope.json'), 'utf8')).toBe(
      '{"cwd":"/home/dana/src/webapp"}',
    );
    expect(files.some((f) => /^skills\/[a-z0-9-]+\/scripts\/check\.sh$/.test(f))).toBe(true);
    for (const skill of files.filter((f) => f.endsWith('/SKILL.md'))) {
      const text = fs.readFileSync(path.join(root, skill), 'utf8');
      expect(text).toMatch(/^---\nname: [a-z0-9-]{1,64}\ndescription: .+\n/);
      expect(text).toContain('## Verification checklist');
    }
    expect(v1.roots.v1?.counts['rollout-summary']).toBe(v1.db.stage1Rows);
    expect(fs.existsSync(path.join(path.dirname(root), 'memories_v2'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(root), 'memories_v2_1.sqlite'))).toBe(false);

    const summary = fs.readFileSync(path.join(root, 'memory_summary.md'), 'utf8');
    expect(summary.split('\n')[0]).toBe('v1');
    const headings = ['## User Profile', '## User preferences', '## General Tips', "## What's in Memory", '### Older Memory Topics'];
    const positions = headings.map((h) => summary.split('\n').indexOf(h));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(summary).toMatch(/^#### \d{4}-\d{2}-\d{2}$/m);
    expect(summary).toMatch(/^ {2}- desc: /m);
    expect(summary).toMatch(/^ {2}- learnings: /m);

    // MEMORY.md: blocks, rollout_summary_files bullets pointing at real files with matching thread ids.
    const memory = fs.readFileSync(path.join(root, 'MEMORY.md'), 'utf8');
    expect(memory.startsWith('# Task Group: ')).toBe(true);
    expect(memory).toContain('### extension_resource_files');
    expect(memory).not.toMatch(/^\* /m);
    const bullets = Array.from(
      memory.matchAll(
        /^- (rollout_summaries\/[^ ]+\.md) \(cwd=([^,]+), rollout_path=([^,]+), updated_at=[^,]+, thread_id=([0-9a-f-]+), /gm,
      ),
    );
    expect(bullets.length).toBe(v1.db.stage1Rows);
    for (const m of bullets) {
      const text = fs.readFileSync(path.join(root, m[1] ?? ''), 'utf8');
      expect(text.startsWith(`thread_id: ${m[4]}\n`)).toBe(true);
      expect(fs.existsSync(m[3] ?? '')).toBe(true);
    }
    for (const m of memory.matchAll(/^- (extensions\/external_agent_import\/[^ ]+) \(cwd=/gm)) expect(files).toContain(m[1]);

    // raw_memories.md: thread ids ascending, each pointing at its summary file.
    const raw = fs.readFileSync(path.join(root, 'raw_memories.md'), 'utf8');
    expect(raw.startsWith('# Raw Memories\n\nMerged stage-1 raw memories (stable ascending thread-id order):\n\n')).toBe(true);
    const ids = Array.from(raw.matchAll(/^## Thread `([^`]+)`$/gm), (m) => m[1] ?? '');
    expect(ids).toEqual([...ids].sort());
    for (const m of raw.matchAll(/^rollout_summary_file: (.+)$/gm)) expect(files).toContain(`rollout_summaries/${m[1]}`);

    // Exactly one CRLF note in the home.
    const notes = files.filter((f) => f.startsWith('extensions/ad_hoc/notes/'));
    expect(notes.length).toBeGreaterThanOrEqual(2);
    for (const n of notes) expect(path.basename(n)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[a-z0-9][a-z0-9-]*\.md$/);
    expect(notes.filter((n) => fs.readFileSync(path.join(root, n), 'utf8').includes('\r\n'))).toHaveLength(1);

    const config = fs.readFileSync(path.join(v1.codexHome, 'config.toml'), 'utf8');
    expect(config).toContain('[features]\nmemories = true');
    expect(config).toContain('[memories]');
    expect(config).not.toContain('version = "v2"');

    const written = JSON.parse(fs.readFileSync(path.join(v1.codexHome, MANIFEST_FILE), 'utf8')) as HomeManifest;
    expect(written).toEqual(v1);
    if (hasGit) {
      expect(v1.roots.v1?.gitBaseline).toBe(true);
      // The baseline as Codex 0.169.0 leaves it after a successful consolidation: clean, one parentless commit on main.
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' })).toBe('');
      expect(execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()).toBe('main');
      expect(execFileSync('git', ['log', '--format=%an <%ae>|%cn <%ce>|%P|%B'], { cwd: root, encoding: 'utf8' })).toBe(
        'Codex <noreply@openai.com>|Codex <noreply@openai.com>||Initialize Codex git baseline\n\nCo-authored-by: Codex <noreply@openai.com>\n',
      );
      expect(fs.readFileSync(path.join(root, '.git', 'codex-baseline-version'), 'utf8')).toBe('1\n');
      expect(fs.existsSync(path.join(root, '.codex-baseline', '.git', 'codex-baseline.lock'))).toBe(true);
    }
  });

  it('small v2 home has a valid v2 summary and no v1-only artifacts', async () => {
    const { v2 } = await smallHomes();
    expect(v2.roots.v1).toBeUndefined();
    const files = checkRootAgainstDisk(v2, 'v2');
    const root = v2.roots.v2?.path ?? '';
    expect(v2.roots.v2?.gitBaseline).toBe(false);
    expect(fs.existsSync(path.join(root, '.git'))).toBe(false);
    for (const f of ['MEMORY.md', 'raw_memories.md']) expect(files).not.toContain(f);
    expect(files.some((f) => f.startsWith('skills/'))).toBe(false);
    expect(files).toContain('extensions/ad_hoc/instructions.md');
    expect(v2.roots.v2?.counts['ad-hoc-note']).toBeGreaterThan(0);
    expect(v2.roots.v2?.counts['rollout-summary']).toBe(v2.db.stage1Rows);
    expect(fs.existsSync(path.join(v2.codexHome, 'memories'))).toBe(false);
    // Every Codex start creates memories_1.sqlite, whatever the version; v2 is Codex's default, so no version line.
    expect(fs.existsSync(path.join(v2.codexHome, 'memories_1.sqlite'))).toBe(true);
    expect(fs.readFileSync(path.join(v2.codexHome, 'config.toml'), 'utf8')).not.toMatch(/^version = /m);

    const summary = fs.readFileSync(path.join(root, 'memory_summary.md'), 'utf8');
    expect(Buffer.byteLength(summary, 'utf8')).toBeLessThan(10_000);
    const lines = summary.split('\n').map((l) => l.trim());
    expect(summary.split('\n')[0]).toBe('v1');
    for (const h of ['## User Profile', '## User preferences', '## General Tips', "## What's in Memory"]) expect(lines).toContain(h);
    const pointers = Array.from(summary.matchAll(/^- rollout_summaries\/(\S+\.md) — .+; thread_id=([0-9a-f-]{36})\n {2}- [a-z]+: .+$/gm));
    expect(pointers.length).toBeGreaterThan(3);
    for (const p of pointers) {
      expect(files).toContain(`rollout_summaries/${p[1]}`);
      expect(fs.readFileSync(path.join(root, 'rollout_summaries', p[1] ?? ''), 'utf8')).toContain(`thread_id: ${p[2]}\n`);
    }
    expect(summary).not.toContain('MEMORY.md');

    const db = new Database(path.join(v2.codexHome, 'memories_v2_1.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT raw_memory, rollout_summary FROM stage1_outputs').all() as Array<{
        raw_memory: string;
        rollout_summary: string;
      }>;
      expect(rows).toHaveLength(v2.db.stage1Rows);
      for (const r of rows) {
        expect(r.raw_memory).toBe('');
        expect(Buffer.byteLength(r.rollout_summary)).toBeLessThanOrEqual(9_000);
      }
    } finally {
      db.close();
    }
  });

  it('small both home writes both roots, both DBs and dual_write', async () => {
    const { both } = await smallHomes();
    checkRootAgainstDisk(both, 'v1');
    checkRootAgainstDisk(both, 'v2');
    expect(both.db.memoryDbs).toEqual(['memories_1.sqlite', 'memories_v2_1.sqlite']);
    expect(fs.readFileSync(path.join(both.codexHome, 'config.toml'), 'utf8')).toContain('dual_write = true');
    const crlf = [both.roots.v1?.path, both.roots.v2?.path].flatMap((root) =>
      walk(path.join(root ?? '', 'extensions/ad_hoc/notes')).filter((n) =>
        fs.readFileSync(path.join(root ?? '', 'extensions/ad_hoc/notes', n), 'utf8').includes('\r\n'),
      ),
    );
    expect(crlf).toHaveLength(1);
    expect(both.sessions).toBe(sessionFiles(both.codexHome).length);
    // The same threads are summarised in both roots, under the same names.
    const names = (root: string | undefined): string[] => walk(path.join(root ?? '', 'rollout_summaries'));
    expect(names(both.roots.v1?.path)).toEqual(names(both.roots.v2?.path));
  });

  it('is deterministic for the same seed and now', async () => {
    const dir = path.join(await tempDir(), 'home');
    const snapshot = (): Map<string, string> =>
      new Map(
        walk(dir).map((f) => [
          f,
          createHash('sha256')
            .update(fs.readFileSync(path.join(dir, f)))
            .digest('hex'),
        ]),
      );
    await generateHome({ dir, version: 'both', seed: 99, now: NOW });
    const first = snapshot();
    await rm(dir, { recursive: true, force: true });
    await generateHome({ dir, version: 'both', seed: 99, now: NOW });
    const second = snapshot();
    expect(first.size).toBeGreaterThan(50);
    expect([...first.keys()].some((f) => f.includes('.git/'))).toBe(false);
    expect(second).toEqual(first);
    const other = path.join(await tempDir(), 'home');
    await generateHome({ dir: other, version: 'both', seed: 100, now: NOW, git: false });
    const summaryA = fs.readFileSync(path.join(dir, 'memories/MEMORY.md'), 'utf8');
    const summaryB = fs.readFileSync(path.join(other, 'memories/MEMORY.md'), 'utf8');
    expect(summaryA).not.toBe(summaryB);
  });

  it('names rollout summaries by Codex rule and uses UUIDv7 thread ids', async () => {
    const { both } = await smallHomes();
    const db = new Database(path.join(both.codexHome, 'memories_1.sqlite'), { readonly: true });
    const slugs = new Map(
      (
        db.prepare('SELECT thread_id, rollout_slug FROM stage1_outputs').all() as Array<{ thread_id: string; rollout_slug: string | null }>
      ).map((r) => [r.thread_id, r.rollout_slug]),
    );
    db.close();
    for (const key of ['v1', 'v2'] as const) {
      const dir = path.join(both.roots[key]?.path ?? '', 'rollout_summaries');
      for (const name of walk(dir)) {
        const text = fs.readFileSync(path.join(dir, name), 'utf8');
        const id = /^thread_id: (.+)$/m.exec(text)?.[1] ?? '';
        expect(id).toMatch(uuidV7);
        expect(name).toBe(`${expectedStem(id, slugs.get(id) ?? null)}.md`);
        expect(text).toMatch(
          /^thread_id: .+\nupdated_at: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00\nrollout_path: \/.+\.jsonl\ncwd: \/home\/dana\/src\/.+\n(git_branch: .+\n)?\n# /,
        );
      }
    }
    for (const file of sessionFiles(both.codexHome)) {
      const m = /rollout-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-(.+)\.jsonl$/.exec(path.basename(file));
      expect(m).not.toBeNull();
      const id = m?.[7] ?? '';
      expect(id).toMatch(uuidV7);
      const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
      expect(new Date(ms).toISOString().slice(0, 19)).toBe(`${m?.[1]}-${m?.[2]}-${m?.[3]}T${m?.[4]}:${m?.[5]}:${m?.[6]}`);
      const meta = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0] ?? '') as { type: string; payload: Record<string, unknown> };
      expect(meta.type).toBe('session_meta');
      expect(meta.payload).toMatchObject({
        id,
        session_id: id,
        originator: 'codex_cli_rs',
        cli_version: '0.171.0',
        source: 'cli',
        history_mode: 'paginated',
      });
      // Codex 0.169.0 to 0.171.0 number every line of a session from 0.
      const ordinals = fs
        .readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { ordinal: number }).ordinal);
      expect(ordinals).toEqual(ordinals.map((_, i) => i));
      expect(String(meta.payload.cwd)).toMatch(/^\/home\/dana\/src\//);
    }
  });

  it('writes state and memory DBs with Codex schema and realistic rows', async () => {
    const { both } = await smallHomes();
    const cols = (db: Database.Database, table: string): string[] =>
      (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
    const state = new Database(path.join(both.codexHome, 'state_5.sqlite'), { readonly: true });
    try {
      expect(cols(state, 'threads')).toEqual(
        expect.arrayContaining([
          'id',
          'rollout_path',
          'created_at',
          'updated_at',
          'updated_at_ms',
          'source',
          'cwd',
          'title',
          'git_branch',
          'archived_at',
          'memory_mode',
        ]),
      );
      const modes = state.prepare('SELECT memory_mode, COUNT(*) AS n FROM threads GROUP BY memory_mode').all() as Array<{
        memory_mode: string;
        n: number;
      }>;
      const byMode = Object.fromEntries(modes.map((m) => [m.memory_mode, m.n]));
      expect(byMode.disabled).toBe(both.db.disabledThreads);
      expect(byMode.polluted).toBe(both.db.pollutedThreads);
      expect(both.db.disabledThreads).toBeGreaterThan(0);
      expect(both.db.pollutedThreads).toBeGreaterThan(0);
      const threads = state.prepare('SELECT id, rollout_path, archived_at FROM threads').all() as Array<{
        id: string;
        rollout_path: string;
        archived_at: number | null;
      }>;
      expect(threads).toHaveLength(both.threads);
      for (const t of threads) {
        expect(fs.existsSync(t.rollout_path)).toBe(true);
        expect(t.rollout_path.endsWith(`-${t.id}.jsonl`)).toBe(true);
        if (t.archived_at !== null) expect(t.rollout_path).toContain(`${path.sep}archived_sessions${path.sep}`);
      }
    } finally {
      state.close();
    }

    for (const name of both.db.memoryDbs) {
      const db = new Database(path.join(both.codexHome, name), { readonly: true });
      try {
        expect(cols(db, 'stage1_outputs')).toEqual([
          'thread_id',
          'source_updated_at',
          'raw_memory',
          'rollout_summary',
          'rollout_slug',
          'generated_at',
          'usage_count',
          'last_usage',
          'selected_for_phase2',
          'selected_for_phase2_source_updated_at',
        ]);
        expect(cols(db, 'jobs')).toEqual([
          'kind',
          'job_key',
          'status',
          'worker_id',
          'ownership_token',
          'started_at',
          'finished_at',
          'lease_until',
          'retry_at',
          'retry_remaining',
          'last_error',
          'input_watermark',
          'last_success_watermark',
        ]);
        expect(cols(db, '_sqlx_migrations')).toEqual(['version', 'description', 'installed_on', 'success', 'checksum', 'execution_time']);
        const indexes = (
          db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as Array<{ name: string }>
        ).map((r) => r.name);
        expect(indexes.sort()).toEqual(['idx_jobs_kind_status_retry_lease', 'idx_stage1_outputs_source_updated_at']);
        const migration = db.prepare('SELECT version, success, length(checksum) AS len FROM _sqlx_migrations').get() as {
          version: number;
          success: number;
          len: number;
        };
        expect(migration).toEqual({ version: 1, success: 1, len: 48 });

        expect((db.prepare('SELECT COUNT(*) AS n FROM stage1_outputs WHERE selected_for_phase2 = 1').get() as { n: number }).n).toBe(
          both.db.stage1Rows,
        );
        const failed = db.prepare("SELECT * FROM jobs WHERE kind = 'memory_stage1' AND status = 'error'").all() as Array<
          Record<string, unknown>
        >;
        expect(failed).toHaveLength(both.db.failedJobs);
        expect(failed.length).toBeGreaterThan(0);
        for (const f of failed) {
          expect(typeof f.last_error).toBe('string');
          expect(f.retry_at).toBe(Number(f.finished_at) + 3600);
        }
        expect(failed.map((f) => f.last_error)).toEqual(expect.arrayContaining([expect.stringMatching(/stage-1/)]));
        const done = db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'memory_stage1' AND status = 'done'").get() as { n: number };
        expect(done.n).toBe(both.db.stage1Rows);
        const global = db.prepare("SELECT * FROM jobs WHERE kind = 'memory_consolidate_global' AND job_key = 'global'").get() as Record<
          string,
          number | string | null
        >;
        expect(global.status).toBe('done');
        expect(global.finished_at).toBeGreaterThan(0);
        expect(Number(global.finished_at)).toBeLessThanOrEqual(NOW.getTime() / 1000);
        expect(global.last_success_watermark).toBe(
          (db.prepare('SELECT MAX(source_updated_at) AS m FROM stage1_outputs').get() as { m: number }).m,
        );
      } finally {
        db.close();
      }
    }
    const v1db = new Database(path.join(both.codexHome, 'memories_1.sqlite'), { readonly: true });
    const used = (v1db.prepare('SELECT SUM(usage_count) AS n FROM stage1_outputs').get() as { n: number }).n;
    v1db.close();
    expect(used).toBeGreaterThan(0);
  });

  it('writes citations that parse and point at existing memory files', async () => {
    const { both, v2 } = await smallHomes();
    for (const home of [both, v2]) {
      const root = home.roots.v1?.path ?? home.roots.v2?.path ?? '';
      const db = new Database(path.join(home.codexHome, home.db.memoryDbs[0] ?? ''), { readonly: true });
      const rows = db.prepare('SELECT thread_id, usage_count FROM stage1_outputs').all() as Array<{
        thread_id: string;
        usage_count: number | null;
      }>;
      db.close();
      const usage = new Map(rows.map((r) => [r.thread_id, r.usage_count ?? 0]));
      const counted = new Map<string, number>();
      let blocks = 0;
      let legacy = 0;
      for (const file of sessionFiles(home.codexHome)) {
        for (const text of assistantTexts(file)) {
          if (!text.includes('<oai-mem-citation>')) continue;
          expect(text.trimEnd().endsWith('</oai-mem-citation>')).toBe(true);
          if (text.includes('<thread_ids>')) legacy++;
          const parsed = parseCitation(text);
          expect(parsed).not.toBeNull();
          if (!parsed) continue;
          blocks++;
          expect(parsed.entries.length).toBeGreaterThan(0);
          for (const e of parsed.entries) {
            const target = path.join(root, e.path);
            expect(fs.existsSync(target)).toBe(true);
            const lineCount = fs.readFileSync(target, 'utf8').split('\n').length;
            expect(e.start).toBeGreaterThanOrEqual(1);
            expect(e.end).toBeGreaterThanOrEqual(e.start);
            expect(e.end).toBeLessThanOrEqual(lineCount);
            expect(e.path).not.toBe('memory_summary.md');
          }
          for (const id of parsed.ids) {
            expect(usage.has(id)).toBe(true);
            counted.set(id, (counted.get(id) ?? 0) + 1);
          }
        }
      }
      expect(blocks).toBe(home.db.citations);
      expect(legacy).toBeGreaterThanOrEqual(1);
      for (const [id, n] of counted) expect(usage.get(id)).toBe(n);
    }
  });

  it('refuses a directory that already holds memory roots, accepts an empty one', async () => {
    const dir = await tempDir();
    fs.mkdirSync(path.join(dir, 'memories'));
    await expect(generateHome({ dir, now: NOW, git: false })).rejects.toThrow(/already contains Codex memory/);
    const empty = await tempDir();
    const m = await generateHome({ dir: empty, version: 'v1', now: NOW, git: false });
    expect(m.codexHome).toBe(path.resolve(empty));
    await expect(generateHome({ dir: empty, now: NOW, git: false })).rejects.toThrow(/already contains Codex memory/);
  });

  it('reports progress', async () => {
    const phases = new Set<string>();
    await generateHome({
      dir: path.join(await tempDir(), 'h'),
      version: 'v2',
      now: NOW,
      git: false,
      onProgress: (p, done, total) => {
        expect(done).toBeLessThanOrEqual(total);
        phases.add(p);
      },
    });
    expect([...phases]).toEqual(expect.arrayContaining(['plan', 'write', 'databases', 'done']));
  });

  it('builds a heavy home at the sizes the bench and the e2e rely on', { timeout: 600_000 }, async () => {
    const dir = path.join(await tempDir(), 'heavy');
    // Its generation time is a bench figure (npm run bench), not a test: the suite must hold on a busy machine.
    const m = await generateHome({ dir, scale: 'heavy', version: 'both', now: NOW });
    expect(fs.statSync(path.join(dir, 'memories/MEMORY.md')).size).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    expect(fs.statSync(path.join(dir, 'memories/raw_memories.md')).size).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    expect(fs.readdirSync(path.join(dir, 'memories/rollout_summaries'))).toHaveLength(4096);
    expect(fs.readdirSync(path.join(dir, 'memories_v2/rollout_summaries'))).toHaveLength(4096);
    expect(m.roots.v1?.counts['rollout-summary']).toBe(4096);
    expect(m.roots.v2?.counts['rollout-summary']).toBe(4096);
    expect(fs.statSync(path.join(dir, 'memories_v2/memory_summary.md')).size).toBeLessThan(10_000);
    expect(fs.existsSync(path.join(dir, 'memories/phase2_workspace_diff.md'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'config.toml'), 'utf8')).toContain('max_raw_memories_for_consolidation = 4096');
  });
});
