// `review.redact`: the secrets a person picked (or all of a file's or root's), replaced by Codex's redaction marker, as one proposal.
import type { ChannelInput } from '../../../shared/contract';
import type { Proposal } from '../../../shared/review';
import type { SecretFinding } from '../../../shared/lint';
import { StudioFailure } from '../platform/errors';
import { applyTextEdits } from '../formats';
import { scanSecrets } from '../lint';
import { redactAllSecrets } from '../lint/secrets';
import { scanRootSecrets } from '../lint/scan-root';
import { REDACTED_SECRET } from '../codex/constants';
import { createProposal, sha256Text, type ProposalFileInput } from '../review';
import { ANALYSIS_CAP_BYTES, readMemoryFile } from '../codex/workspace';
import type { HandlerContext } from './context';

type RedactInput = ChannelInput<'review.redact'>;
type Wanted = Extract<RedactInput, { secrets: unknown }>['secrets'][number];

const matches = (finding: SecretFinding, wanted: Wanted) =>
  finding.rule === wanted.rule &&
  finding.line === wanted.line &&
  (wanted.startColumn === undefined || finding.startColumn === wanted.startColumn);

/**
 * The file is scanned again here rather than trusting edits from the caller: only what the scanner still finds is
 * replaced, with the scanner's own span edit, through core's line edits (untouched lines keep their endings).
 * A finding that is gone means the file changed since it was checked: nothing is proposed.
 */
export function redactFindings(path: string, text: string, secrets: readonly Wanted[]): { content: string; count: number } {
  const findings = scanSecrets(text);
  const picked = new Set<SecretFinding>();
  for (const wanted of secrets) {
    const finding = findings.find((f) => matches(f, wanted));
    if (!finding) {
      throw new StudioFailure(
        'Conflict',
        `${path} no longer has the secret at line ${wanted.line} (${wanted.rule}); nothing was proposed.`,
        {
          path,
          hint: 'The file changed since it was checked: look at it again and redact what is still there.',
        },
      );
    }
    picked.add(finding);
  }
  const edits = [...picked].flatMap((f) => f.fix.edits);
  return { content: applyTextEdits(text, edits), count: picked.size };
}

/** The file's text with every finding redacted (`redactAllSecrets`, the replacement the scanner's own edits make). */
async function redactedFile(root: string, version: RedactInput['version'], path: string) {
  // Read as a proposal reads its base (up to the processing cap), so a large file can be redacted too.
  const file = await readMemoryFile(root, version, path, ANALYSIS_CAP_BYTES);
  const count = scanSecrets(file.content).length;
  const input: ProposalFileInput = {
    version,
    root,
    relPath: path,
    proposedContent: redactAllSecrets(file.content),
    // Refused if the file changes between this read and the proposal's own read of its base.
    expectedBaseSha256: sha256Text(file.content),
  };
  return { count, input };
}

const secretsWord = (n: number) => (n === 1 ? 'secret' : `${n} secrets`);

/** Every secret of every Markdown file of the root (what `memory-studio secrets` scans), as one proposal. */
async function redactRoot(ctx: HandlerContext, version: RedactInput['version']): Promise<Proposal> {
  const root = await ctx.rootPath(version);
  const scan = await scanRootSecrets(root, version);
  const paths = [...new Set(scan.findings.map((f) => f.path))];
  if (paths.length === 0)
    throw new StudioFailure('Invalid', `No Markdown file of the ${version} memory folder holds a secret; nothing was proposed.`, {
      hint:
        scan.unreadable.length > 0
          ? `${scan.unreadable.length} file(s) could not be read: ${scan.unreadable.map((u) => u.path).join(', ')}.`
          : undefined,
    });
  const files = await Promise.all(paths.map((path) => redactedFile(root, version, path)));
  const count = files.reduce((n, f) => n + f.count, 0);
  const unread = scan.unreadable.length > 0 ? ` Not read, so not redacted: ${scan.unreadable.map((u) => u.path).join(', ')}.` : '';
  return createProposal(ctx.studioDb(), {
    title: `Redact ${secretsWord(count)} in ${paths.length === 1 ? paths[0] : `${paths.length} files of ${version}`}`,
    source: 'edit',
    files: files.map((f) => f.input),
    note: `Every secret the scanner finds in the ${version} memory folder, replaced with ${REDACTED_SECRET}.${unread}`,
  });
}

export async function redactSecrets(ctx: HandlerContext, input: RedactInput): Promise<Proposal> {
  if ('all' in input && input.all === 'root') return redactRoot(ctx, input.version);
  const { version, path } = input;
  const root = await ctx.rootPath(version);
  if ('all' in input) {
    const { count, input: file } = await redactedFile(root, version, path);
    if (count === 0) throw new StudioFailure('Invalid', `${path} holds no secret the scanner finds; nothing was proposed.`, { path });
    return createProposal(ctx.studioDb(), { title: `Redact ${secretsWord(count)} in ${path}`, source: 'edit', files: [file] });
  }
  // Read as a proposal reads its base (up to the processing cap), so a large file can be redacted too.
  const file = await readMemoryFile(root, version, path, ANALYSIS_CAP_BYTES);
  const { content, count } = redactFindings(path, file.content, input.secrets);
  return createProposal(ctx.studioDb(), {
    title: count === 1 ? `Redact secret in ${path}` : `Redact ${count} secrets in ${path}`,
    source: 'edit',
    // Refused if the file changes between this read and the proposal's own read of its base.
    files: [{ version, root, relPath: path, proposedContent: content, expectedBaseSha256: sha256Text(file.content) }],
  });
}
