// One source file in the plan: front matter, secret findings with the person's choices, and the exact text to write.
import type { ImportChoices, ImportSource, PlanFile, SecretAction } from '../../../shared/import';
import { frontMatterEnd, parseFrontMatter } from './front-matter';
import { redactChosen, resolveSecrets, scanImportSecrets, type FileSecretChoices } from './secrets';
import type { SourceFile } from './sources';
import type { SecretCandidate } from '../lint/secret-rules';

/** Characters a path may not carry inside the header comment (they are percent-encoded). */
const HEADER_UNSAFE = /[%;\r\n<>]|--/g;

/**
 * The provenance line of every file imported from Cursor, so the consolidator knows where it came from:
 * `<!-- imported-from: cursor; source: <path>; mtime: <ISO 8601>; sha256: <hex of the source bytes> -->`.
 * In the path, `%`, `;`, `<`, `>`, line breaks and `--` are percent-encoded. User Rules carry no mtime: it is
 * state.vscdb's, which Cursor rewrites all the time, so it would make every re-import a change; the sha256 names the
 * content (the mtime stays in the proposal's provenance).
 */
export function cursorProvenanceHeader(file: Pick<SourceFile, 'sourcePath' | 'mtimeMs' | 'sha256' | 'kind'>): string {
  const source = file.kind === 'user-rules' ? `${file.sourcePath}#aicontext.personalContext` : file.sourcePath;
  const encoded = source.replace(HEADER_UNSAFE, (m) =>
    [...m].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
  const mtime = file.kind === 'user-rules' ? '' : ` mtime: ${new Date(file.mtimeMs).toISOString()};`;
  return `<!-- imported-from: cursor; source: ${encoded};${mtime} sha256: ${file.sha256} -->\n`;
}

/**
 * `text` with the provenance header: first, or right after the front matter when there is one, because Cursor (and
 * every front-matter reader) only sees a `---` block at byte 0.
 */
export function withProvenanceHeader(text: string, header: string): string {
  const end = frontMatterEnd(text);
  if (!end) return header + text;
  return `${text.slice(0, end.offset)}${end.needsBreak ? '\n' : ''}${header}${text.slice(end.offset)}`;
}

/** The person's choices indexed once per plan (project key + relative path), so lookups stay O(1) for 10,000 files. */
export interface ChoiceIndex {
  projects: Map<string, { include?: boolean; cwd?: string | null }>;
  fileInclude: Map<string, boolean>;
  secrets: Map<string, { byFinding: Map<string, SecretAction>; forFile?: SecretAction }>;
  fallback: SecretAction | undefined;
}

const fileKey = (project: string, relPath: string) => `${project}\0${relPath}`;

export function indexChoices(choices: ImportChoices): ChoiceIndex {
  const index: ChoiceIndex = { projects: new Map(), fileInclude: new Map(), secrets: new Map(), fallback: choices.secretDefault };
  for (const p of choices.projects ?? []) index.projects.set(p.key, { ...index.projects.get(p.key), ...p });
  for (const f of choices.files ?? []) index.fileInclude.set(fileKey(f.project, f.relPath), f.include);
  for (const c of choices.secrets ?? []) {
    const key = fileKey(c.project, c.relPath);
    const entry = index.secrets.get(key) ?? { byFinding: new Map<string, SecretAction>() };
    if (c.findingId === undefined) entry.forFile = c.action;
    else entry.byFinding.set(c.findingId, c.action);
    index.secrets.set(key, entry);
  }
  return index;
}

function secretChoicesFor(index: ChoiceIndex, project: string, relPath: string): FileSecretChoices {
  const entry = index.secrets.get(fileKey(project, relPath));
  return { byFinding: entry?.byFinding ?? new Map(), forFile: entry?.forFile, fallback: index.fallback };
}

/**
 * The plan entry of one file (its `change` is filled in later against the targets); `spans` are its text's secret
 * spans when they were found on the pool.
 */
export function planFile(
  tool: ImportSource,
  project: string,
  file: SourceFile,
  choices: ChoiceIndex,
  spans?: readonly SecretCandidate[],
): PlanFile {
  const included = choices.fileInclude.get(fileKey(project, file.relPath)) ?? true;
  const scanned = resolveSecrets(scanImportSecrets(file.text, spans), secretChoicesFor(choices, project, file.relPath));
  const findings = scanned.map((s) => s.finding);
  const skipFinding = findings.find((f) => f.action === 'skip-file');
  let reason: string | null = null;
  if (!included) reason = 'Left out by you.';
  else if (skipFinding) reason = `Skipped because of the possible secret on line ${skipFinding.line} (${skipFinding.rule}).`;
  const importable = reason === null;
  const body = importable ? redactChosen(file.text, scanned) : null;
  return {
    relPath: file.relPath,
    sourcePath: file.sourcePath,
    size: file.size,
    mtimeMs: file.mtimeMs,
    mtime: new Date(file.mtimeMs).toISOString(),
    sha256: file.sha256,
    kind: file.kind,
    frontMatter: parseFrontMatter(file.text),
    findings,
    status: importable ? 'importable' : 'skipped',
    reason,
    included,
    content: body === null ? null : tool === 'cursor' ? withProvenanceHeader(body, cursorProvenanceHeader(file)) : body,
    sourceText: file.text,
    readable: true,
    change: 'unchanged',
  };
}
