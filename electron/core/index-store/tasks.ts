// The index's pool tasks: the stat-only scan and the batched updates, each on its thread's own connection.
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { SessionFile } from '../sessions/session-files';
import type { TaskContext } from '../runtime/task-types';
import { connectIndex, type OpenOptions } from './open-index';
import { scanRoot, scanSessions, type RootScan, type SessionsScan } from './scan';
import type { Stamp } from './walk';

// One connection per index file per thread: workers reuse theirs across tasks (WAL lets them write beside the reader).
const connections = new Map<string, { db: Database.Database; ino: number }>();

/** This thread's connection to `path`, opened again when the file was replaced (a rebuild deletes and recreates it). */
export function threadConnection(path: string, options: OpenOptions = {}): Database.Database {
  const held = connections.get(path);
  const ino = statSync(path, { throwIfNoEntry: false })?.ino;
  if (held?.db.open && held.ino === ino) return held.db;
  held?.db.close();
  const db = connectIndex(path, options);
  connections.set(path, { db, ino: statSync(path).ino });
  return db;
}

/** Closes this thread's connection to `path` (the manager before it deletes a damaged file). */
export function closeThreadConnection(path: string): void {
  connections.get(path)?.db.close();
  connections.delete(path);
}

export interface IndexScanInput {
  dbPath: string;
  codexHome: string;
  roots: Array<{ version: MemoryVersion; path: string }>;
  /** Walk sessions/ and archived_sessions/ too (false: the sessions part of the result is empty). */
  sessions?: boolean;
  options?: OpenOptions;
}

export interface IndexScanResult {
  roots: Array<RootScan | { version: MemoryVersion; error: { message: string; kind?: string; path?: string; hint?: string } }>;
  sessions: SessionsScan;
}

/** The stat-only pass over the input's roots and (unless `sessions: false`) the sessions folders, against the index. */
export function indexScan(db: Database.Database, input: IndexScanInput): IndexScanResult {
  const roots = input.roots.map((r) => {
    try {
      return scanRoot(db, r.version, r.path);
    } catch (error) {
      const e = error as { message: string; kind?: string; path?: string; hint?: string };
      return { version: r.version, error: { message: e.message, kind: e.kind, path: e.path, hint: e.hint } };
    }
  });
  const sessions =
    input.sessions === false
      ? { listing: { files: [], skipped: [] }, changed: [], removed: 0, stamps: new Map() }
      : scanSessions(db, input.codexHome);
  return { roots, sessions };
}

export function indexScanTask(input: IndexScanInput): IndexScanResult {
  return indexScan(threadConnection(input.dbPath, input.options), input);
}

export type IndexUpdateInput = {
  dbPath: string;
  options?: OpenOptions;
} & ({ version: MemoryVersion; root: string; paths: string[] } | { sessions: SessionFile[]; stamps: Map<string, Stamp> });

export interface IndexUpdateResult {
  written: number;
}

export async function indexUpdate(db: Database.Database, input: IndexUpdateInput, context: TaskContext): Promise<IndexUpdateResult> {
  let done = 0;
  const update = {
    cancelled: () => context.cancelled(),
    onFile: () => done++ % 25 === 24 && context.emit({ type: 'progress', message: 'indexing', done: 25 }),
  };
  // The analysers (parsers, lint, tokenizer) load only when a file changed: a warm run never needs them.
  const { updateFiles, updateSessions } = await import('./update.js');
  const written =
    'sessions' in input
      ? await updateSessions(db, input.sessions, input.stamps, update)
      : updateFiles(db, input.version, input.root, input.paths, update);
  context.emit({ type: 'progress', message: 'indexing', done: done % 25 });
  context.throwIfCancelled();
  return { written };
}

export function indexUpdateTask(input: IndexUpdateInput, context: TaskContext): Promise<IndexUpdateResult> {
  return indexUpdate(threadConnection(input.dbPath, input.options), input, context);
}

export interface IndexAnswersInput {
  dbPath: string;
  home: HomeInfo;
  scan: IndexScanResult;
  options?: OpenOptions;
}

/** After a refresh, on a worker: every root's lint and rollout table worked out and kept, so requests only read them. */
export async function indexAnswersTask(input: IndexAnswersInput): Promise<void> {
  const [{ indexedHome }, { precomputeAnswers }] = await Promise.all([import('./indexed-home.js'), import('./inspect.js')]);
  await precomputeAnswers(indexedHome(threadConnection(input.dbPath, input.options), input.home, input.scan, true));
}
