// Which roots an import enqueues consolidation in, when the wizard resumes at Apply or Done without core's outcome:
// the roots core names on the proposal's DB changes, never a mapping of Codex's DB file names in the renderer.
import { describe, expect, it } from 'vitest';
import { ProposalSchema } from '../../shared/review';
import { enqueuedBy } from '../../renderer/src/import/import-wizard';
import { proposal } from './support/proposal';

const change = (ord: number, db: string, version: string | null) => ({
  ord,
  db,
  version,
  description: 'Enqueue consolidation, as Codex does after an import.',
  sqlKind: 'import.enqueue-consolidation',
  params: {},
});

describe("the import's consolidation enqueue", () => {
  it("lists the roots core named on the proposal's DB changes, once each, in order", () => {
    const withChanges = ProposalSchema.parse({
      ...proposal('p-import'),
      source: 'import',
      dbChanges: [change(0, 'memories_v2', 'v2'), change(1, 'memories_v1', 'v1'), change(2, 'memories_v2', 'v2')],
    });
    expect(enqueuedBy(withChanges)).toEqual(['v1', 'v2']);
  });

  it('lists nothing for a change outside any root, no DB changes, or no proposal yet', () => {
    expect(enqueuedBy(ProposalSchema.parse({ ...proposal('p-state'), dbChanges: [change(0, 'state', null)] }))).toEqual([]);
    expect(enqueuedBy(proposal('p-none'))).toEqual([]);
    expect(enqueuedBy(undefined)).toEqual([]);
  });
});
