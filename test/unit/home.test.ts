// Codex home discovery: flag, CODEX_HOME, ~/.codex; CODEX_SQLITE_HOME; which roots exist; the data folder.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { platformDataDir, resolveDataDir } from '../../electron/core/service/data-dir';
import { inspectHome, resolveCodexHome, resolveSqliteHome } from '../../electron/core/codex/home';
import { withTempDir } from './helpers';

describe('resolveCodexHome', () => {
  it('prefers --codex-home, then CODEX_HOME, then ~/.codex', () => {
    expect(resolveCodexHome({ flag: '/a', env: { CODEX_HOME: '/b' }, homedir: '/h' })).toEqual({ codexHome: '/a', source: 'flag' });
    expect(resolveCodexHome({ env: { CODEX_HOME: '/b' }, homedir: '/h' })).toEqual({ codexHome: '/b', source: 'env' });
    expect(resolveCodexHome({ env: {}, homedir: '/h' })).toEqual({ codexHome: '/h/.codex', source: 'default' });
  });

  it('treats an empty CODEX_HOME as unset and expands ~', () => {
    expect(resolveCodexHome({ env: { CODEX_HOME: '  ' }, homedir: '/h' }).source).toBe('default');
    expect(resolveCodexHome({ flag: '~/codex-alt', env: {}, homedir: '/h' }).codexHome).toBe('/h/codex-alt');
  });

  it('puts SQLite in CODEX_SQLITE_HOME when set, else in the home', () => {
    expect(resolveSqliteHome('/h/.codex', { CODEX_SQLITE_HOME: '/db' })).toEqual({ path: '/db', source: 'env' });
    expect(resolveSqliteHome('/h/.codex', {})).toEqual({ path: '/h/.codex', source: 'codex-home' });
  });
});

describe('resolveDataDir', () => {
  it('prefers --data-dir, then MEMORY_STUDIO_DATA, then the platform folder', () => {
    expect(resolveDataDir({ flag: '/d', env: { MEMORY_STUDIO_DATA: '/e' } })).toBe('/d');
    expect(resolveDataDir({ env: { MEMORY_STUDIO_DATA: '/e' } })).toBe('/e');
    expect(platformDataDir('linux', { XDG_CONFIG_HOME: '/x' }, '/h')).toBe('/x/Memory Studio');
    expect(platformDataDir('linux', {}, '/h')).toBe('/h/.config/Memory Studio');
    expect(platformDataDir('darwin', {}, '/h')).toBe('/h/Library/Application Support/Memory Studio');
    expect(platformDataDir('win32', { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, '/h')).toContain('Memory Studio');
  });
});

describe('inspectHome', () => {
  it('reports a missing home without throwing', async () => {
    await withTempDir(async (dir) => {
      const info = await inspectHome({ codexHome: join(dir, 'nope'), source: 'flag' }, {});
      expect(info.exists).toBe(false);
      expect(info.roots.every((r) => !r.exists)).toBe(true);
      expect(info.config.exists).toBe(false);
    });
  });

  it('finds v1 and v2 roots, their DBs, the git baseline, and a symlinked root', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'codex');
      await mkdir(join(home, 'memories', '.git'), { recursive: true });
      await mkdir(join(dir, 'elsewhere'));
      await symlink(join(dir, 'elsewhere'), join(home, 'memories_v2'));
      await writeFile(join(home, 'memories_1.sqlite'), '');
      await writeFile(join(home, 'state_5.sqlite'), '');
      await writeFile(join(home, 'config.toml'), '[features]\nmemories = true\n');
      const info = await inspectHome({ codexHome: home, source: 'env' }, {});
      const [v1, v2] = info.roots;
      expect(info.exists).toBe(true);
      expect(info.stateDbExists).toBe(true);
      expect(info.config.featureMemories).toBe(true);
      expect(v1).toMatchObject({ version: 'v1', exists: true, isSymlink: false, hasGitBaseline: true, dbExists: true });
      expect(v2).toMatchObject({ version: 'v2', exists: true, isSymlink: true, hasGitBaseline: false, dbExists: false });
    });
  });

  it('looks for the memory DBs in CODEX_SQLITE_HOME', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'home', 'memories'), { recursive: true });
      await mkdir(join(dir, 'db'));
      await writeFile(join(dir, 'db', 'memories_1.sqlite'), '');
      const info = await inspectHome({ codexHome: join(dir, 'home'), source: 'flag' }, { CODEX_SQLITE_HOME: join(dir, 'db') });
      expect(info.sqliteHomeSource).toBe('env');
      expect(info.roots[0]?.dbPath).toBe(join(dir, 'db', 'memories_1.sqlite'));
      expect(info.roots[0]?.dbExists).toBe(true);
    });
  });

  it('puts sqlite_home from config.toml before CODEX_SQLITE_HOME, as Codex 0.169.0 does', async () => {
    await withTempDir(async (dir) => {
      const codexHome = join(dir, 'home');
      await mkdir(join(codexHome, 'memories_v2'), { recursive: true });
      await writeFile(join(codexHome, 'config.toml'), 'sqlite_home = "dbs"\n');
      const relative = await inspectHome({ codexHome, source: 'flag' }, { CODEX_SQLITE_HOME: join(dir, 'env-db') });
      expect(relative.sqliteHomeSource).toBe('config');
      expect(relative.sqliteHome).toBe(join(codexHome, 'dbs'));
      expect(relative.roots.find((r) => r.version === 'v2')?.dbPath).toBe(join(codexHome, 'dbs', 'memories_v2_1.sqlite'));
      await writeFile(join(codexHome, 'config.toml'), `sqlite_home = "${join(dir, 'abs-db')}"\n`);
      expect((await inspectHome({ codexHome, source: 'flag' }, {})).sqliteHome).toBe(join(dir, 'abs-db'));
    });
  });
});
