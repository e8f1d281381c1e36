// Where each session shows in its memory root: its rollout summary and the lines of MEMORY.md, memory_summary.md and
// skills that name it, found in one pass over those files (a heavy root has a 5.6 MB MEMORY.md and 4,000 summaries).
import { join } from 'node:path';
import type { CoveragePresence } from '../../../shared/coverage';
import type { FileEntry, FileKind, HomeInfo, MemoryVersion } from '../../../shared/domain';
import { FILES } from '../codex/constants';
import { readSummaryHead } from '../codex/summary-head';
import { createRootReader, listMemoryRoot } from '../codex/workspace';
import { expectedStemPrefix, ROLLOUT_SUMMARY_NAME, uuidV7Millis } from '../formats/names';
import { rolloutSummaryStem, sanitizeRolloutSlug } from '../formats/phase2-files';
import type { OutputRow } from './read';

/** The files whose lines may name a session (rollout summaries are the sessions' own, raw memories are regenerated). */
const NAMING_KINDS: ReadonlySet<FileKind> = new Set(['summary', 'memory', 'skill', 'skill-file']);
const SUMMARY_DIR = `${FILES.rolloutSummariesDir}/`;

export interface PresenceThread {
  id: string;
  updatedAt: number | null;
}

/** Thread id → the `<ts>-<hash4>` prefixes its summary may have. */
type Prefixes = ReadonlyMap<string, readonly string[]>;

const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());

/** The `<ts>-<hash4>` prefixes Codex may have given the thread's summary: from a v7 id, else from its stage-1 rows. */
function prefixesOf(thread: PresenceThread, output: OutputRow | undefined): string[] {
  // A version-7 id carries its own time: the stem's prefix depends on nothing else.
  const own = uuidV7Millis(thread.id) !== null ? expectedStemPrefix(thread.id, null) : null;
  if (own) return [own];
  const out = new Set<string>();
  for (const at of [output?.selectedSourceUpdatedAt ?? null, output?.sourceUpdatedAt ?? null, thread.updatedAt]) {
    const prefix = at === null ? null : expectedStemPrefix(thread.id, iso(at));
    if (prefix) out.add(prefix);
  }
  return [...out];
}

const stemOf = (relPath: string) => relPath.slice(SUMMARY_DIR.length, -'.md'.length);

interface Matching {
  /** Thread id → its summary's root-relative path. */
  summaryOf: Map<string, string>;
  /** Summaries no thread claimed by name alone (collisions, other names): their headers decide. */
  undecided: FileEntry[];
}

/** Summaries matched to threads by the name Codex gives them (`rollout_summary_file_stem`): no file read. */
function matchByName(
  summaries: readonly FileEntry[],
  threads: readonly PresenceThread[],
  outputs: ReadonlyMap<string, OutputRow>,
  prefixes: Prefixes,
): Matching {
  const byPrefix = new Map<string, FileEntry[]>();
  const unnamed: FileEntry[] = [];
  for (const file of summaries) {
    const m = ROLLOUT_SUMMARY_NAME.exec(file.path.slice(SUMMARY_DIR.length));
    if (!m) {
      unnamed.push(file);
      continue;
    }
    const prefix = `${m[1]}-${m[2]}`;
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), file]);
  }
  const summaryOf = new Map<string, string>();
  const claimed = new Map<string, number>();
  const wanted = new Map<string, FileEntry[]>();
  for (const thread of threads) {
    const output = outputs.get(thread.id);
    const candidates = [...new Set((prefixes.get(thread.id) ?? []).flatMap((p) => byPrefix.get(p) ?? []))];
    if (candidates.length === 0) continue;
    const slug = output?.rolloutSlug ? sanitizeRolloutSlug(output.rolloutSlug) : null;
    const bySlug = slug ? candidates.filter((f) => stemOf(f.path).endsWith(`-${slug}`)) : [];
    const pick = candidates.length === 1 ? candidates : bySlug.length === 1 ? bySlug : [];
    wanted.set(thread.id, pick);
    for (const f of pick) claimed.set(f.path, (claimed.get(f.path) ?? 0) + 1);
  }
  // A file two threads want by name (a hash collision) is left to its header, as are the files no thread wants.
  for (const [id, pick] of wanted) {
    const file = pick[0];
    if (file && claimed.get(file.path) === 1) summaryOf.set(id, file.path);
  }
  const decided = new Set(summaryOf.values());
  return { summaryOf, undecided: [...unnamed, ...[...byPrefix.values()].flat().filter((f) => !decided.has(f.path))] };
}

/** The rest by their `thread_id:` header (the first 8 KiB of each, through the shared head cache). */
async function matchByHeader(root: string, matching: Matching, known: ReadonlyMap<string, string>): Promise<void> {
  for (const file of matching.undecided) {
    let threadId: string | null = null;
    try {
      const { header } = await readSummaryHead(join(root, ...file.path.split('/')), file.path, file);
      threadId = known.get(header?.threadId?.trim().toLowerCase() ?? '') ?? null;
    } catch {
      continue; // Gone or unreadable since the listing: it names nothing.
    }
    if (threadId && !matching.summaryOf.has(threadId)) matching.summaryOf.set(threadId, file.path);
  }
}

/** Thread ids as they are, and rollout summary stems (`<ts>-<hash4>[-<slug>]`), in one scan of a file's text. */
const TOKEN =
  /([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})|(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9A-Za-z]{4}(?:-[a-z0-9_]{1,60})?)/g;

/** What a token names: a thread by its id, or by its summary's stem (whole, else its `<ts>-<hash4>` prefix when unique). */
function nameIndex(
  threads: readonly PresenceThread[],
  outputs: ReadonlyMap<string, OutputRow>,
  summaryOf: ReadonlyMap<string, string>,
  threadPrefixes: Prefixes,
): (token: RegExpExecArray) => string | undefined {
  const ids = new Map(threads.map((t) => [t.id.toLowerCase(), t.id]));
  const stems = new Map<string, string>();
  const prefixes = new Map<string, string | null>();
  for (const thread of threads) {
    for (const p of threadPrefixes.get(thread.id) ?? [])
      prefixes.set(p, prefixes.has(p) && prefixes.get(p) !== thread.id ? null : thread.id);
    const output = outputs.get(thread.id);
    // The stem of its current output (the summary's file once Codex selects it), when no summary file was found.
    if (output?.sourceUpdatedAt != null && !summaryOf.has(thread.id))
      stems.set(rolloutSummaryStem(thread.id, output.sourceUpdatedAt, output.rolloutSlug), thread.id);
  }
  for (const [id, path] of summaryOf) stems.set(stemOf(path), id);
  return (token) => {
    if (token[1] !== undefined) return ids.get(token[1].toLowerCase());
    const stem = token[2] ?? '';
    return stems.get(stem) ?? prefixes.get(stem.slice(0, 24)) ?? undefined;
  };
}

/** Adds, per thread the text names, the number of its lines that name it (one regex pass, lines counted as it goes). */
function countLines(
  text: string,
  relPath: string,
  names: (token: RegExpExecArray) => string | undefined,
  counts: Map<string, Map<string, number>>,
): void {
  const lastLine = new Map<string, number>();
  let line = 0;
  let pos = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    for (let nl = text.indexOf('\n', pos); nl !== -1 && nl < m.index; nl = text.indexOf('\n', pos)) {
      line++;
      pos = nl + 1;
    }
    const id = names(m);
    if (id === undefined || lastLine.get(id) === line) continue;
    lastLine.set(id, line);
    const perFile = counts.get(id) ?? new Map<string, number>();
    perFile.set(relPath, (perFile.get(relPath) ?? 0) + 1);
    counts.set(id, perFile);
  }
}

/** Lines per (thread, file), reading each naming file once. */
async function countNamingLines(
  root: string,
  version: MemoryVersion,
  files: readonly FileEntry[],
  names: (token: RegExpExecArray) => string | undefined,
): Promise<Map<string, Map<string, number>>> {
  const read = createRootReader(root, version);
  const counts = new Map<string, Map<string, number>>();
  for (const file of files) {
    let text: string;
    try {
      text = (await read(file)).content;
    } catch {
      continue; // Binary, invalid UTF-8, too big or gone: it names nothing the ledger can show.
    }
    countLines(text, file.path, names, counts);
  }
  return counts;
}

/** The root's files that matter here (no symlinks); an absent, symlinked or unlistable root has none. */
export async function listPresenceFiles(home: HomeInfo, version: MemoryVersion, nowSec: number): Promise<FileEntry[]> {
  const root = home.roots.find((r) => r.version === version);
  if (!root?.exists || root.isSymlink) return [];
  try {
    const files = (await listMemoryRoot(root.path, version, nowSec)).files;
    return files.filter((f) => !f.symlink && (f.kind === 'rollout-summary' || NAMING_KINDS.has(f.kind)));
  } catch {
    return [];
  }
}

/** Every session's presence in the version's root, from its listed files (`listPresenceFiles`). */
export async function readPresence(
  home: HomeInfo,
  version: MemoryVersion,
  files: readonly FileEntry[],
  threads: readonly PresenceThread[],
  outputs: ReadonlyMap<string, OutputRow>,
): Promise<Map<string, CoveragePresence>> {
  const out = new Map<string, CoveragePresence>();
  const root = home.roots.find((r) => r.version === version);
  const prefixes = new Map(threads.map((t) => [t.id, prefixesOf(t, outputs.get(t.id))]));
  const matching = matchByName(
    files.filter((f) => f.kind === 'rollout-summary'),
    threads,
    outputs,
    prefixes,
  );
  if (root && matching.undecided.length > 0)
    await matchByHeader(root.path, matching, new Map(threads.map((t) => [t.id.toLowerCase(), t.id])));
  const names = nameIndex(threads, outputs, matching.summaryOf, prefixes);
  const counts = root
    ? await countNamingLines(
        root.path,
        version,
        files.filter((f) => NAMING_KINDS.has(f.kind)),
        names,
      )
    : new Map<string, Map<string, number>>();
  for (const thread of threads) {
    const perFile = counts.get(thread.id);
    const namedIn = perFile
      ? [...perFile].map(([relPath, lines]) => ({ relPath, lines })).sort((a, b) => (a.relPath < b.relPath ? -1 : 1))
      : [];
    out.set(thread.id, { rolloutSummary: matching.summaryOf.get(thread.id) ?? null, namedIn });
  }
  return out;
}
