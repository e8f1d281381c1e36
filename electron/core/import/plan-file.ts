// One source file in the plan: front matter, secret findings with the person's choices, and the exact text to write.
import type { ImportChoices, ImportSource, PlanFile, SecretAction } from '../../../shared/import';
import { parseFrontMatter } from './front-matter';
import { redactChosen, resolveSecrets, scanImportSecrets, type FileSecretChoices } from './secrets';
import type { SourceFile } from './sources';

/** Characters a path may not carry inside the header comment (they are percent-encoded). */
const HEADER_UNSAFE = /[%;\r\n<>]|--/g;

/**
 * The first line of every file imported from Cursor, so the consolidator knows where it came from:
 * `<!-- imported-from: cursor; source: <path>; mtime: <ISO 8601>; sha256: <hex of the source bytes> -->`.
 * In the path, `%`, `;`, `<`, `>`, line breaks and `--` are percent-encoded.
 */
export function cursorProvenanceHeader(file: Pick<SourceFile, 'sourcePath' | 'mtimeMs' | 'sha256' | 'kind'>): string {
  const source = file.kind === 'user-rules' ? `${file.sourcePath}#aicontext.personalContext` : file.sourcePath;
  const encoded = source.replace(HEADER_UNSAFE, (m) => [...m].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join(''));
  return `<!-- imported-from: cursor; source: ${encoded}; mtime: ${new Date(file.mtimeMs).toISOString()}; sha256: ${file.sha256} -->\n`;
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

/** The plan entry of one file (its `change` is filled in later against the targets). */
export function planFile(tool: ImportSource, project: string, file: SourceFile, choices: ChoiceIndex): PlanFile {
  const included = choices.fileInclude.get(fileKey(project, file.relPath)) ?? true;
  const scanned = resolveSecrets(scanImportSecrets(file.text), secretChoicesFor(choices, project, file.relPath));
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
    content: body === null ? null : tool === 'cursor' ? cursorProvenanceHeader(file) + body : body,
    sourceText: file.text,
    change: 'unchanged',
  };
}
