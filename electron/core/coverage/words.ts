// The ledger's small pieces of wording: times, counts and error lines as people read them.

/** `2026-03-05 14:02 UTC`. */
export function utc(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `2026-03-05`. */
export function day(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n.toLocaleString('en-US')}${suffix}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** The first line of an error, cut at 160 characters. */
export function firstLine(text: string | null): string {
  const line = (text ?? '').split('\n')[0]?.trim() ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
