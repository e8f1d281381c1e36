// The input preview of a consolidation: what Codex's Phase 2 would read and sync, hand edits since the baseline, tokens and the lease.
import { appendAll } from '../platform/append';
import { type Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineName, InputCount, InputPreview, InputSecret, SelectedInput } from '../../../shared/consolidate';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { sinceBaseline } from '../history/baseline';
import { countO200kTokens } from '../budget';
import { FILES, ROOT_DIRS, isBaselineDirName } from '../codex/constants';
import { describeFileType, NO_CAP, readRegularFile } from '../platform/regular-file';
import { renderRawMemoriesFile, renderRolloutSummaryFile, rolloutSummaryFileName, rolloutSummaryStem } from '../formats/phase2-files';
import { readLeaseView } from './lease-view';
import { inputSecret, secretsInFiles } from './preview-secrets';
import { selectPhase2Inputs } from './select';
import { expiredExtensionResources } from './stage';
import type { Phase2Selection } from './types';

export interface PreviewOptions {
  engine: EngineName;
  model: string | null;
  nowSec: number;
}

const EXT = FILES.extensionsDir;
const AD_HOC_NOTES = `${EXT}/ad_hoc/notes`;
const IMPORT_EXT = 'external_agent_import';
/** Texts up to this size are tokenized with o200k; bigger ones (and everything past the total) use bytes/4. */
const TOKENIZE_MAX_BYTES = 64 * 1024;
const TOKENIZE_TOTAL_BYTES = 512 * 1024;

interface FileInfo {
  path: string;
  bytes: number;
}

/**
 * Regular files under `rel` (recursively, no symlinks), root-relative; empty when the folder does not exist. A FIFO,
 * socket or device is noted (a run refuses to start while one is in the folder).
 */
async function filesUnder(root: string, rel: string, recursive: boolean, notes: string[]): Promise<FileInfo[]> {
  const out: FileInfo[] = [];
  const pending = [rel];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const entries: Dirent[] = await readdir(join(root, dir), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory() && recursive && !isBaselineDirName(e.name)) pending.push(path);
      else if (e.isFile()) out.push({ path, bytes: (await lstat(join(root, path)).catch(() => null))?.size ?? 0 });
      else if (!e.isDirectory() && !e.isSymbolicLink()) notes.push(notReadNote(path, describeFileType(e)));
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const count = (files: FileInfo[]): InputCount => ({
  count: files.length,
  bytes: files.reduce((n, f) => n + f.bytes, 0),
  paths: files.map((f) => f.path),
});

const notReadNote = (path: string, what: string) =>
  `${path} is ${what}, not a regular file: it is not read, and a consolidation does not run while it is in the folder.`;

/** Extension resources (`extensions/<ext>/resources/**`), imports apart from the others. */
async function extensionInputs(root: string, notes: string[]): Promise<{ resources: FileInfo[]; imports: FileInfo[]; projects: string[] }> {
  const exts = await readdir(join(root, EXT), { withFileTypes: true }).catch(() => [] as Dirent[]);
  const resources: FileInfo[] = [];
  let imports: FileInfo[] = [];
  for (const ext of exts.filter((e) => e.isDirectory())) {
    const files = await filesUnder(root, `${EXT}/${ext.name}/resources`, true, notes);
    if (ext.name === IMPORT_EXT) imports = files;
    else appendAll(resources, files);
  }
  const projectDirs = await readdir(join(root, EXT, IMPORT_EXT, 'resources'), { withFileTypes: true }).catch(() => [] as Dirent[]);
  const projects = projectDirs
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return { resources, imports, projects };
}

/** Tokens of texts: o200k for small ones while the total allows, bytes/4 (Codex's own estimate) otherwise. */
function estimateTokens(texts: Array<string | { bytes: number }>): number {
  let tokenized = 0;
  let total = 0;
  for (const t of texts) {
    const bytes = typeof t === 'string' ? Buffer.byteLength(t, 'utf8') : t.bytes;
    if (typeof t === 'string' && bytes <= TOKENIZE_MAX_BYTES && tokenized + bytes <= TOKENIZE_TOTAL_BYTES) {
      tokenized += bytes;
      total += countO200kTokens(t);
    } else total += Math.ceil(bytes / 4);
  }
  return total;
}

/** The text of a small input (its size alone past TOKENIZE_MAX_BYTES); a file that is not a regular file is noted. */
async function readSmall(root: string, info: FileInfo, notes: string[]): Promise<string | { bytes: number }> {
  if (info.bytes > TOKENIZE_MAX_BYTES) return { bytes: info.bytes };
  return readRegularFile(join(root, info.path), info.path, NO_CAP).then(
    (file) => file.bytes.toString('utf8'),
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') notes.push(error.message);
      return { bytes: info.bytes };
    },
  );
}

function selectedInputs(selection: Phase2Selection): { rows: SelectedInput[]; texts: string[]; secrets: InputSecret[] } {
  const texts: string[] = [];
  const secrets: InputSecret[] = [];
  const rows = selection.rows.map((r) => {
    const text = renderRolloutSummaryFile(r);
    texts.push(text);
    const found = inputSecret(`${FILES.rolloutSummariesDir}/${rolloutSummaryFileName(r)}`, text);
    if (found) secrets.push(found);
    return {
      threadId: r.threadId,
      stem: rolloutSummaryStem(r.threadId, r.sourceUpdatedAt, r.rolloutSlug),
      sourceUpdatedAt: r.sourceUpdatedAt,
      usageCount: r.usageCount,
      lastUsage: r.lastUsage,
      cwd: r.cwd,
      bytes: Buffer.byteLength(text, 'utf8'),
      previouslySelected: r.selectedForPhase2 && r.selectedForPhase2SourceUpdatedAt === r.sourceUpdatedAt,
    };
  });
  if (selection.version === 'v1') {
    const raw = renderRawMemoriesFile(selection.rows);
    texts.push(raw);
    const found = inputSecret(FILES.rawMemories, raw);
    if (found) secrets.push(found);
  }
  return { rows, texts, secrets };
}

/** `rollout_summaries/*.md` the sync would write anew, and those it would delete, against the live root. */
async function summaryDelta(root: string, selection: Phase2Selection): Promise<{ added: string[]; removed: string[] }> {
  const entries = await readdir(join(root, FILES.rolloutSummariesDir), { withFileTypes: true }).catch(() => [] as Dirent[]);
  const live = new Set(entries.filter((e) => !e.isDirectory() && e.name.endsWith('.md')).map((e) => e.name));
  const keep = new Set(selection.rows.map((r) => rolloutSummaryFileName(r)));
  const dir = (name: string) => `${FILES.rolloutSummariesDir}/${name}`;
  return {
    added: [...keep]
      .filter((n) => !live.has(n))
      .sort()
      .map(dir),
    removed: [...live]
      .filter((n) => !keep.has(n))
      .sort()
      .map(dir),
  };
}

async function handEdits(root: string, version: MemoryVersion, notes: string[]): Promise<InputPreview['handEdits']> {
  try {
    const diff = await sinceBaseline(root, version);
    appendAll(notes, diff.notes);
    return { hasBaseline: diff.hasBaseline, files: diff.files.map((f) => ({ path: f.path, status: f.status })) };
  } catch (error) {
    notes.push(`The hand edits since the git baseline could not be read (${(error as Error).message}).`);
    return { hasBaseline: false, files: [] };
  }
}

const artifactFiles = (version: MemoryVersion): FileInfo[] => [
  { path: FILES.summary, bytes: 0 },
  ...(version === 'v1' ? [{ path: FILES.memory, bytes: 0 }] : []),
];

/** What a consolidation of `version` would read now, which summaries its sync adds and removes, and whether it may run. */
export async function previewInputs(home: HomeInfo, version: MemoryVersion, options: PreviewOptions): Promise<InputPreview> {
  const root = home.roots.find((r) => r.version === version)?.path ?? join(home.codexHome, ROOT_DIRS[version]);
  const rootExists = (await lstat(root).catch(() => null))?.isDirectory() ?? false;
  const editNotes: string[] = [];
  const fileNotes: string[] = [];
  const [selection, lease, adHocAll, ext, expired, edits] = await Promise.all([
    selectPhase2Inputs(home, version, options.nowSec),
    readLeaseView(home, version, options.nowSec),
    filesUnder(root, AD_HOC_NOTES, false, fileNotes),
    extensionInputs(root, fileNotes),
    rootExists ? expiredExtensionResources(root, options.nowSec) : [],
    rootExists ? handEdits(root, version, editNotes) : { hasBaseline: false, files: [] },
  ]);
  const notes = [...selection.notes, ...editNotes];
  if (!rootExists) notes.push(`There is no ${version} memory folder at ${root} yet; a run would start from an empty folder.`);
  const { rows, texts, secrets: selectedSecrets } = selectedInputs(selection);
  const delta = await summaryDelta(root, selection);
  const adHoc = adHocAll.filter((f) => f.path.endsWith('.md'));
  const artifacts = await Promise.all(
    artifactFiles(version).map(async (f) =>
      readSmall(root, { ...f, bytes: (await lstat(join(root, f.path)).catch(() => null))?.size ?? 0 }, fileNotes),
    ),
  );
  const others = await Promise.all([...adHoc, ...ext.resources, ...ext.imports].map((f) => readSmall(root, f, fileNotes)));
  appendAll(notes, fileNotes);
  const out = estimateTokens(artifacts);
  const scanned = [...adHoc, ...ext.resources, ...ext.imports, ...artifactFiles(version)].map((f) => f.path);
  const handEdited = edits.files.filter((f) => f.status !== 'deleted').map((f) => f.path);
  // Skills are in the staging copy too (the codex agent reads them, the openai engine is sent each SKILL.md).
  const skills = rootExists && version === 'v1' ? (await filesUnder(root, FILES.skillsDir, true, [])).map((f) => f.path) : [];
  const fileSecrets = rootExists ? await secretsInFiles(root, version, [...scanned, ...handEdited, ...skills]) : [];
  return {
    version,
    root,
    engine: options.engine,
    model: options.engine === 'builtin' ? null : options.model,
    selection: {
      rows,
      eligible: selection.eligible,
      limit: Math.max(1, selection.limit),
      maxUnusedDays: Math.max(0, selection.maxUnusedDays),
      excludedNotEnabled: selection.excludedNotEnabled,
      bytes: rows.reduce((n, r) => n + r.bytes, 0),
      added: delta.added,
      removed: delta.removed,
    },
    adHocNotes: count(adHoc),
    extensionResources: { ...count(ext.resources), expired },
    imports: { ...count(ext.imports), projects: ext.projects },
    handEdits: edits,
    tokens: { in: estimateTokens([...texts, ...others]) + out, out },
    secrets: [...selectedSecrets, ...fileSecrets.filter((f) => !selectedSecrets.some((s) => s.path === f.path))],
    lease,
    notes,
  };
}

/** The pool task. */
export function previewTask(input: { home: HomeInfo; version: MemoryVersion; options: PreviewOptions }): Promise<InputPreview> {
  return previewInputs(input.home, input.version, input.options);
}
