// Formatting helpers for sizes, times and paths shown in the UI.

const units = ['B', 'KB', 'MB', 'GB'] as const;

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit] ?? 'B'}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatTime(ms: number): string {
  return Number.isFinite(ms) ? dateTime.format(new Date(ms)) : 'unknown time';
}

/** Splits `a/b/c.md` into `{ dir: 'a/b/', name: 'c.md' }` for two-tone display. */
export function splitPath(path: string): { dir: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? { dir: '', name: path } : { dir: path.slice(0, slash + 1), name: path.slice(slash + 1) };
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/** Monaco language for a file: memory files are Markdown, manifests JSON, everything else plain text. */
/**
 * Above this many characters the editor shows plain, unwrapped text: Monaco's Markdown tokenizer and its wrapping
 * pass need seconds of main-thread time on a 5 MB MEMORY.md (one task measured 699 ms); responsiveness wins.
 */
export const HIGHLIGHT_MAX_CHARS = 1_000_000;

export function languageForContent(path: string, content: string): 'markdown' | 'json' | 'plaintext' {
  return content.length > HIGHLIGHT_MAX_CHARS ? 'plaintext' : languageForPath(path);
}

export function languageForPath(path: string): 'markdown' | 'json' | 'plaintext' {
  const lower = path.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (/\.(md|markdown|mdx)$/.test(lower)) return 'markdown';
  return 'plaintext';
}

/** `[features] memories` as the status bar says it. */
export function memoriesFeatureText(value: boolean | null): 'on' | 'off' | 'not set' {
  if (value === null) return 'not set';
  return value ? 'on' : 'off';
}

/** A Codex timestamp (unix seconds) as local date and time; `fallback` when there is none. */
export function formatUnix(time: { seconds: number } | null | undefined, fallback = 'never'): string {
  return time ? formatTime(time.seconds * 1000) : fallback;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const steps: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "in 3 hours", "2 days ago": how far `seconds` is from `nowSeconds`. */
export function formatRelative(seconds: number, nowSeconds: number): string {
  const delta = seconds - nowSeconds;
  for (const [unit, size] of steps) {
    if (Math.abs(delta) >= size) return relative.format(Math.round(delta / size), unit);
  }
  return relative.format(Math.round(delta), 'second');
}

/** The last path component: the project as people say it (`/home/dana/src/webapp` -> `webapp`). */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

/** A thread id short enough for a table cell; the full id stays in the title. */
export function shortId(id: string): string {
  return id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}
