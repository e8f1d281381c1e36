// Links memory to sessions: usage per file and range, pointer -> rollout summary -> session, cited-by and never-cited.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileKind, HomeInfo, MemoryVersion } from '../../../shared/domain';
import type {
  CitedByEntry,
  NeverCitedFile,
  NeverCitedReport,
  PointerResolution,
  SummaryHeader,
  UsageReport,
} from '../../../shared/provenance';
import { ROOT_DIRS } from '../codex/constants';
import { referencedPath } from '../codex/references';
import { readSummaryHead } from '../codex/summary-head';
import { StudioFailure } from '../platform/errors';
import { resolveInsideRoot } from '../platform/safe-path';
import { classifyPath, listMemoryRoot } from '../codex/workspace';
import { attributeAll, stripRootPrefix, type AttributedBlock } from './attribution';
import { canonicalThreadId } from './citations';
import { locateSession } from './session-index';
import { mapLimit } from '../platform/map-limit';
import { scanAllSessions, type ScanAllResult } from './session-scan';
import { readAllDbUsage } from './usage-aggregate';
import { usageReport } from './usage-report';

export { usageReport } from './usage-report';

export interface UsageOptions {
  now?: Date;
  concurrency?: number;
}

interface Citations {
  scanned: ScanAllResult;
  blocks: AttributedBlock[];
}

async function citations(home: HomeInfo, options: UsageOptions = {}): Promise<Citations> {
  const scanned = await scanAllSessions(home.codexHome, options.concurrency);
  return { scanned, blocks: await attributeAll(home, scanned.scans) };
}

/** Every session's citation blocks folded per memory file and line range, plus Codex's usage counters per thread. */
/** Calls for the same home while one is running share it: a cold scan of thousands of sessions is done once. */
const inFlight = new Map<string, Promise<UsageReport>>();

export function collectUsage(home: HomeInfo, options: UsageOptions = {}): Promise<UsageReport> {
  if (options.now !== undefined || options.concurrency !== undefined) return collectUsageNow(home, options);
  const key = `${home.codexHome}\0${home.sqliteHome}`;
  let running = inFlight.get(key);
  if (!running) {
    running = collectUsageNow(home, options).finally(() => inFlight.delete(key));
    inFlight.set(key, running);
  }
  return running;
}

async function collectUsageNow(home: HomeInfo, options: UsageOptions): Promise<UsageReport> {
  const started = performance.now();
  const [{ scanned, blocks }, db] = await Promise.all([citations(home, options), readAllDbUsage(home)]);
  return usageReport(scanned, blocks, db, options.now, started);
}

function rootOf(home: HomeInfo, version: MemoryVersion): { path: string; exists: boolean; isSymlink: boolean } {
  return (
    home.roots.find((r) => r.version === version) ?? { path: join(home.codexHome, ROOT_DIRS[version]), exists: false, isSymlink: false }
  );
}

/** `rollout_summaries/<file>` from what a pointer or a person gives: a bare file name, a root-prefixed or relative path. */
export function normalizeSummaryPath(home: HomeInfo, input: string): string {
  const path = referencedPath(stripRootPrefix(home, input.trim()).path);
  if (path === null) {
    throw new StudioFailure('Invalid', `"${input}" is not a rollout summary path.`, {
      path: input,
      hint: 'Pointers name files as rollout_summaries/<file>.md.',
    });
  }
  return path;
}

async function safeHeader(root: string, rel: string): Promise<{ exists: boolean; header: SummaryHeader | null; note: string | null }> {
  try {
    const abs = await resolveInsideRoot(root, rel, { mustExist: true });
    return { exists: true, header: (await readSummaryHead(abs)).header, note: null };
  } catch (error) {
    if (error instanceof StudioFailure && error.kind === 'NotFound') return { exists: false, header: null, note: null };
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, header: null, note: null };
    return { exists: false, header: null, note: (error as Error).message };
  }
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * A pointer (`rollout_summaries/<file>`) to its summary, the summary's `thread_id:` header, and that thread's
 * session: the catalog's rollout_path, else a file-name scan of sessions/ and archived_sessions/, else the
 * summary's own `rollout_path:` line. Refuses paths that are not rollout summaries inside the root.
 */
export async function resolvePointer(
  home: HomeInfo,
  version: MemoryVersion,
  rolloutSummaryFile: string,
  options: { threadIdHint?: string } = {},
): Promise<PointerResolution> {
  const file = normalizeSummaryPath(home, rolloutSummaryFile);
  const root = rootOf(home, version);
  const { exists, header, note } = await safeHeader(root.path, file);
  const notes = note ? [note] : [];
  const fromHeader = header?.threadId ? (canonicalThreadId(header.threadId) ?? header.threadId) : null;
  const hint = options.threadIdHint ? (canonicalThreadId(options.threadIdHint) ?? options.threadIdHint) : null;
  if (fromHeader && hint && fromHeader !== hint)
    notes.push(`The pointer names thread ${hint} but the summary's header says ${fromHeader}; the header wins.`);
  if (exists && !fromHeader) notes.push('The summary has no thread_id header line.');
  const threadId = fromHeader ?? hint;
  const result: PointerResolution = {
    version,
    file,
    exists,
    header,
    threadId,
    threadIdFrom: fromHeader ? 'header' : hint ? 'hint' : null,
    sessionPath: null,
    sessionVia: null,
    sessionExists: false,
    dbRolloutPath: null,
    notes,
  };
  if (!threadId) return result;
  const location = await locateSession(home, threadId);
  result.dbRolloutPath = location.dbRolloutPath;
  if (location.path) Object.assign(result, { sessionPath: location.path, sessionVia: location.via, sessionExists: true });
  else if (header?.rolloutPath && (await isFile(header.rolloutPath)))
    Object.assign(result, { sessionPath: header.rolloutPath, sessionVia: 'summary-header', sessionExists: true });
  if (location.dbRolloutPath && location.via === 'scan')
    notes.push(`The catalog's rollout_path ${location.dbRolloutPath} no longer exists; found the session by its file name.`);
  if (!result.sessionExists) notes.push(`No session file for thread ${threadId} under sessions/ or archived_sessions/.`);
  return result;
}

function byTimeDesc(a: CitedByEntry, b: CitedByEntry): number {
  const ta = a.time?.seconds ?? -Infinity;
  const tb = b.time?.seconds ?? -Infinity;
  return tb - ta || (a.sessionPath < b.sessionPath ? -1 : a.sessionPath > b.sessionPath ? 1 : 0) || a.line - b.line;
}

/** Summary thread id for a rollout-summary path (null for anything else or when unreadable). */
async function summaryThreadId(home: HomeInfo, version: MemoryVersion, path: string): Promise<string | null> {
  if (classifyPath(path) !== 'rollout-summary') return null;
  const { header } = await safeHeader(rootOf(home, version).path, path);
  return header?.threadId ? (canonicalThreadId(header.threadId) ?? header.threadId) : null;
}

/** Sessions that cited `path` in `version`'s root: by a citation entry, or (rollout summaries) by the thread id. */
export async function citedBy(home: HomeInfo, version: MemoryVersion, path: string, options: UsageOptions = {}): Promise<CitedByEntry[]> {
  const target = stripRootPrefix(home, path).path;
  const [{ blocks }, threadId] = await Promise.all([citations(home, options), summaryThreadId(home, version, target)]);
  const out: CitedByEntry[] = [];
  for (const block of blocks) {
    const base = {
      threadId: block.scan.threadId ?? '',
      sessionPath: block.scan.path,
      time: block.citation.time,
      line: block.citation.line,
    };
    const hits = block.entries.filter((e) => e.version === version && e.path === target);
    for (const e of hits) out.push({ ...base, via: 'entry', lineStart: e.entry.lineStart, lineEnd: e.entry.lineEnd, note: e.entry.note });
    if (hits.length === 0 && threadId && block.version === version && block.threadIds.includes(threadId)) {
      out.push({ ...base, via: 'rollout_id', lineStart: null, lineEnd: null, note: null });
    }
  }
  return out.sort(byTimeDesc);
}

/** Thread id of a summary the root listing found (inside the root, not a symlink), using the listing's stat. */
async function listedSummaryThreadId(root: string, file: { path: string; size: number; mtimeMs: number }): Promise<string | null> {
  try {
    const { header } = await readSummaryHead(join(root, ...file.path.split('/')), file.path, file);
    return header?.threadId ? (canonicalThreadId(header.threadId) ?? header.threadId) : null;
  } catch {
    return null; // Removed since the listing: it is not there to be "never cited".
  }
}

/** What the read path can cite: the handbook, rollout summaries and skills (inputs such as notes are never cited). */
export const CITABLE_KINDS: readonly FileKind[] = ['memory', 'rollout-summary', 'skill', 'skill-file'];

/** Citable files of `version`'s root that no session ever cited, whose thread no block named and the DB never counted. */
export async function neverCited(home: HomeInfo, version: MemoryVersion, options: UsageOptions = {}): Promise<NeverCitedReport> {
  const root = rootOf(home, version);
  const report: NeverCitedReport = { version, consideredKinds: [...CITABLE_KINDS], considered: 0, files: [], problems: [] };
  if (!root.exists) return report;
  const [list, { blocks }, db] = await Promise.all([listMemoryRoot(root.path, version), citations(home, options), readAllDbUsage(home)]);
  report.problems = db.problems;
  const citedPaths = new Set<string>();
  const citedIds = new Set<string>();
  for (const block of blocks) {
    for (const e of block.entries) if (e.version === version) citedPaths.add(e.path);
    if (block.version === version) for (const id of block.threadIds) citedIds.add(id);
  }
  const usage = db.usage.get(version);
  const candidates = list.files.filter((f) => !f.symlink && CITABLE_KINDS.includes(f.kind));
  report.considered = candidates.length;
  const checked = await mapLimit(candidates, 64, async (f): Promise<NeverCitedFile | null> => {
    if (citedPaths.has(f.path)) return null;
    const threadId = f.kind === 'rollout-summary' ? await listedSummaryThreadId(root.path, f) : null;
    const dbUsageCount = threadId ? (usage?.get(threadId)?.usageCount ?? null) : null;
    if (threadId && (citedIds.has(threadId) || (dbUsageCount ?? 0) > 0)) return null;
    return { path: f.path, kind: f.kind, size: f.size, mtimeMs: f.mtimeMs, threadId, dbUsageCount };
  });
  report.files = checked.filter((f): f is NeverCitedFile => f !== null);
  return report;
}
