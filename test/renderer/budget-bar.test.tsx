// The budget lens on reports computed by core from real summary text: fits, cut (banner and jump), failure.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { computeBudget } from '../../electron/core/budget/budget';
import { BudgetBar, type BudgetBarProps } from '../../renderer/src/main-pane/budget-bar';
import type { LineSpan } from '../../renderer/src/navigation/location';
import { StudioRequestError } from '../../renderer/src/api/studio-request-error';

const lines = (count: number) => Array.from({ length: count }, (_, i) => `- line ${i + 1}: ${'memory text '.repeat(6)}`).join('\n') + '\n';

function show(props: Partial<BudgetBarProps>) {
  const calls = { toggled: [] as boolean[], cut: [] as LineSpan[], retries: 0 };
  render(
    <BudgetBar
      path="memory_summary.md"
      budget={undefined}
      error={null}
      retry={() => (calls.retries += 1)}
      showInjected={false}
      onToggleInjected={(v) => calls.toggled.push(v)}
      onShowCut={(span) => calls.cut.push(span)}
      {...props}
    />,
  );
  return calls;
}

describe('budget bar', () => {
  it('says a small summary fits, with Codex’s estimate against the limit', () => {
    const budget = computeBudget(lines(5), { version: 'v2', limitTokens: 2500 });
    show({ budget });
    expect(screen.getByTestId('budget-headline').textContent).toMatch(/^Fits: the next session sees all of it/);
    expect(screen.getByTestId('budget-bar').dataset.truncated).toBe('false');
    expect(screen.queryByTestId('budget-banner')).toBeNull();
    expect(screen.getByRole('meter').getAttribute('aria-valuemax')).toBe('2500');
  });

  it('names the cut lines of a summary over the limit and jumps to the first of them', async () => {
    const budget = computeBudget(lines(200), { version: 'v2', limitTokens: 200 });
    expect(budget.truncated).toBe(true);
    const calls = show({ budget });
    expect(screen.getByTestId('budget-bar').dataset.truncated).toBe('true');
    expect(screen.getByTestId('budget-banner').textContent).toMatch(/the next session does not see lines \d+–\d+/);
    await userEvent.click(screen.getByTestId('show-cut'));
    expect(calls.cut).toEqual([{ line: budget.removed!.startLine, endLine: budget.removed!.startLine }]);
  });

  it('never says a summary fits when Codex reads the other root', () => {
    const budget = computeBudget(lines(5), { version: 'v2', limitTokens: 2500 });
    show({ budget, reads: { version: 'v1', source: 'config', off: null } });
    const headline = screen.getByTestId('budget-headline');
    expect(headline.textContent).toBe('Not read by Codex (config: v1): the next session sees none of this file');
    expect(headline.dataset.fits).toBe('false');
    expect(screen.getByTestId('budget-detail').textContent).toMatch(/^Were this root read: fits: the next session sees all of it/);
  });

  it('toggles what the next session sees', async () => {
    const calls = show({ budget: computeBudget(lines(3), { version: 'v1' }) });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Show what the next session sees' }));
    expect(calls.toggled).toEqual([true]);
  });

  it('shows a failed count as an error naming the file, with Retry', async () => {
    const error = new StudioRequestError('inspect.budget', { kind: 'Busy', message: 'The index is being rebuilt.' });
    const calls = show({ error });
    expect(screen.getByRole('alert').textContent).toContain('Cannot work out what the next session sees of memory_summary.md');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(calls.retries).toBe(1);
  });
});
