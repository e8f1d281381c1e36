// The full-text build beside a bare SQLite FTS5 bulk load of the same texts (in process, alternating pairs): the index's
// own writer (each file's row, chunks, FTS rows and palette blocks, in the real build's batches of files per transaction) against
// one transaction that only inserts the same chunk texts into an FTS5 table declared as the index declares it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { median } from './harness.mjs';

const require = createRequire(import.meta.url);

/** Every regular file of both roots, analysed as the index analyses it (untimed). */
function analyses(root, heavy) {
  const out = (p) => require(join(root, 'out', 'electron', 'core', p));
  const { walkRootSync } = out('index-store/walk.js');
  const { analyzeFile } = out('index-store/analyze.js');
  const { classifyPath } = out('codex/workspace.js');
  const files = [];
  for (const [version, dir] of [
    ['v1', 'memories'],
    ['v2', 'memories_v2'],
  ]) {
    const rootPath = join(heavy, dir);
    const { list, stamps } = walkRootSync(rootPath, version);
    for (const f of list.files) {
      const stamp = stamps.get(f.path);
      if (!stamp) continue;
      const kind = classifyPath(f.path);
      files.push({
        version,
        path: f.path,
        kind,
        stamp,
        analysis: analyzeFile(version, f.path, kind, readFileSync(join(rootPath, f.path))),
      });
    }
  }
  return files;
}

function timed(fn) {
  const started = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** [ours ms, bare ms, chunks, MB] per pair; each side writes a fresh database file. */
export function ftsFigures(root, heavy, scratch, runs) {
  const out = (p) => require(join(root, 'out', 'electron', 'core', p));
  const { openIndex } = out('index-store/open-index.js');
  const { writeAnalysis, bumpGeneration } = out('index-store/write.js');
  const { BATCH_FILES } = out('index-store/refresh.js'); // the real build's batches
  const Database = require(join(root, 'node_modules', 'better-sqlite3'));
  const files = analyses(root, heavy);
  const chunks = files.flatMap((f) => f.analysis.chunks.map((c) => ({ ...c, version: f.version, path: f.path, kind: f.kind })));
  const megabytes = chunks.reduce((n, c) => n + Buffer.byteLength(c.body), 0) / 1e6;
  const ddl = readFileSync(join(root, 'out', 'electron', 'core', 'index-store', 'schema.js'), 'utf8').match(
    /CREATE VIRTUAL TABLE chunks_fts[^;]*;/,
  )?.[0];
  if (!ddl) throw new Error('the index schema no longer declares chunks_fts as the bench expects');
  const ours = [];
  const bare = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(scratch, 'fts-'));
    try {
      const { db } = openIndex(join(dir, 'index.sqlite'));
      ours.push(
        timed(() => {
          for (let at = 0; at < files.length; at += BATCH_FILES)
            db.transaction(() => {
              for (const f of files.slice(at, at + BATCH_FILES)) writeAnalysis(db, f.version, f.path, f.kind, f.stamp, f.analysis);
              bumpGeneration(db);
            }).immediate();
        }),
      );
      db.close();
      const plain = new Database(join(dir, 'bare.sqlite'));
      plain.pragma('journal_mode = WAL');
      plain.pragma('synchronous = NORMAL');
      plain.exec(ddl);
      const insert = plain.prepare('INSERT INTO chunks_fts (body, meta, version, path, kind, line, project) VALUES (?, ?, ?, ?, ?, ?, ?)');
      bare.push(
        timed(() =>
          plain.transaction(() => chunks.forEach((c) => insert.run(c.body, c.meta, c.version, c.path, c.kind, c.line, c.project)))(),
        ),
      );
      plain.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { ours: median(ours), bare: median(bare), ratio: median(ours.map((x, k) => x / bare[k])), chunks: chunks.length, megabytes };
}
