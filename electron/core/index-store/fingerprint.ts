// Which analysis code an index's rows come from: a cheap stat fingerprint checked on every open, and a content
// fingerprint read only when that one differs, so a rebuild of the app (new mtimes, same bytes) keeps the index.
// The stat one covers the analysers' own folders (a build rewrites every file, so any change moves it); the content
// one every file of the core and shared code (what the analysers import from elsewhere, the secret rules' JSON) and
// the app's dependencies, so a change anywhere they reach rebuilds the index.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { INDEX_SCHEMA_VERSION } from './schema';

const STORED_BY = /^(analyze|chunks|schema|scan|update|walk|write)\./;

/** The code whose results the index keeps (parsers, lint, budget, session scan, the doctor, the index itself), under `core`. */
function analyzerFiles(core: string): string[] {
  const files: string[] = [];
  for (const dir of [
    join(core, 'formats'),
    join(core, 'lint'),
    join(core, 'budget'),
    join(core, 'index-store'),
    join(core, 'sessions'),
    join(core, 'inspect'),
    // The doctor's entries, clusters and budget cut are kept in the index too (`doctor/indexed-roots.ts`).
    join(core, 'doctor'),
    join(core, 'review', 'blocks'),
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

/** Every code and data file under `dir`, depth first, in name order (the same tree gives the same list anywhere). */
function treeFiles(dir: string, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) treeFiles(path, out);
    else if (/\.(js|ts|json)$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** The bytes of the core and shared code and the app's dependency list, named from `core` (any copy hashes the same). */
function contentFingerprint(core: string): string {
  const hash = createHash('sha256').update(`schema ${INDEX_SCHEMA_VERSION}\n`);
  const shared = join(core, '..', '..', 'shared');
  for (const file of [...treeFiles(core), ...treeFiles(shared)]) {
    const bytes = readFileSync(file);
    hash.update(`${relative(core, file)} ${bytes.length}\n`).update(bytes);
  }
  hash.update(dependencies(core));
  return hash.digest('hex').slice(0, 32);
}

/** The app's dependencies and their versions (the tokenizer, the diff and TOML libraries shape stored rows too). */
function dependencies(core: string): string {
  for (const up of [join(core, '..', '..'), join(core, '..', '..', '..')]) {
    try {
      const pkg = JSON.parse(readFileSync(join(up, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      if (pkg.dependencies) return JSON.stringify(pkg.dependencies);
    } catch {
      // not here: the folder above
    }
  }
  return '';
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
  return { stat: cached.stat, content: () => (cached.content ??= ownContent(cached.stat)) };
}

/**
 * This process's content fingerprint, read later than its stat one: when the files changed on disk since this process
 * loaded them (a rebuild under a running app), the bytes are not the code that runs here, so the fingerprint is one that
 * matches nothing (an index it makes is rebuilt by the next build; one it opens is rebuilt by it).
 */
function ownContent(stat: string): string {
  if (statFingerprint(running) !== stat) return `changed-${randomUUID()}`;
  return contentFingerprint(running);
}
