// Which analysis code an index's rows come from: a cheap stat fingerprint checked on every open, and a content
// fingerprint read only when that one differs, so a rebuild of the app (new mtimes, same bytes) keeps the index.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { INDEX_SCHEMA_VERSION } from './schema';

const STORED_BY = /^(analyze|chunks|schema|scan|update|walk|write)\./;

/** The code whose results the index keeps (parsers, lint, budget, session scan, the index itself), under `core`. */
function analyzerFiles(core: string): string[] {
  const files: string[] = [];
  for (const dir of [
    join(core, 'formats'),
    join(core, 'lint'),
    join(core, 'budget'),
    join(core, 'index-store'),
    join(core, 'sessions'),
    join(core, 'inspect'),
    join(core, '..', '..', 'shared'),
  ]) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (!/\.(js|ts)$/.test(name)) continue;
      // Of the index's own code only what shapes the stored rows counts (a change to search or the manager keeps them).
      if (dir.endsWith('index-store') && !STORED_BY.test(name)) continue;
      files.push(join(dir, name));
    }
  }
  return files;
}

/** The size and mtime of every analysis file: a stat each, on every open. */
function statFingerprint(core: string): string {
  const hash = createHash('sha256').update(`schema ${INDEX_SCHEMA_VERSION}\n`);
  for (const file of analyzerFiles(core)) {
    const info = statSync(file);
    hash.update(`${file} ${info.size} ${info.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 24);
}

/** The bytes of every analysis file, named from `core` (the same code elsewhere on disk has the same fingerprint). */
function contentFingerprint(core: string): string {
  const hash = createHash('sha256').update(`schema ${INDEX_SCHEMA_VERSION}\n`);
  for (const file of analyzerFiles(core)) {
    const bytes = readFileSync(file);
    hash.update(`${relative(core, file)} ${bytes.length}\n`).update(bytes);
  }
  return hash.digest('hex').slice(0, 32);
}

/** The analysis code as an index stores it: `stat` at once, `content` read on first call (then kept). */
export interface AnalyzerFingerprint {
  stat: string;
  content(): string;
}

const running = join(__dirname, '..');
let own: { stat: string; content: string | null } | null = null;

/**
 * The fingerprint of the analysis code under `core`: by default this process's own (computed once, as that code does
 * not change while it runs); a test names a copy of it.
 */
export function analyzerFingerprint(core: string = running): AnalyzerFingerprint {
  if (core !== running) {
    let content: string | null = null;
    return { stat: statFingerprint(core), content: () => (content ??= contentFingerprint(core)) };
  }
  const cached = (own ??= { stat: statFingerprint(running), content: null });
  return { stat: cached.stat, content: () => (cached.content ??= contentFingerprint(running)) };
}
