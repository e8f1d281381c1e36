// The budget lens in the file header: how much of memory_summary.md Codex injects, and which lines it cuts.
import { budgetHeadline, injectedTokenEstimate, removedLinesBanner, type BudgetReport } from '../../../shared/budget';
import { readBudgetHeadline } from '../../../shared/codex-reads';
import type { CodexReads } from '../../../shared/domain';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import type { LineSpan } from '../navigation/location';

export interface BudgetBarProps {
  path: string;
  budget: BudgetReport | undefined;
  error: Error | null;
  retry: () => void;
  showInjected: boolean;
  onToggleInjected: (show: boolean) => void;
  onShowCut: (span: LineSpan) => void;
  /** Which root Codex reads: a summary of another root is seen by no session. Unknown: Codex's budget alone. */
  reads?: CodexReads;
}

const n = (value: number) => value.toLocaleString();

const limitSourceText: Record<BudgetReport['limitSource'], string> = {
  default: "Codex's default",
  config: 'from config.toml',
  override: 'override',
};

function Meter({ budget }: { budget: BudgetReport }) {
  const injected = injectedTokenEstimate(budget);
  const scale = Math.max(budget.limitTokens, budget.estimatedTokens, 1);
  const kept = Math.min(injected, budget.estimatedTokens);
  const cut = budget.truncated ? Math.max(0, budget.estimatedTokens - kept) : 0;
  const pct = (value: number) => `${Math.min(100, (value / scale) * 100)}%`;
  return (
    <span
      className="budget-meter"
      role="meter"
      aria-label="Share of the token limit"
      aria-valuemin={0}
      aria-valuemax={budget.limitTokens}
      aria-valuenow={Math.min(budget.estimatedTokens, budget.limitTokens)}
    >
      <span className="budget-kept" style={{ width: pct(kept) }} />
      {cut > 0 ? <span className="budget-cut" style={{ left: pct(kept), width: pct(cut) }} /> : null}
      <span className="budget-limit" style={{ left: pct(budget.limitTokens) }} title={`limit: ${n(budget.limitTokens)} tokens`} />
    </span>
  );
}

function CutBanner({ budget, onShowCut }: { budget: BudgetReport; onShowCut: (span: LineSpan) => void }) {
  const { removed } = budget;
  if (!removed) return null;
  return (
    <div className="budget-banner" role="status">
      <span className="budget-banner-icon" aria-hidden="true">
        ✂
      </span>
      <strong data-testid="budget-banner">{removedLinesBanner(removed)}</strong>
      <span className="muted">
        Codex cuts {n(removed.endByte - removed.startByte)} bytes from the middle
        {budget.markerText ? ` and puts “${budget.markerText}” in their place` : ''}; the lines are shaded below.
      </span>
      {/* Scrolls to the first cut line; the whole cut stays shaded, so only that line is highlighted as the target. */}
      <button
        type="button"
        className="button button-small"
        data-testid="show-cut"
        onClick={() => onShowCut({ line: removed.startLine, endLine: removed.startLine })}
      >
        Go to the cut lines
      </button>
    </div>
  );
}

export function BudgetBar({ path, budget, error, retry, showInjected, onToggleInjected, onShowCut, reads }: BudgetBarProps) {
  const showLoading = useDelayedFlag(!budget && !error);
  if (error) {
    return (
      <ErrorPanel compact title={`Cannot work out what the next session sees of ${path}`} error={toStudioError(error)} onRetry={retry} />
    );
  }
  if (!budget) {
    return <div className="budget budget-loading">{showLoading ? <LoadingState inline label="Counting tokens…" /> : null}</div>;
  }
  const headline = reads ? readBudgetHeadline(budget, reads) : budgetHeadline(budget);
  return (
    <section className="budget" aria-label="What the next session sees">
      <div
        className={budget.truncated ? 'budget-bar is-truncated' : 'budget-bar'}
        data-testid="budget-bar"
        data-truncated={budget.truncated}
      >
        <Meter budget={budget} />
        <span className="budget-text">
          <strong data-testid="budget-headline" data-fits={headline.fits}>
            {headline.headline}
          </strong>{' '}
          <span className="muted budget-source">(limit: {limitSourceText[budget.limitSource]})</span>
          <span className="budget-detail muted" data-testid="budget-detail">
            {headline.detail}
          </span>
        </span>
        <label className="toggle">
          <input type="checkbox" checked={showInjected} onChange={(event) => onToggleInjected(event.currentTarget.checked)} />
          Show what the next session sees
        </label>
      </div>
      <CutBanner budget={budget} onShowCut={onShowCut} />
    </section>
  );
}
