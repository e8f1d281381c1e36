// What a push publishes: this machine's curated memory of the root Codex reads, each file through the secret gate.
import { join } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { parseMemoryFile } from '../formats';
import { readSourceFiles, sha256Hex, type ReadOutcome } from '../import/read-source';
import { scanImportSecrets } from '../import/secrets';
import { readRoot, SYNC_FILE_LIMIT_BYTES } from './root';
import { isPortableName } from './state';
import { walkRoot, type SkipWhy } from './walk';

export { readRoot, SYNC_FILE_LIMIT_BYTES } from './root';

export interface PublishedFile {
  /** Root-relative, `/`-separated. */
  path: string;
  text: string;
  sha256: string;
  size: number;
}

export interface HeldBack {
  path: string;
  reason: string;
}

export interface Publication {
  version: MemoryVersion;
  root: string;
  files: PublishedFile[];
  heldBack: HeldBack[];
  /** Files of the root a push never publishes (raw memories, unreferenced rollouts, arrivals), counted. */
  leftOut: number;
}

/** `extensions/external_agent_import/` holds imports and sync arrivals: never published again (no echo). */
const ARRIVALS_PREFIX = 'extensions/external_agent_import/';
const ROLLOUT_REF = /rollout_summaries\/[^\s`'"()[\]<>|,;]+?\.md/g;

/** The root's files a push may publish; what it cannot (a symlink, a special file, a name not every system can hold) held back when wanted. */
async function listRoot(root: string, held: HeldBack[]): Promise<string[]> {
  const walked = await walkRoot(root);
  for (const s of walked.skipped) if (wanted(s.path)) held.push({ path: s.path, reason: PUSH_SKIPS[s.why](s.detail) });
  const out: string[] = [];
  for (const path of walked.files) {
    if (path.split('/').every(isPortableName)) out.push(path);
    else if (wanted(path))
      held.push({ path, reason: 'a name Windows cannot hold (a device name, <>:"|?*, or a trailing dot or space); rename it' });
  }
  return out;
}

const PUSH_SKIPS: Record<SkipWhy, (detail: string) => string> = {
  symlink: () => 'a symlink; Codex refuses symlinks in a memory folder and sync never follows one',
  'unsafe-name': () => 'a name sync cannot carry safely (a control character, or a path that could leave the folder)',
  special: (detail) => `${detail}, not a regular file`,
  unreadable: (detail) => `a folder that cannot be read (${detail})`,
};

/** Curated memory: the summary, MEMORY.md, skills and extensions (ad-hoc notes); rollouts only when pointed to. */
function wanted(path: string): boolean {
  if (path.startsWith(ARRIVALS_PREFIX)) return false;
  return path === 'memory_summary.md' || path === 'MEMORY.md' || path.startsWith('skills/') || path.startsWith('extensions/');
}

/** Only the MEMORY.md blocks whose `applies_to: cwd=` is `project` or inside it (a team remote's scope). */
export function scopeMemoryMd(text: string, version: MemoryVersion, project: string): string {
  const parsed = parseMemoryFile(text, { path: 'MEMORY.md', version });
  if (parsed.kind !== 'memory_md') return '';
  const lines = text.split('\n');
  const inside = (cwd: string | null) =>
    cwd !== null && (cwd === project || cwd.startsWith(project.endsWith('/') ? project : `${project}/`));
  const kept = parsed.blocks.filter((b) => inside(b.appliesTo?.cwd ?? null));
  return kept
    .map((b) =>
      lines
        .slice(b.line - 1, b.endLine)
        .join('\n')
        .replace(/\n*$/, '\n'),
    )
    .join('\n');
}

/** One read file through the secret gate (and the scope, for MEMORY.md): published, or held back with the reason. */
function checked(
  path: string,
  abs: string,
  outcome: ReadOutcome,
  version: MemoryVersion,
  scopeProject: string | null,
  heldBack: HeldBack[],
  clean: (sha256: string) => boolean,
): PublishedFile | null {
  if (!outcome.ok) {
    heldBack.push({ path, reason: outcome.reason.replace(`${abs} `, '') });
    return null;
  }
  let text = outcome.file.text;
  if (scopeProject && path === 'MEMORY.md') text = scopeMemoryMd(text, version, scopeProject);
  const sha256 = scopeProject && path === 'MEMORY.md' ? sha256Hex(Buffer.from(text, 'utf8')) : outcome.file.sha256;
  const findings = clean(sha256) ? [] : scanImportSecrets(text);
  if (findings.length > 0) {
    const f = findings[0]?.finding;
    const more = findings.length > 1 ? ` and ${findings.length - 1} more` : '';
    heldBack.push({
      path,
      reason: `possible secret (${f?.rule ?? 'secret'}) at line ${f?.line ?? 0}${more}; redact it ("memory-studio redact --file ${path}"), then push again`,
    });
    return null;
  }
  return { path, text, sha256, size: Buffer.byteLength(text, 'utf8') };
}

/**
 * Reads the root Codex reads and decides what a push publishes. Every file passes the secret engine (`clean` names
 * contents this engine already found clean): a file with a finding is held back, named with the rule and line (never the
 * secret), and so is a file that is not UTF-8 text.
 */
export async function collectPublication(
  home: HomeInfo,
  scopeProject: string | null,
  clean: (sha256: string) => boolean = () => false,
): Promise<Publication> {
  const root = readRoot(home);
  const heldBack: HeldBack[] = [];
  const all = await listRoot(root.path, heldBack);
  const base = scopeProject ? ['MEMORY.md'] : all.filter(wanted);
  const files: PublishedFile[] = [];
  const present = new Set(all);
  // Reads overlap (the import's reader: 32 in flight); outcomes come back in the order asked, so the result is stable.
  const readAll = async (paths: readonly string[]): Promise<PublishedFile[]> => {
    const reads = await readSourceFiles(
      paths.filter((p) => present.has(p)).map((p) => ({ rel: p, path: join(root.path, ...p.split('/')) })),
      SYNC_FILE_LIMIT_BYTES,
    );
    const out: PublishedFile[] = [];
    for (const { f, outcome } of reads) {
      const file = checked(f.rel, f.path, outcome, root.version, scopeProject, heldBack, clean);
      if (file) out.push(file);
    }
    return out;
  };
  files.push(...(await readAll(base)).filter((f) => f.text !== ''));
  // The rollout summaries the published texts point to travel with them (so a citation stays openable elsewhere).
  const pointed = new Set<string>();
  for (const f of files) for (const m of f.text.matchAll(ROLLOUT_REF)) pointed.add(m[0]);
  files.push(...(await readAll([...pointed].sort())));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { version: root.version, root: root.path, files, heldBack, leftOut: all.length - files.length - heldBack.length };
}
