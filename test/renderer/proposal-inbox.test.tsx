// The proposals inbox: pending proposals apart from a collapsible Done group (applied and rejected), each with counts.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProposalInbox, sortProposals } from '../../renderer/src/review/proposal-inbox';
import { ProposalSummarySchema } from '../../shared/review';
import { studioStub } from './support/studio-stub';

const summary = (id: string, createdAt: number, status: 'pending' | 'applied' | 'rejected') =>
  ProposalSummarySchema.parse({
    id,
    title: `proposal ${id}`,
    source: 'edit',
    agent: null,
    createdAt,
    status,
    appliedAt: status === 'applied' ? createdAt + 1 : null,
    note: null,
    fileCount: 1,
    added: 1,
    removed: 2,
  });

describe('the proposals inbox', () => {
  it('keeps pending proposals apart from the applied and rejected ones, with counts, and folds the Done group', () => {
    const stub = studioStub({});
    const proposals = sortProposals([summary('p-a', 1, 'applied'), summary('p-b', 2, 'pending'), summary('p-c', 3, 'rejected')]);
    render(<ProposalInbox proposals={proposals} selectedId={null} onSelect={() => undefined} />, { wrapper: stub.wrapper });
    const pending = screen.getByTestId('proposal-pending');
    const done = screen.getByTestId('proposal-done');
    expect(
      within(pending)
        .getAllByTestId('proposal-item')
        .map((row) => row.dataset.id),
    ).toEqual(['p-b']);
    expect(pending.textContent).toMatch(/Pending\s*1/);
    expect(
      within(done)
        .getAllByTestId('proposal-item')
        .map((row) => row.dataset.id),
    ).toEqual(['p-c', 'p-a']);
    expect(done.textContent).toMatch(/Done\s*2\s*\(1 applied, 1 rejected\)/);
    expect(within(done).getAllByTestId('proposal-item')[1]?.textContent).toMatch(/\+1\s*−2/);
    const toggle = screen.getByTestId('proposal-done-toggle');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(done).queryAllByTestId('proposal-item')).toHaveLength(0);
  });
});
