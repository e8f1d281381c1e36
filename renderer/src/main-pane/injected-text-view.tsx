// Read-only view of exactly what Codex puts into the next session's prompt, with the cut marker and fragments shown.
import { injectedTokenEstimate, type BudgetReport } from '../../../shared/budget';

export interface InjectedTextViewProps {
  budget: BudgetReport;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Fragments are byte ranges of the UTF-8 text; slice the bytes, not the UTF-16 string. */
function fragmentTexts(budget: BudgetReport): string[] {
  if (budget.fragments.length <= 1) return [budget.injectedText];
  const bytes = encoder.encode(budget.injectedText);
  return budget.fragments.map((fragment) => decoder.decode(bytes.subarray(fragment.startByte, fragment.endByte)));
}

/** The text with the `…N tokens truncated…` marker highlighted, so the cut is easy to find. */
function WithMarker({ text, marker }: { text: string; marker: string | null }) {
  const at = marker ? text.indexOf(marker) : -1;
  if (!marker || at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark className="injected-marker">{marker}</mark>
      {text.slice(at + marker.length)}
    </>
  );
}

export function InjectedTextView({ budget }: InjectedTextViewProps) {
  const texts = fragmentTexts(budget);
  return (
    <section className="injected-view" aria-label="What the next session sees" data-testid="injected-text">
      <header className="injected-header">
        <strong>What the next session sees</strong>
        <span className="muted">
          {injectedTokenEstimate(budget).toLocaleString()} tokens by Codex's estimate ({budget.injectedBytes.toLocaleString()} bytes; o200k:{' '}
          {budget.injectedO200kTokens.toLocaleString()})
          {budget.fragments.length > 1 ? `, in ${budget.fragments.length} prompt fragments` : ''} · read-only
        </span>
      </header>
      {budget.injectedText === '' ? (
        <p className="panel-empty muted">Nothing: Codex injects no memory summary into the next session.</p>
      ) : (
        <div className="injected-scroll" tabIndex={0}>
          {texts.map((text, index) => (
            <div key={index} className="injected-fragment">
              {texts.length > 1 ? <div className="injected-fragment-label muted">Fragment {index + 1}</div> : null}
              <pre className="injected-text">
                <WithMarker text={text} marker={budget.markerText} />
              </pre>
            </div>
          ))}
        </div>
      )}
      {budget.notes.length > 0 ? (
        <ul className="injected-notes muted">
          {budget.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
