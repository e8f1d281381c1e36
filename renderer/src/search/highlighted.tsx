// A snippet with its matched words marked: ranges from the index, rendered as text (never as HTML).

export function Highlighted({ text, ranges }: { text: string; ranges: ReadonlyArray<readonly [number, number]> }) {
  const parts = [];
  let at = 0;
  ranges.forEach(([start, end], index) => {
    if (start < at || end <= start) return;
    if (start > at) parts.push(<span key={`t${index}`}>{text.slice(at, start)}</span>);
    parts.push(<mark key={`m${index}`}>{text.slice(start, end)}</mark>);
    at = end;
  });
  if (at < text.length) parts.push(<span key="rest">{text.slice(at)}</span>);
  return <>{parts}</>;
}
