// Handlers for `review.*` and `history.*`: proposals, per-hunk decisions, Apply, and the history that can be reverted.
import { StudioFailure } from '../platform/errors';
import { FORGET_KINDS, IMPORT_KINDS, inverseRepair, isRepairChange, planForget } from '../forget';
import type { DbChange, DbChangeInput } from '../../../shared/review';
import { AD_HOC_NOTE_NAME_MAX, AD_HOC_NOTE_NAME_MIN, fileTimestamp, isValidAdHocNoteName } from '../formats/names';
import {
  createProposal,
  fileTextsOf,
  getProposal,
  listProposals,
  markAgentProposalSeen,
  mergeTextsOf,
  proposalFileBlocks,
  rebaseProposal,
  rejectProposal,
  resultOf,
  reviseProposalFile,
  setDecisions,
  stalenessOf,
} from '../review';
import { baselineFile, historyDiff, historyEntryDiff, listHistory, revertEntry, sinceBaseline } from '../history';
import { applyProposal } from '../apply';
import { resolveInsideRoot } from '../platform/safe-path';
import type { AreaHandlers, HandlerContext } from './context';
import { redactSecrets } from './redact-handler';
import { proposeForAgent } from './agent-propose';
import { createTurns } from './turns';

/** Codex's ad-hoc note name: `YYYY-MM-DDTHH-MM-SS-<slug>.md` (UTC), slug lowercase letters, digits and hyphens. */
export function adHocNoteName(slug: string, now = Date.now()): string {
  const name = `${fileTimestamp(now)}-${slug}.md`;
  if (!isValidAdHocNoteName(name)) {
    throw new StudioFailure(
      'Invalid',
      `"${slug}" cannot name an ad-hoc note: use lowercase letters, digits and hyphens, starting with a letter or digit (the whole name must be ${AD_HOC_NOTE_NAME_MIN}–${AD_HOC_NOTE_NAME_MAX} characters).`,
      {
        hint: 'For example: prefer-pnpm or forget-old-staging-host.',
      },
    );
  }
  return name;
}

export function reviewHandlers(ctx: HandlerContext): AreaHandlers<'review'> {
  // Rejects take turns on the main loop: each commits its own transaction (fsynced) in a turn of its own, so fifty
  // clicked through at once never hold the loop back to back while app.info and every other request wait behind them.
  const rejects = createTurns();
  return {
    'review.list': async ({ status }) => listProposals(ctx.studioDb(), status ? { status } : {}),
    'review.get': async ({ id }) => getProposal(ctx.studioDb(), id),
    'review.propose': async ({ version, path, content, title, description, more = [] }) => {
      const edits = [{ path, content }, ...more];
      const twice = edits.find((e, i) => edits.findIndex((o) => o.path === e.path) !== i);
      if (twice) throw new StudioFailure('Invalid', `${twice.path} is named twice; give each file one new content.`);
      const root = await ctx.rootPath(version);
      return createProposal(ctx.studioDb(), {
        title: title?.trim() ? title : edits.length === 1 ? `Edit ${path}` : `Edit ${edits.length} files`,
        ...(description?.trim() ? { note: description.trim() } : {}),
        source: 'edit',
        files: edits.map((e) => ({ version, root, relPath: e.path, proposedContent: e.content })),
      });
    },
    'review.note': async ({ version, slug, text }) => {
      const root = await ctx.rootPath(version);
      const relPath = `extensions/ad_hoc/notes/${adHocNoteName(slug)}`;
      await resolveInsideRoot(root, relPath);
      // Codex's own tool refuses to overwrite a note (AdHocNoteAlreadyExists); so does the proposal's absent base.
      return createProposal(ctx.studioDb(), {
        title: `Ad-hoc note: ${slug}`,
        source: 'note',
        files: [{ version, root, relPath, proposedContent: text.endsWith('\n') ? text : `${text}\n` }],
      });
    },
    'review.redact': async (input) => redactSecrets(ctx, input),
    'review.agentPropose': async (input) => proposeForAgent(ctx, input),
    'review.seen': async ({ id }) => markAgentProposalSeen(ctx.studioDb(), id),
    'review.decide': async ({ id, files }) => setDecisions(ctx.studioDb(), id, files),
    'review.result': async ({ id, content }) => resultOf(ctx.studioDb(), id, { content }),
    'review.apply': async ({ id }) => {
      const applied = await applyProposal(ctx.studioDb(), await ctx.home(), ctx.dataDir, id, ctx.coordination);
      // A promotion's AGENTS.md is no file of a root: only memory files are announced.
      const memory = applied.written.filter((w) => w.target === 'memory');
      for (const version of new Set(memory.map((w) => w.version))) {
        ctx.emit({
          event: 'workspace.changed',
          payload: { version, paths: memory.filter((w) => w.version === version).map((w) => w.relPath) },
        });
      }
      return applied;
    },
    'review.forget': async ({ threadId }) => {
      // Read only until applied: the rows are shown to the person and written under Codex's lease by review.apply.
      const plan = await planForget(await ctx.home(), threadId);
      return createProposal(ctx.studioDb(), {
        title: plan.title,
        source: 'forget',
        files: [],
        dbChanges: plan.changes,
        note: `Forgets session ${plan.thread.id} as Codex's own forget does.`,
      });
    },
    'review.reject': async ({ id, note }) =>
      rejects(() => {
        const rejected = rejectProposal(ctx.studioDb(), id, note);
        ctx.coordination.settled.announce(id, 'rejected');
        return rejected;
      }),
    'review.rebase': async ({ id }) => rebaseProposal(ctx.studioDb(), id),
    'review.stale': async ({ id }) => stalenessOf(ctx.studioDb(), id),
    'review.blocks': async ({ id, ord }) => proposalFileBlocks(ctx.studioDb(), id, ord),
    'review.mergeTexts': async ({ id, ord }) => mergeTextsOf(ctx.studioDb(), id, ord),
    'review.fileTexts': async ({ id, ord }) => fileTextsOf(ctx.studioDb(), id, ord),
    'review.revise': async ({ id, ord, content }) => reviseProposalFile(ctx.studioDb(), id, ord, content),
  };
}

/**
 * What undoes an applied DB change: a repair is swapped back; a forget's deleted rows and disabled session cannot be
 * brought back; an enqueued consolidation needs no undoing (reverting the files enqueues again).
 */
function invertDbChange(change: DbChange): DbChangeInput | 'irreversible' | null {
  if (isRepairChange(change)) return inverseRepair(change);
  return change.sqlKind === IMPORT_KINDS.enqueueConsolidation || change.sqlKind === FORGET_KINDS.enqueueConsolidation
    ? null
    : 'irreversible';
}

export function historyHandlers(ctx: HandlerContext): AreaHandlers<'history'> {
  return {
    'history.list': async ({ version, path }) => {
      const root = version ? await ctx.rootPath(version) : undefined;
      return listHistory(ctx.studioDb(), { relPath: path, root });
    },
    'history.diff': async ({ from, to, path }) => historyDiff(ctx.studioDb(), from, to, path),
    'history.entryDiff': async ({ entryId, path, root }) => historyEntryDiff(ctx.studioDb(), entryId, path, root),
    'history.sinceBaseline': async ({ version }) => sinceBaseline(await ctx.rootPath(version), version),
    'history.baselineFile': async ({ version, path }) => baselineFile(await ctx.rootPath(version), version, path),
    'history.revert': async ({ entryId }) => revertEntry(ctx.studioDb(), entryId, invertDbChange),
  };
}
