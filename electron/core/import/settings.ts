// Claude Code's `autoMemoryDirectory` setting with Codex's precedence: managed, repo local, repo, then user settings.
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { SkippedEntry } from '../../../shared/import';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { skip } from './read-source';

export interface CustomMemoryDir {
  /** The directory, absolute. */
  dir: string;
  /** `managed` or `user` give the key `_custom` (no cwd); `repo` gives a per-repo key with cwd = the repo root. */
  level: 'managed' | 'repo' | 'user';
  repo: string | null;
  settingsFile: string;
}

interface SettingValue {
  value: string;
  file: string;
}

/** The `autoMemoryDirectory` string in one settings file, or null (missing file, no key); a damaged file is reported. */
async function readSetting(file: string, skipped: SkippedEntry[]): Promise<SettingValue | null> {
  let text: string;
  try {
    text = (await readRegularFile(file, file, NO_CAP, undefined, { follow: true })).bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR')
      skipped.push(skip(file, 'unreadable', `${(error as Error).message} Its autoMemoryDirectory was ignored.`, null));
    return null;
  }
  try {
    const value = (JSON.parse(text) as { autoMemoryDirectory?: unknown } | null)?.autoMemoryDirectory;
    return typeof value === 'string' && value.trim() !== '' ? { value, file } : null;
  } catch (error) {
    skipped.push(
      skip(file, 'invalid-setting', `${file} is not valid JSON (${(error as Error).message}); its autoMemoryDirectory was ignored.`, null),
    );
    return null;
  }
}

/** `managed-settings.json`, then the drop-ins in `managed-settings.d/*.json` in name order: the last one that sets it wins. */
async function managedSetting(managedDir: string, skipped: SkippedEntry[]): Promise<SettingValue | null> {
  let found = await readSetting(join(managedDir, 'managed-settings.json'), skipped);
  const dropDir = join(managedDir, 'managed-settings.d');
  const names = (await readdir(dropDir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  for (const name of names) found = (await readSetting(join(dropDir, name), skipped)) ?? found;
  return found;
}

/** Absolute, or `~/`-relative (expanded); anything else is refused as Codex refuses it. */
function expand(setting: SettingValue, home: string, skipped: SkippedEntry[]): string | null {
  const v = setting.value.trim();
  if (v.startsWith('~/')) return resolve(join(home, v.slice(2)));
  if (isAbsolute(v)) return resolve(v);
  skipped.push(
    skip(
      setting.file,
      'invalid-setting',
      `autoMemoryDirectory "${v}" in ${setting.file} is neither absolute nor ~/-relative, so Claude Code and Codex ignore it.`,
      null,
    ),
  );
  return null;
}

/** Every custom memory directory in force: one global (managed or user) and one per repo whose own settings set it. */
export async function customMemoryDirs(
  claudeHome: string,
  repos: readonly string[],
  managedDir: string,
  home: string,
  skipped: SkippedEntry[],
): Promise<CustomMemoryDir[]> {
  const managed = await managedSetting(managedDir, skipped);
  const user = await readSetting(join(claudeHome, 'settings.json'), skipped);
  const out: CustomMemoryDir[] = [];
  const global = managed ?? user;
  if (global) {
    const dir = expand(global, home, skipped);
    if (dir) out.push({ dir, level: managed ? 'managed' : 'user', repo: null, settingsFile: global.file });
  }
  if (managed) return out; // Managed settings win over every repo's own.
  for (const repo of repos) {
    const own =
      (await readSetting(join(repo, '.claude', 'settings.local.json'), skipped)) ??
      (await readSetting(join(repo, '.claude', 'settings.json'), skipped));
    if (!own) continue;
    const dir = expand(own, home, skipped);
    if (dir) out.push({ dir, level: 'repo', repo, settingsFile: own.file });
  }
  return out;
}
