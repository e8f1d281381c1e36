// A fast pass over rollouts for provenance: metadata and memory citations only, cached by (path, mtime, size).
import { stat } from 'node:fs/promises';
import { sep } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import type { UnixTime } from '../../../shared/health';
import type { SessionCitation } from '../../../shared/sessions';
import { canonicalThreadId } from './citations';
import { readLines } from './line-reader';
import { citationOf, interpretLine, MARKERS, type SessionMeta } from './rollout-lines';
import { mapLimit } from '../platform/map-limit';
import { listSessionFiles, type SessionFile } from './session-files';

export interface SessionScan {
  path: string;
  archived: boolean;
  size: number;
  mtimeMs: number;
  /** session_meta's id (canonical form), else the file name's UUID. */
  threadId: string | null;
  cwd: string | null;
  startedAt: UnixTime | null;
  /** The memory root the session's read-path prompt names, when the rollout contains it. */
  versionHint: MemoryVersion | null;
  citations: SessionCitation[];
  error: string | null;
}

export interface ScanAllResult {
  scans: SessionScan[];
  skipped: Array<{ path: string; reason: string }>;
  cacheHits: number;
}

/** A session_meta line can carry base instructions (tens of KiB); anything past this is not worth parsing for metadata. */
const META_LINE_CAP = 4 * 1024 * 1024;
/** Assistant lines with a citation can be long (the whole reply); past this the line is skipped. */
const CITATION_LINE_CAP = 16 * 1024 * 1024;

const cache = new Map<string, { size: number; mtimeMs: number; scan: SessionScan }>();

/** Forget every cached scan (tests; or after a home switch to free memory). */
export function clearSessionScanCache(): void {
  cache.clear();
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

function scanLine(scan: SessionScan, state: { meta: SessionMeta | null }, lineNo: number, bytes: Buffer | null): void {
  if (!bytes || bytes.length === 0) return;
  if (scan.versionHint === null) {
    if (bytes.includes(MARKERS.v2Summary)) scan.versionHint = 'v2';
    else if (bytes.includes(MARKERS.v1Summary)) scan.versionHint = 'v1';
  }
  if (!state.meta && (lineNo === 1 || bytes.includes(MARKERS.sessionMeta)) && bytes.length <= META_LINE_CAP) {
    const line = interpretLine(parseJson(bytes), lineNo);
    if (line.kind === 'meta') {
      state.meta = line.meta;
      return;
    }
  }
  if (bytes.length > CITATION_LINE_CAP || (!bytes.includes(MARKERS.citation) && !bytes.includes(MARKERS.webCitation))) return;
  const line = interpretLine(parseJson(bytes), lineNo);
  if (line.kind !== 'assistant') return;
  const citation = citationOf(line.text, lineNo, line.time);
  if (citation) scan.citations.push({ line: citation.line, time: citation.time, entries: citation.entries, threadIds: citation.threadIds });
}

/** Scans one rollout now, whatever the cache holds (the index keeps its own record per size and mtime). */
export async function scanFile(file: SessionFile, size: number, mtimeMs: number): Promise<SessionScan> {
  const scan: SessionScan = {
    path: file.path,
    archived: file.archived,
    size,
    mtimeMs,
    threadId: file.threadId,
    cwd: null,
    startedAt: null,
    versionHint: null,
    citations: [],
    error: null,
  };
  const state: { meta: SessionMeta | null } = { meta: null };
  try {
    await readLines(file.path, (lineNo, bytes) => scanLine(scan, state, lineNo, bytes));
  } catch (error) {
    scan.error = (error as Error).message;
  }
  if (state.meta) {
    scan.threadId = (state.meta.id ? (canonicalThreadId(state.meta.id) ?? state.meta.id) : null) ?? file.threadId;
    scan.cwd = state.meta.cwd;
    scan.startedAt = state.meta.startedAt;
  }
  return scan;
}

/** One file's scan, from the cache when its size and mtime are unchanged. */
export async function scanSessionFile(file: SessionFile): Promise<{ scan: SessionScan; cached: boolean }> {
  let info;
  try {
    info = await stat(file.path);
  } catch (error) {
    const scan: SessionScan = {
      path: file.path,
      archived: file.archived,
      size: 0,
      mtimeMs: 0,
      threadId: file.threadId,
      cwd: null,
      startedAt: null,
      versionHint: null,
      citations: [],
      error: (error as Error).message,
    };
    return { scan, cached: false };
  }
  const hit = cache.get(file.path);
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) return { scan: hit.scan, cached: true };
  const scan = await scanFile(file, info.size, info.mtimeMs);
  if (!scan.error) cache.set(file.path, { size: info.size, mtimeMs: info.mtimeMs, scan });
  return { scan, cached: false };
}

/** Scans every rollout of the home (bounded concurrency) and drops cache entries for files that are gone. */
export async function scanAllSessions(codexHome: string, concurrency = 64): Promise<ScanAllResult> {
  const listing = await listSessionFiles(codexHome);
  let cacheHits = 0;
  const scans = await mapLimit(listing.files, concurrency, async (file) => {
    const { scan, cached } = await scanSessionFile(file);
    if (cached) cacheHits++;
    return scan;
  });
  const present = new Set(listing.files.map((f) => f.path));
  const prefix = codexHome.endsWith(sep) ? codexHome : `${codexHome}${sep}`;
  for (const key of cache.keys()) if (key.startsWith(prefix) && !present.has(key)) cache.delete(key);
  return { scans, skipped: listing.skipped, cacheHits };
}
