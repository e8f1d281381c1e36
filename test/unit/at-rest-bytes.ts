// Test helper: every byte of every file under a folder, searched for secrets as they were planted (raw, not masked).
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every regular file under `dir` (symlinks neither followed nor read), `skip` top-level names left out. */
export function everyFile(dir: string, skip: readonly string[] = []): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (path: string, top: boolean) => {
    for (const name of readdirSync(path)) {
      if (top && skip.includes(name)) continue;
      const full = join(path, name);
      const info = lstatSync(full);
      if (info.isDirectory()) walk(full, false);
      else if (info.isFile()) out.push(full);
    }
  };
  walk(dir, true);
  return out;
}

/**
 * Where a secret rests in clear: each (file, label) whose bytes hold the secret's UTF-8 bytes anywhere, SQLite pages,
 * free pages, WAL frames and slack included. `skip` leaves out top-level names (the demo home, a Codex home).
 */
export function secretsAtRest(
  dir: string,
  secrets: ReadonlyArray<{ label: string; secret: string }>,
  skip: readonly string[] = [],
): string[] {
  const found: string[] = [];
  for (const file of everyFile(dir, skip)) {
    const bytes = readFileSync(file);
    for (const { label, secret } of secrets) if (bytes.includes(Buffer.from(secret, 'utf8'))) found.push(`${file}: ${label}`);
  }
  return found;
}

/** Files and folders under `dir` that others than the owner may read, write or enter (mode & 0o077). */
export function notPrivate(dir: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  if ((lstatSync(dir).mode & 0o077) !== 0) out.push(`${dir} ${(lstatSync(dir).mode & 0o777).toString(8)}`);
  const walk = (path: string, top: boolean) => {
    for (const name of readdirSync(path)) {
      if (top && skip.includes(name)) continue;
      const full = join(path, name);
      const info = lstatSync(full);
      if ((info.isDirectory() || info.isFile()) && (info.mode & 0o077) !== 0) out.push(`${full} ${(info.mode & 0o777).toString(8)}`);
      if (info.isDirectory()) walk(full, false);
    }
  };
  walk(dir, true);
  return out;
}
