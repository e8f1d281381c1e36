// `review.redact`: the secrets a person picked in a file, replaced by Codex's redaction marker, as a pending proposal.
import type { ChannelInput } from '../../../shared/contract';
import type { Proposal } from '../../../shared/review';
import type { SecretFinding } from '../../../shared/lint';
import { StudioFailure } from '../platform/errors';
import { applyTextEdits } from '../formats';
import { scanSecrets } from '../lint';
import { createProposal, sha256Text } from '../review';
import { ANALYSIS_CAP_BYTES, readMemoryFile } from '../codex/workspace';
import type { HandlerContext } from './context';

type RedactInput = ChannelInput<'review.redact'>;
type Wanted = RedactInput['secrets'][number];

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

export async function redactSecrets(ctx: HandlerContext, { version, path, secrets }: RedactInput): Promise<Proposal> {
  const root = await ctx.rootPath(version);
  // Read as a proposal reads its base (up to the processing cap), so a large file can be redacted too.
  const file = await readMemoryFile(root, version, path, ANALYSIS_CAP_BYTES);
  const { content, count } = redactFindings(path, file.content, secrets);
  return createProposal(ctx.studioDb(), {
    title: count === 1 ? `Redact secret in ${path}` : `Redact ${count} secrets in ${path}`,
    source: 'edit',
    // Refused if the file changes between this read and the proposal's own read of its base.
    files: [{ version, root, relPath: path, proposedContent: content, expectedBaseSha256: sha256Text(file.content) }],
  });
}
