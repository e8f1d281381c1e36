// `review.agentPropose`: an MCP client's memory as a pending proposal of source `agent`, limited per client and hour.
import type { ChannelInput } from '../../../shared/contract';
import type { Proposal } from '../../../shared/review';
import { classifyPath, editingOf } from '../codex/workspace';
import { fileTimestamp } from '../formats/names';
import { scanSecrets } from '../lint';
import { StudioFailure } from '../platform/errors';
import { resolveInsideRoot } from '../platform/safe-path';
import { agentProposalsSince, createProposal } from '../review';
import type { StudioDb } from '../studio-db';
import type { HandlerContext } from './context';

type AgentInput = ChannelInput<'review.agentPropose'>;

/** The window of the per-client limit. */
export const AGENT_WINDOW_MS = 60 * 60 * 1000;

/** A note's slug from its title (or first words): Codex's rule, lowercase ASCII letters, digits and hyphens. */
export function agentNoteSlug(title: string | undefined, text: string): string {
  const from = (source: string) =>
    source
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '');
  return from(title ?? '') || from(text.split('\n').find((l) => l.trim() !== '') ?? '') || 'agent-note';
}

/** The note as written: the title as its heading, the project it applies to, then the text. */
function noteText(input: AgentInput): string {
  const head = input.title?.trim() ? [`# ${input.title.trim()}`, ''] : [];
  const project = input.project?.trim() ? [`Applies to: ${input.project.trim()}`, ''] : [];
  return [...head, ...project, input.text.trimEnd(), ''].join('\n');
}

/**
 * Refused once this client has `max` proposals in the last hour (`counted`: the one being filed is among them), with
 * when the next one will be taken.
 */
function checkLimit(db: StudioDb, input: AgentInput, now: number, counted = 0): void {
  const recent = agentProposalsSince(db, input.client.name, now - AGENT_WINDOW_MS);
  if (recent.count - counted < input.maxPerHour) return;
  const next = new Date((recent.oldest ?? now) + AGENT_WINDOW_MS).toISOString();
  throw new StudioFailure(
    'Busy',
    `${input.client.name} made ${recent.count - counted} proposals in the last hour, the most Memory Studio takes from one agent (${input.maxPerHour} an hour), so this one was not filed.`,
    { hint: `The next one is taken after ${next}; meanwhile a person can review the pending ones in Memory Studio's Review view.` },
  );
}

/** Memory must never hold a secret: a text with one is refused, naming where (masked), before anything is stored. */
function refuseSecrets(text: string): void {
  const found = scanSecrets(text)[0];
  if (!found) return;
  throw new StudioFailure(
    'Invalid',
    `The text holds what looks like a secret (${found.rule.replace(/^secrets\//, '')} on line ${found.line}: ${found.preview}); memory must never hold one, so nothing was proposed.`,
    { hint: 'Leave the secret out (say where it is kept instead) and propose again.' },
  );
}

/** Only files people curate are edited this way: Codex rebuilds the others from its DB, so an edit would not last. */
function checkEditable(path: string): void {
  const kind = classifyPath(path);
  const editing = editingOf(kind);
  if (editing === 'curated') return;
  throw new StudioFailure(
    'Invalid',
    editing === 'regenerated'
      ? `${path} is rewritten by Codex at every consolidation (${kind}), so an edit of it would not last; nothing was proposed.`
      : `${path} is not a memory file people edit (${kind}); nothing was proposed.`,
    { path, hint: 'Propose the memory without `file`: it becomes an ad-hoc note, which Codex folds in at its next consolidation.' },
  );
}

export async function proposeForAgent(ctx: HandlerContext, input: AgentInput, now = Date.now()): Promise<Proposal> {
  const db = ctx.studioDb();
  checkLimit(db, input, now);
  refuseSecrets(input.text);
  if (input.file) checkEditable(input.file);
  const root = await ctx.rootPath(input.version);
  // The slug is always one Codex's note tool accepts (lowercase letters, digits and hyphens, at most 60).
  const relPath = input.file ?? `extensions/ad_hoc/notes/${fileTimestamp(now)}-${agentNoteSlug(input.title, input.text)}.md`;
  await resolveInsideRoot(root, relPath);
  const firstLine = input.text.split('\n').find((l) => l.trim() !== '') ?? '';
  const title = input.title?.trim() || (input.file ? `Edit ${input.file}` : firstLine.replace(/^#+\s*/, '').slice(0, 80));
  const client = `${input.client.name}${input.client.version ? ` ${input.client.version}` : ''}`;
  return createProposal(db, {
    title,
    source: 'agent',
    agent: { name: input.client.name, version: input.client.version },
    note: `Proposed by ${client} through memory-studio mcp${input.project?.trim() ? `, for ${input.project.trim()}` : ''}.`,
    files: [{ version: input.version, root, relPath, proposedContent: input.file ? input.text : noteText(input) }],
    now,
    // Counted again inside the insert's transaction: two servers of one client cannot both slip under the limit.
    afterInsert: (tx) => checkLimit(tx, input, now, 1),
  });
}
