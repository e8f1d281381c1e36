// The doctor on the host's refreshed index: each root's listing from its walk, the rollout summaries' heads from its
// facts, the budget's token counts from its cache, and the files' part (entries, duplicate clusters, the budget's cut)
// kept in it by the memory files' SHA-256, so a warm run reads and parses none of them again.
import { createHash } from 'node:crypto';
import type { Finding } from '../../../shared/doctor';
import type { FileEntry, MemoryVersion } from '../../../shared/domain';
import type { SummaryHead } from '../inspect/summary-heads';
import { codexCache, factsOf, fileHash } from '../index-store/read';
import { threadConnection } from '../index-store/tasks';
import { indexTokenCounter } from '../index-store/token-cache';
import { saveCodexCache } from '../index-store/write';
import { findSecretSpans } from '../lint/secrets';
import { DOCTOR_FILES, type EntryModel } from '../review/blocks/entries';
import type { AnalyzeInput, FilesPart, RootRead } from './analyze';
import type { ClusterPlaces } from './duplicates';

/** What a host with a refreshed index hands the analysis: the index file and each root's listing from its walk. */
export interface DoctorIndex {
  path: string;
  files: Partial<Record<MemoryVersion, FileEntry[]>>;
}

export type HeadsOf = (files: readonly FileEntry[]) => SummaryHead[];

/** Bumped when what is kept changes shape (the analysis code itself is in the index's fingerprint). */
const KEPT_FORMAT = 1;
const KEY = 'doctor-files';

interface Kept {
  roots: { version: MemoryVersion; path: string; models: EntryModel[] }[];
  clusters: ClusterPlaces[];
  oversize: Finding[];
}

/** The rollout summaries' heads from the index's facts (what `readSummaryHeads` reads), or undefined to read them. */
export function indexHeads(path: string, version: MemoryVersion): HeadsOf | undefined {
  let db: ReturnType<typeof threadConnection>;
  try {
    db = threadConnection(path);
  } catch {
    return undefined; // an index this thread cannot open: the heads are read from the files
  }
  return (files) =>
    files.map((file) => {
      const f = file.symlink ? undefined : factsOf(db, version, file.path);
      return { file, header: f?.header ?? null, title: f?.title ?? null };
    });
}

/** What the files' part depends on: the roots, the limit and each memory file's bytes; null when the index lacks one. */
function signatureOf(db: ReturnType<typeof threadConnection>, input: AnalyzeInput, index: DoctorIndex): string | null {
  const parts = [`${KEPT_FORMAT}`, JSON.stringify(input.roots), `${input.limitTokens ?? ''}`];
  for (const { version } of input.roots) {
    const files = index.files[version];
    if (!files) return null;
    for (const file of DOCTOR_FILES) {
      if (!files.some((f) => f.path === file && !f.symlink)) {
        parts.push(`${version}/${file}:-`);
        continue;
      }
      const row = fileHash(db, version, file);
      if (!row || row.status !== 'ok' || !row.sha256) return null;
      parts.push(`${version}/${file}:${row.sha256}`);
    }
  }
  return parts.join('|');
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Kept only when it is exactly what the signature says (every text read is the bytes the index hashed, nothing failed)
 * and holds no secret: the data folder keeps no secret in clear, and the entries carry the files' lines.
 */
function keepable(part: FilesPart, notes: readonly string[], signature: string): boolean {
  if (notes.length > 0) return false;
  for (const root of part.roots)
    for (const [file, text] of root.texts) {
      if (!signature.includes(`${root.version}/${file}:${sha256(text)}`)) return false;
      if (findSecretSpans(text).length > 0) return false;
    }
  return true;
}

/** The files' part from the index when it keeps it for these bytes, else made from the files (and kept). */
export async function indexedFilesPart(
  input: AnalyzeInput,
  index: DoctorIndex,
  notes: string[],
  make: (input: AnalyzeInput, notes: string[], countTokens?: (text: string) => number) => Promise<FilesPart>,
): Promise<FilesPart> {
  let db: ReturnType<typeof threadConnection> | null = null;
  let signature: string | null = null;
  try {
    db = threadConnection(index.path);
    signature = signatureOf(db, input, index);
    const kept = signature === null ? undefined : codexCache<Kept>(db, KEY, signature);
    if (kept) {
      const roots: RootRead[] = kept.roots.map((r) => ({ ...r, files: index.files[r.version] ?? [], summary: null, texts: new Map() }));
      return { roots, clusters: kept.clusters, oversize: kept.oversize };
    }
  } catch {
    // An index that cannot be read here only loses the memo: the files are read as without it.
  }
  const part = await make(input, notes, indexTokenCounter(index.path));
  if (db && signature !== null && keepable(part, notes, signature)) {
    const kept: Kept = {
      roots: part.roots.map((r) => ({ version: r.version, path: r.path, models: r.models })),
      clusters: part.clusters,
      oversize: part.oversize,
    };
    try {
      saveCodexCache(db, KEY, signature, kept);
    } catch {
      // A busy or full index only loses the memo.
    }
  }
  return part;
}
