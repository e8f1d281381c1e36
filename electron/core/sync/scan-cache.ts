// Which file contents the secret engine already found clean, so a push rescans only what changed. Keyed by the engine's
// own code (size and mtime of every file of core/lint): a changed rule makes every earlier verdict stale, and bytes
// found clean by the same engine are clean again. Kept in the data folder beside the clone (hashes only, no text).
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-write';

let fingerprint: string | null = null;

/** The secret engine's fingerprint: every source and rule file of core/lint by size and mtime. */
export function scannerFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256');
  // Every file of the engine, its rule tables (JSON) included, in every subfolder.
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, `${rel}${entry.name}/`);
      else if (/\.(js|ts|json)$/.test(entry.name)) {
        const info = statSync(path);
        hash.update(`${rel}${entry.name} ${info.size} ${info.mtimeMs}\n`);
      }
    }
  };
  walk(join(__dirname, '..', 'lint'), '');
  fingerprint = hash.digest('hex').slice(0, 24);
  return fingerprint;
}

export interface CleanScans {
  /** Whether these bytes (by SHA-256) were scanned clean by this engine. */
  has(sha256: string): boolean;
  /** Records the publication's hashes (every one was scanned clean or skipped as clean). */
  save(sha256s: readonly string[]): Promise<void>;
}

export async function openCleanScans(syncDir: string): Promise<CleanScans> {
  const path = join(syncDir, 'clean-scans.json');
  const engine = scannerFingerprint();
  let known = new Set<string>();
  try {
    const record = JSON.parse(await readFile(path, 'utf8')) as unknown;
    if (
      typeof record === 'object' &&
      record !== null &&
      'engine' in record &&
      record.engine === engine &&
      'sha256s' in record &&
      Array.isArray(record.sha256s)
    )
      known = new Set(record.sha256s.filter((s): s is string => typeof s === 'string'));
  } catch {
    // None yet, or unreadable: everything is scanned, and the record is written anew after the push.
  }
  return {
    has: (sha256) => known.has(sha256),
    save: (sha256s) => writeFileAtomic(path, `${JSON.stringify({ engine, sha256s: [...sha256s].sort() })}\n`, 0o600),
  };
}
