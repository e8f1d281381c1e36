// Reads the builtin engine's inputs from a staging folder (a copy of the memory root), skipping symlinks and .git.
import { appendAll } from '../../../platform/append';
import { type Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryVersion } from '../../../../../shared/domain';
import { isBaselineDirName, FILES } from '../../../codex/constants';
import { StudioFailure } from '../../../platform/errors';
import { redactAllSecrets } from '../../../lint';
import { NO_CAP, readRegularFile } from '../../../platform/regular-file';
import { importTopicOf, normalizeText, parseRawMemories, parseRollout, parseWorkspaceStatus } from './parse';
import type { ExtensionInput, ImportInput, NoteInput, RolloutInput, StagedInputs } from './types';

const IMPORT_EXT = 'external_agent_import';
const READ_BATCH = 512;
/** A staged file's text: a regular file only (an agent could leave a FIFO in staging), never waited on. */
const readText = async (path: string): Promise<string> => (await readRegularFile(path, path, NO_CAP)).bytes.toString('utf8');
const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => !e.isSymbolicLink() && !isBaselineDirName(e.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
}

/**
 * Free text the engine reshapes before writing it (a note becomes one clipped line, an import a topic, the profile is
 * cut to 350 words) is redacted as it is read: a private key flattened and cut in half no longer looks like one, so the
 * redaction of the written files (`redact.ts`) alone let part of it through. Rollout summaries and raw memories come
 * redacted from the sync; MEMORY.md's blocks are carried whole and redacted on the way out.
 */
type Carry = (path: string, text: string) => string;

/** The redaction of free text as it is read; `found` gets the path of each file that held a secret. */
function carrier(found: string[]): Carry {
  return (path, text) => {
    const out = redactAllSecrets(text);
    if (out !== text) found.push(path);
    return out;
  };
}

async function textIfFile(path: string): Promise<string | null> {
  try {
    return normalizeText(await readText(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ELOOP') return null; // none, a folder, a symlink: as before
    throw error;
  }
}

/** Markdown files under `dir` (recursively), as paths relative to `dir`, sorted. */
async function markdownFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await entries(dir)) {
    if (e.isDirectory()) appendAll(out, await markdownFiles(join(dir, e.name), `${prefix}${e.name}/`));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(`${prefix}${e.name}`);
  }
  return out.sort(byName);
}

async function readRollouts(root: string): Promise<{ rollouts: RolloutInput[]; skipped: string[] }> {
  const names = (await entries(join(root, 'rollout_summaries')))
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => e.name)
    .sort(byName);
  const out: RolloutInput[] = [];
  const skipped: string[] = [];
  for (let i = 0; i < names.length; i += READ_BATCH) {
    const batch = names.slice(i, i + READ_BATCH);
    const read = await Promise.all(batch.map(async (n) => ({ n, text: await readText(join(root, 'rollout_summaries', n)) })));
    for (const { n, text } of read) {
      const parsed = parseRollout(n, text);
      if (parsed) out.push(parsed);
      else skipped.push(n);
    }
  }
  return { rollouts: out, skipped };
}

async function readNotes(root: string, carry: Carry): Promise<NoteInput[]> {
  const dir = join(root, 'extensions', 'ad_hoc', 'notes');
  const names = (await entries(dir))
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => e.name)
    .sort(byName);
  const read = await Promise.all(names.map(async (file) => ({ file, text: await readText(join(dir, file)) })));
  return read.map(({ file, text }) => {
    const path = `extensions/ad_hoc/notes/${file}`;
    return { path, file, text: carry(path, normalizeText(text)) };
  });
}

function scopeCwd(text: string | null): string | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as { cwd?: unknown };
    return typeof value.cwd === 'string' && value.cwd.trim() !== '' ? value.cwd.trim().replace(/[\\/]+$/, '') : null;
  } catch {
    return null;
  }
}

async function readImport(base: string, rel: string, key: string, carry: Carry): Promise<ImportInput | null> {
  const dir = join(base, key);
  const files = (await markdownFiles(dir)).sort((a, b) => (a === 'MEMORY.md' ? -1 : b === 'MEMORY.md' ? 1 : byName(a, b)));
  if (files.length === 0) return null;
  const topics: string[] = [];
  for (const f of files) {
    if (f === 'MEMORY.md') continue;
    const topic = importTopicOf(carry(`${rel}/${key}/${f}`, (await textIfFile(join(dir, f))) ?? ''));
    if (topic) topics.push(topic);
  }
  return { key, cwd: scopeCwd(await textIfFile(join(dir, 'scope.json'))), files: files.map((f) => `${rel}/${key}/${f}`), topics };
}

async function readImports(root: string, carry: Carry): Promise<ImportInput[]> {
  const rel = `extensions/${IMPORT_EXT}/resources`;
  const base = join(root, 'extensions', IMPORT_EXT, 'resources');
  const keys = (await entries(base))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort(byName);
  const out: ImportInput[] = [];
  for (const key of keys) {
    const found = await readImport(base, rel, key, carry);
    if (found) out.push(found);
  }
  return out;
}

/** Resources of other active extensions (folders with `instructions.md`), ad_hoc and the import excluded. */
async function readExtensions(root: string): Promise<ExtensionInput[]> {
  const out: ExtensionInput[] = [];
  const names = (await entries(join(root, 'extensions')))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort(byName);
  for (const name of names) {
    if (name === 'ad_hoc' || name === IMPORT_EXT) continue;
    if ((await textIfFile(join(root, 'extensions', name, 'instructions.md'))) === null) continue;
    const files = await markdownFiles(join(root, 'extensions', name, 'resources'));
    if (files.length > 0) out.push({ name, files: files.map((f) => `extensions/${name}/resources/${f}`) });
  }
  return out;
}

async function readSkills(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await entries(join(root, 'skills'))) {
    if (e.isDirectory() && (await textIfFile(join(root, 'skills', e.name, 'SKILL.md'))) !== null) out.push(`skills/${e.name}/SKILL.md`);
  }
  return out.sort(byName);
}

/** Everything the builtin engine uses from `stagingRoot`; v2 ignores `raw_memories.md`, `MEMORY.md` and skills. */
export async function readStagedInputs(stagingRoot: string, version: MemoryVersion): Promise<StagedInputs> {
  const info = await lstat(stagingRoot).catch(() => null);
  if (!info || !info.isDirectory()) {
    throw new StudioFailure('NotFound', `The staging folder ${stagingRoot} does not exist.`, {
      path: stagingRoot,
      hint: 'Stage the memory folder before running the engine.',
    });
  }
  const v1 = version === 'v1';
  const redactedInputs: string[] = [];
  const carry = carrier(redactedInputs);
  const [{ rollouts, skipped }, rawText, summary, memoryMd, notes, imports, extensions, skills, diff] = await Promise.all([
    readRollouts(stagingRoot),
    v1 ? textIfFile(join(stagingRoot, 'raw_memories.md')) : Promise.resolve(null),
    textIfFile(join(stagingRoot, 'memory_summary.md')).then((text) => (text === null ? null : carry(FILES.summary, text))),
    v1 ? textIfFile(join(stagingRoot, 'MEMORY.md')) : Promise.resolve(null),
    readNotes(stagingRoot, carry),
    readImports(stagingRoot, carry),
    readExtensions(stagingRoot),
    v1 ? readSkills(stagingRoot) : Promise.resolve([]),
    textIfFile(join(stagingRoot, FILES.workspaceDiff)),
  ]);
  const raw = rawText === null ? new Map() : parseRawMemories(rawText);
  const workspaceChanges = diff === null ? null : parseWorkspaceStatus(diff);
  return {
    version,
    rollouts,
    skipped,
    raw,
    summary,
    memoryMd,
    notes,
    imports,
    extensions,
    skills,
    workspaceChanges,
    redactedInputs: redactedInputs.sort(byName),
  };
}
