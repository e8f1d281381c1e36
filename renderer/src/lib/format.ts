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
