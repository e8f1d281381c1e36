// Keyword chips for outline rows and tables: the first few keywords, then a count of the rest.

export interface KeywordChipsProps {
  keywords: readonly string[];
  max?: number;
}

export function KeywordChips({ keywords, max = 6 }: KeywordChipsProps) {
  const shown = keywords.slice(0, max);
  const rest = keywords.length - shown.length;
  return (
    <span className="chips" aria-label={`Keywords: ${keywords.join(', ')}`}>
      {shown.map((keyword, index) => (
        <span key={`${keyword}-${index}`} className="chip" aria-hidden="true">
          {keyword}
        </span>
      ))}
      {rest > 0 ? (
        <span className="chip chip-more" aria-hidden="true" title={keywords.slice(max).join(', ')}>
          +{rest}
        </span>
      ) : null}
    </span>
  );
}
