// Lossless export bundles with real files: every file of a root byte for byte (system tar extracts it), a secret held
// back and absent from the archive's bytes, a round trip into another home as a reviewed import, and hand-built
// hostile bundles (a symlink, an absolute path, "..", a 10 GB header, a lying manifest) refused with nothing written.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, readdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioService } from '../../../electron/core/service/service';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';
import { SECRETS } from '../import/fixtures';
import { defaultMachineName } from '../../../electron/core/sync/state';
import { run } from './helpers';

const RESOURCES = 'extensions/external_agent_import/resources';
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

interface Home {
  codexHome: string;
  dataDir: string;
  root: string;
}

async function tempDir(): Promise<string> {
  const t = await makeTempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

async function home(dir: string, name: string, version: 'v1' | 'v2' = 'v1', git = false): Promise<Home> {
  const codexHome = join(dir, name, 'home');
  await generateHome({ dir: codexHome, scale: 'small', version, seed: name.length + 3, git });
  return { codexHome, dataDir: join(dir, name, 'data'), root: join(codexHome, version === 'v1' ? 'memories' : 'memories_v2') };
}

const on = (h: Home) => ['--codex-home', h.codexHome, '--data-dir', h.dataDir];

/** Every file under `dir` (relative, sorted), skipping folders named in `skip` at the top. */
async function filesUnder(dir: string, skip: string[] = [], rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
    const path = rel === '' ? e.name : `${rel}/${e.name}`;
    if (rel === '' && skip.includes(e.name)) continue;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, skip, path)));
    else out.push(path);
  }
  return out.sort();
}

function extract(bundle: string, into: string): void {
  execFileSync('tar', ['xzf', bundle, '-C', into]);
}

/** A tar built block by block with tar's own Header (so nothing is normalised away), gzipped unless `raw`. */
function tarOf(entries: { path: string; body?: string; type?: string; linkpath?: string; size?: number }[], raw = false): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    const header = new Header({
      path: e.path,
      mode: 0o644,
      size: e.size ?? (e.type && e.type !== 'File' ? 0 : body.length),
      mtime: new Date(0),
      type: (e.type ?? 'File') as 'File',
      linkpath: e.linkpath,
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (body.length > 0) blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  if (entries.every((e) => e.size === undefined)) blocks.push(Buffer.alloc(1024));
  const tar = Buffer.concat(blocks);
  return raw ? tar : gzipSync(tar);
}

function manifestOf(files: Record<string, string>, lie?: string): string {
  return JSON.stringify({
    format: 'memory-studio-bundle/1',
    memoryVersion: 'v1',
    exportedAt: new Date(0).toISOString(),
    files: Object.entries(files).map(([path, text]) => ({
      path,
      sha256: path === lie ? sha('other') : sha(text),
      size: Buffer.byteLength(text),
    })),
    heldBack: [],
  });
}

async function proposalsIn(h: Home): Promise<number> {
  const service = createStudioService({
    home: { codexHome: h.codexHome, source: 'flag' },
    dataDir: h.dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
  });
  try {
    return (await service.call('review.list', {})).proposals.length;
  } finally {
    service.dispose();
  }
}

describe('export bundles', () => {
  it('holds every file of the root byte for byte, without .git or the baseline folder', async () => {
    const dir = await tempDir();
    const a = await home(dir, 'alpha', 'v1', true);
    // Beyond the generated memory: an empty file, bytes that are not UTF-8, a deep path and an executable.
    await writeFile(join(a.root, 'empty.md'), '');
    await mkdir(join(a.root, 'extensions/deep/a/b/c'), { recursive: true });
    await writeFile(join(a.root, 'extensions/deep/a/b/c/blob.bin'), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80]));
    expect(existsSync(join(a.root, '.git'))).toBe(true);
    const out = join(dir, 'alpha.tar.gz');
    const r = await run(['export', '--out', out, ...on(a)]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Exported \d+ file\(s\) of v1/);

    const x = join(dir, 'x');
    await mkdir(x);
    extract(out, x);
    expect((await readdir(x)).sort()).toEqual(['files', 'manifest.json']);
    const expected = await filesUnder(a.root, ['.git', '.codex-baseline']);
    expect(expected).toContain('raw_memories.md');
    expect(expected.some((f) => f.startsWith('rollout_summaries/'))).toBe(true);
    expect(await filesUnder(join(x, 'files'))).toEqual(expected);
    for (const f of expected) expect(await readFile(join(x, 'files', f)), f).toEqual(await readFile(join(a.root, f)));

    const manifest = JSON.parse(await readFile(join(x, 'manifest.json'), 'utf8')) as {
      format: string;
      memoryVersion: string;
      files: { path: string; sha256: string; size: number }[];
      heldBack: unknown[];
    };
    expect(manifest).toMatchObject({ format: 'memory-studio-bundle/1', memoryVersion: 'v1', heldBack: [] });
    expect(manifest.files.map((f) => f.path).sort()).toEqual(expected);
    for (const f of manifest.files) {
      const bytes = await readFile(join(a.root, f.path));
      expect(f).toEqual({ path: f.path, sha256: sha(bytes), size: bytes.length });
    }
    // Written atomically: the bundle alone, no temp file beside it.
    expect((await readdir(dir)).filter((n) => n.includes('alpha.tar.gz'))).toEqual(['alpha.tar.gz']);
  });

  it('holds back a file with a secret and a symlink, names them, exits 4, and the secret is not in the archive', async () => {
    const dir = await tempDir();
    const a = await home(dir, 'alpha');
    const note = 'extensions/ad_hoc/notes/2026-12-01T10-00-00-deploy-key.md';
    await mkdir(join(a.root, 'extensions/ad_hoc/notes'), { recursive: true });
    await writeFile(join(a.root, note), `# Deploy\n\nUse OPENAI_API_KEY=${SECRETS.openai} for the e2e run.\n`);
    // What PowerShell 5's ">" writes: UTF-16LE with a BOM, not UTF-8; its secret is found in what decodes.
    const utf16 = 'extensions/ad_hoc/notes/2026-12-01T11-00-00-ps.md';
    await writeFile(join(a.root, utf16), Buffer.from(`\ufeff# PS\r\n\r\nOPENAI_API_KEY=${SECRETS.openai}\r\n`, 'utf16le'));
    await symlink(join(a.root, 'MEMORY.md'), join(a.root, 'linked.md'));
    const out = join(dir, 'alpha.tar.gz');
    const r = await run(['export', '--out', out, ...on(a)]);
    expect(r.code).toBe(4);
    expect(r.out).toContain(`held back: ${note}: possible secret (`);
    expect(r.out).toMatch(/at line 3/);
    expect(r.out).toContain(`held back: ${utf16}: possible secret (`);
    expect(r.out).toContain('held back: linked.md: a symlink');
    expect(r.out).not.toContain(SECRETS.openai);

    const bytes = await readFile(out);
    const tar = gunzipSync(bytes);
    expect(tar.includes(SECRETS.openai)).toBe(false);
    expect(bytes.includes(SECRETS.openai)).toBe(false);
    const x = join(dir, 'x');
    await mkdir(x);
    extract(out, x);
    expect(existsSync(join(x, 'files', note))).toBe(false);
    expect(existsSync(join(x, 'files', 'linked.md'))).toBe(false);
    expect(existsSync(join(x, 'files', 'MEMORY.md'))).toBe(true);
    const manifest = JSON.parse(await readFile(join(x, 'manifest.json'), 'utf8')) as { heldBack: { path: string; reason: string }[] };
    expect(manifest.heldBack.map((h) => h.path).sort()).toEqual([note, utf16, 'linked.md']);

    const json = await run(['export', '--out', out, '--json', ...on(a)]);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.out)).toMatchObject({
      ok: true,
      version: 'v1',
      heldBack: expect.arrayContaining([expect.objectContaining({ path: note })]),
    });
  });

  it('exports the other root with --version and never writes inside the Codex home', async () => {
    const dir = await tempDir();
    const a = await home(dir, 'alpha');
    await mkdir(join(a.codexHome, 'memories_v2'), { recursive: true });
    await writeFile(join(a.codexHome, 'memories_v2', 'MEMORY.md'), '# Task Group: v2 only\n');
    const out = join(dir, 'v2.tar.gz');
    const r = await run(['export', '--out', out, '--version', 'v2', ...on(a)]);
    expect(r.code, r.err).toBe(0);
    const x = join(dir, 'x');
    await mkdir(x);
    extract(out, x);
    expect(await filesUnder(join(x, 'files'))).toEqual(['MEMORY.md']);
    expect(JSON.parse(await readFile(join(x, 'manifest.json'), 'utf8'))).toMatchObject({ memoryVersion: 'v2' });

    for (const inside of [join(a.codexHome, 'bundle.tar.gz'), join(a.root, 'bundle.tar.gz')]) {
      const refused = await run(['export', '--out', inside, ...on(a)]);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain('is inside the Codex home');
      expect(existsSync(inside)).toBe(false);
    }
    expect((await filesUnder(a.codexHome)).filter((f) => f.includes('bundle.tar.gz') || f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('importing a bundle', () => {
  it('round trip: a bundle exported from one home is applied into another under resources/sync-bundle-<machine>/', async () => {
    const dir = await tempDir();
    const a = await home(dir, 'alpha');
    const b = await home(dir, 'beta', 'v2');
    await writeFile(join(a.root, 'extensions', 'blob.bin'), Buffer.from([0xff, 0xfe, 0x41]));
    const out = join(dir, 'laptop export.tar.gz');
    expect((await run(['export', '--out', out, ...on(a)])).code).toBe(0);

    const plan = await run(['import', '--from', 'bundle', '--bundle', out, '--plan', ...on(b)]);
    expect(plan.code, plan.err).toBe(0);
    // Named after the machine that exported it (the manifest says), not the file: another machine's bundle of the same
    // file name lands beside it, never over it.
    const key = `sync-bundle-${defaultMachineName()}`;
    expect(plan.out).toContain(`-> resources/${key}/`);
    expect(plan.out).toContain(`would write v2/${RESOURCES}/${key}/MEMORY.md`);
    expect(plan.out).toContain('held back: extensions/blob.bin:');
    const arrived = join(b.root, RESOURCES, key);
    expect(existsSync(arrived)).toBe(false);

    const applied = await run(['import', '--from', 'bundle', '--bundle', out, '--apply', ...on(b)]);
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toMatch(/Applied import p-[0-9a-f]+ as history entry/);
    const sent = (await filesUnder(a.root, ['.git', '.codex-baseline'])).filter((f) => f !== 'extensions/blob.bin');
    expect((await filesUnder(arrived)).filter((f) => f !== 'scope.json')).toEqual(sent);
    for (const f of sent) expect(await readFile(join(arrived, f)), f).toEqual(await readFile(join(a.root, f)));
    expect(JSON.parse(await readFile(join(arrived, 'scope.json'), 'utf8'))).toHaveProperty('cwd');

    const again = await run(['import', '--from', 'bundle', '--bundle', out, '--apply', '--json', ...on(b)]);
    expect(JSON.parse(again.out)).toMatchObject({ ok: true, proposalId: null, written: [] });
  });

  it('asks for --bundle and refuses the secret choices of the other sources', async () => {
    const dir = await tempDir();
    const b = await home(dir, 'beta');
    const missing = await run(['import', '--from', 'bundle', '--apply', ...on(b)]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--bundle FILE');
    const redact = await run(['import', '--from', 'bundle', '--bundle', join(dir, 'x.tar.gz'), '--apply', '--redact-secrets', ...on(b)]);
    expect(redact.code).toBe(2);
    expect(redact.err).toContain('--redact-secrets does not apply to --from bundle');
  });

  describe('refuses a hostile bundle with a clear message and writes nothing', () => {
    const honest = { 'MEMORY.md': '# Task Group: honest\n' };
    const cases: { name: string; build: (dir: string) => Promise<Buffer>; message: RegExp }[] = [
      {
        name: 'a symlink member',
        build: async (dir) => {
          const src = join(dir, 'src');
          await mkdir(join(src, 'files'), { recursive: true });
          await writeFile(join(src, 'manifest.json'), manifestOf(honest));
          await writeFile(join(src, 'files', 'MEMORY.md'), honest['MEMORY.md']);
          await symlink('/etc/passwd', join(src, 'files', 'passwd.md'));
          execFileSync('tar', ['czf', join(dir, 'built.tar.gz'), '-C', src, 'manifest.json', 'files']);
          return readFile(join(dir, 'built.tar.gz'));
        },
        message: /member "files\/passwd\.md" is a symlink/,
      },
      {
        name: 'an absolute path',
        build: async () =>
          tarOf([
            { path: 'manifest.json', body: manifestOf(honest) },
            { path: 'files/MEMORY.md', body: honest['MEMORY.md'] },
            { path: '/etc/evil.md', body: 'evil\n' },
          ]),
        message: /member "\/etc\/evil\.md" has an absolute path/,
      },
      {
        name: 'a path that climbs out',
        build: async () =>
          tarOf([
            { path: 'manifest.json', body: manifestOf(honest) },
            { path: 'files/../../evil.md', body: 'evil\n' },
          ]),
        message: /member "files\/\.\.\/\.\.\/evil\.md" climbs out with "\.\."/,
      },
      {
        name: 'a hard link',
        build: async () =>
          tarOf([
            { path: 'manifest.json', body: manifestOf(honest) },
            { path: 'files/MEMORY.md', type: 'Link', linkpath: '/etc/passwd' },
          ]),
        message: /member "files\/MEMORY\.md" is a hard link/,
      },
      {
        name: 'a file outside files/',
        build: async () =>
          tarOf([
            { path: 'manifest.json', body: manifestOf({}) },
            { path: 'evil.md', body: 'x\n' },
          ]),
        message: /member "evil\.md" is outside files\//,
      },
      {
        name: 'a member whose header claims 10 GB (truncated right after its header)',
        build: async () =>
          tarOf([
            { path: 'manifest.json', body: manifestOf(honest) },
            { path: 'files/MEMORY.md', size: 10 * 1024 ** 3 },
          ]),
        message: /member "files\/MEMORY\.md" is 10737418240 bytes, over the 67108864-byte \(64 MB\) limit/,
      },
      {
        name: 'a manifest that lies about a hash',
        build: async () =>
          tarOf([
            { path: 'manifest.json', body: manifestOf(honest, 'MEMORY.md') },
            { path: 'files/MEMORY.md', body: honest['MEMORY.md'] },
          ]),
        message: /"MEMORY\.md" does not have the SHA-256 its manifest says/,
      },
      {
        name: 'a file the manifest does not name',
        build: async () =>
          tarOf([
            { path: 'manifest.json', body: manifestOf(honest) },
            { path: 'files/MEMORY.md', body: honest['MEMORY.md'] },
            { path: 'files/smuggled.md', body: 'x\n' },
          ]),
        message: /holds files\/smuggled\.md, which its manifest does not name/,
      },
    ];

    for (const c of cases)
      it(c.name, async () => {
        const dir = await tempDir();
        const b = await home(dir, 'beta');
        const bundle = join(dir, 'hostile.tar.gz');
        await writeFile(bundle, await c.build(dir));
        for (const mode of ['--plan', '--apply']) {
          const r = await run(['import', '--from', 'bundle', '--bundle', bundle, mode, ...on(b)]);
          expect(r.code, r.out).toBe(1);
          expect(r.err).toContain(`The bundle ${bundle} was refused:`);
          expect(r.err).toMatch(c.message);
          expect(r.err).toContain('Nothing was imported.');
        }
        expect(await lstat(join(b.root, RESOURCES, 'sync-bundle-hostile')).catch(() => null)).toBeNull();
        expect(await proposalsIn(b)).toBe(0);
      });

    it('a 10 GB member on disk is refused from its header, without reading its body', async () => {
      const dir = await tempDir();
      const b = await home(dir, 'beta');
      const bundle = join(dir, 'huge.tar');
      const head = tarOf(
        [
          { path: 'manifest.json', body: manifestOf(honest) },
          { path: 'files/MEMORY.md', size: 10 * 1024 ** 3 },
        ],
        true,
      );
      await writeFile(bundle, head);
      // Sparse: 10 GB long, nothing of it on the disk.
      await truncate(bundle, head.length + 10 * 1024 ** 3 + 1024);
      const started = Date.now();
      const r = await run(['import', '--from', 'bundle', '--bundle', bundle, '--apply', ...on(b)]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/member "files\/MEMORY\.md" is 10737418240 bytes, over the 67108864-byte \(64 MB\) limit/);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(await lstat(join(b.root, RESOURCES, 'sync-bundle-huge')).catch(() => null)).toBeNull();
      expect(await proposalsIn(b)).toBe(0);
    });
  });
});
