// The data folder is private (0700, files 0600), a killed consolidation's staging goes at the next start, the trash is masked.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespaceId } from '../../../electron/core/platform/host-identity';
import { careForDataFolder } from '../../../electron/core/service/data-folder-care';
import { createStudioService } from '../../../electron/core/service/service';
import { notPrivate, secretsAtRest } from '../at-rest-bytes';
import { makeTempDir, openGeneratedHome, type GeneratedHomeService } from '../helpers';

const built = existsSync(join(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'service', 'service.js'));
const secret = `ghp_${'Mn4bV5cX6z'.repeat(3)}AsDfGh`;

let home: GeneratedHomeService;

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 32, git: false });
});

afterAll(async () => {
  await home.dispose();
});

/** A pid of this namespace that is gone: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

/** Runs a consolidation in a child process, waits until the live folder is copied into staging, and SIGKILLs it. */
async function killedConsolidation(codexHome: string, dataDir: string): Promise<string> {
  const child = spawn(process.execPath, [join(__dirname, 'consolidate-child.cjs'), codexHome, dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const staged = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the consolidation did not reach its engine within 60 s: ${out}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('staged ') || l.startsWith('failed '));
      if (!line) return;
      clearTimeout(timer);
      if (line.startsWith('failed ')) reject(new Error(line));
      else resolve(line.slice('staged '.length));
    });
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return staged;
}

describe('the data folder', () => {
  it('is created private: the folder 0700 and every file and folder in it 0600 / 0700 after proposing, applying and indexing', async () => {
    await writeFile(join(home.root, 'private.md'), '# Private\n- one\n');
    const proposal = await home.service.call('review.propose', { version: 'v1', path: 'private.md', content: '# Private\n- uno\n' });
    const hunk = proposal.files[0]?.hunks[0]?.id as string;
    await home.service.call('review.decide', { id: proposal.id, files: [{ ord: 0, decisions: { [hunk]: 'accept' } }] });
    await home.service.call('review.apply', { id: proposal.id });
    await home.service.call('search.query', { query: 'uno' });
    const dataDir = join(home.dir, 'data');
    expect(existsSync(join(dataDir, 'studio.sqlite'))).toBe(true);
    expect(existsSync(join(dataDir, 'index'))).toBe(true);
    expect(notPrivate(dataDir)).toEqual([]);
  });

  it('of an older build is made private at start-up, its trash masked; a trash folder a journal still names stays whole', async () => {
    const { dir, cleanup } = await makeTempDir();
    try {
      const dataDir = join(dir, 'older');
      await mkdir(join(dataDir, 'trash', '2026-01-01T00-00-00-000Z-p-0a1b2c', 'v1'), { recursive: true, mode: 0o755 });
      await mkdir(join(dataDir, 'trash', '2026-01-02T00-00-00-000Z-p-0a1b2d', 'v1'), { recursive: true, mode: 0o755 });
      await chmod(dataDir, 0o755);
      const kept = join(dataDir, 'trash', '2026-01-01T00-00-00-000Z-p-0a1b2c', 'v1', 'old.md');
      const named = join(dataDir, 'trash', '2026-01-02T00-00-00-000Z-p-0a1b2d', 'v1', 'moving.md');
      await writeFile(kept, `token: ${secret}\n`, { mode: 0o644 });
      await writeFile(named, `token: ${secret}\n`, { mode: 0o644 });
      await writeFile(join(dataDir, 'engine-settings.json'), '{}\n', { mode: 0o644 });
      await mkdir(join(dataDir, 'journal'), { mode: 0o755 });
      const entry = {
        version: 'v1',
        root: home.root,
        relPath: 'moving.md',
        target: join(home.root, 'moving.md'),
        temp: null,
        trash: named,
      };
      await writeFile(
        join(dataDir, 'journal', 'p-0a1b2d.json'),
        JSON.stringify({ id: 'p-0a1b2d', pid: 1, createdAt: 0, entries: [{ ...entry, baseSha256: null, targetSha256: null }] }),
      );
      const care = await careForDataFolder(dataDir);
      expect(care?.narrowed).toBeGreaterThan(0);
      expect(care?.trashMasked).toBe(1);
      expect(await readFile(kept, 'utf8')).toBe('token: ghp_****\n');
      expect(await readFile(named, 'utf8')).toBe(`token: ${secret}\n`);
      expect(notPrivate(dataDir)).toEqual([]);
    } finally {
      await cleanup();
    }
  });

  it('removes staging whose owner process is gone at start-up, never a live or foreign one', async () => {
    const { dir, cleanup } = await makeTempDir();
    try {
      const dataDir = join(dir, 'data');
      const owners: Record<string, string> = {
        'c-dead00000001': `memory-studio:${await deadPid()}@${namespaceId()}`,
        'c-live00000001': `memory-studio:${process.pid}@${namespaceId()}`,
        'c-else00000001': `memory-studio:${await deadPid()}@0123456789ab`,
      };
      for (const [run, owner] of Object.entries(owners)) {
        await mkdir(join(dataDir, 'staging', run, 'memories'), { recursive: true });
        await writeFile(join(dataDir, 'staging', run, 'owner'), owner);
        await writeFile(join(dataDir, 'staging', run, 'memories', 'MEMORY.md'), `token: ${secret}\n`);
      }
      const care = await careForDataFolder(dataDir);
      expect(care?.stagingRemoved).toEqual([join(dataDir, 'staging', 'c-dead00000001')]);
      expect(existsSync(join(dataDir, 'staging', 'c-live00000001'))).toBe(true);
      expect(existsSync(join(dataDir, 'staging', 'c-else00000001'))).toBe(true);
    } finally {
      await cleanup();
    }
  });

  it.skipIf(!built)("removes a SIGKILLed consolidation's copy of the memory folder when the next process starts", async () => {
    const { dir, cleanup } = await makeTempDir();
    try {
      const dataDir = join(dir, 'data');
      await writeFile(join(home.root, 'secret-note.md'), `token: ${secret}\n`);
      const staged = await killedConsolidation(home.manifest.codexHome, dataDir);
      expect(staged.startsWith(join(dataDir, 'staging'))).toBe(true);
      // The copy is there with the note (the engine reads it), and staging already hid the secret in it.
      const note = readdirSync(staged, { recursive: true, withFileTypes: true }).find((e) => e.name === 'secret-note.md');
      expect(note, 'the staged copy holds the note').toBeDefined();
      const copied = readFileSync(join(note?.parentPath ?? '', 'secret-note.md'), 'utf8');
      expect(copied).toContain('[REDACTED_SECRET]');
      expect(copied).not.toContain(secret);
      expect(secretsAtRest(dataDir, [{ label: 'staged', secret }])).toEqual([]);
      const lines: string[] = [];
      const next = createStudioService({
        home: { codexHome: home.manifest.codexHome, source: 'flag' },
        dataDir,
        host: 'serve',
        appVersion: 'test',
        watch: false,
        indexing: false,
        log: (line) => lines.push(line),
      });
      try {
        await next.call('review.list', {});
        expect(existsSync(join(dataDir, 'staging'))).toBe(true);
        expect(existsSync(staged)).toBe(false);
        expect(lines.join('\n')).toContain('1 staging folder(s) of a consolidation that was killed removed');
      } finally {
        await next.shutdown();
      }
    } finally {
      await cleanup();
    }
  });
});
