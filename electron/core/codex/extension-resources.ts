// Extension resources as Codex's 7-day pruner sees them (`prune_old_extension_resources`), plus Chronicle's kinds.
import type { ExtensionResourceInfo } from '../../../shared/domain';
import { EXTENSION_RESOURCE_RETENTION_DAYS, FILES } from './constants';

const DAY_SECONDS = 86_400;
const RESOURCE_TS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})/;

/** Chronicle (newer Codex) writes time-stamped screen summaries: `…-10min-…md` and `…-6h-…md`. */
export const CHRONICLE_EXTENSION = 'chronicle';

/** The unix time in a resource name's `YYYY-MM-DDTHH-MM-SS` prefix, or null when it is not a valid one (chrono's strict parse). */
export function resourceTimestamp(name: string): number | null {
  const m = RESOURCE_TS.exec(name);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  const valid =
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    back.getUTCHours() === h &&
    back.getUTCMinutes() === mi &&
    back.getUTCSeconds() === s;
  return valid ? ms / 1000 : null;
}

function chronicleLabel(name: string): string {
  if (/-10min-/.test(name)) return 'Chronicle 10-minute summary';
  if (/-6h-/.test(name)) return 'Chronicle 6-hour summary';
  return 'Chronicle resource';
}

/**
 * What Codex's pruner does with `extensions/<ext>/resources/...` (root-relative, `/`): only flat `.md` files directly
 * in `resources/` whose name starts with a valid timestamp are pruned, once that timestamp is 7 days old, and only in
 * an extension that has an `instructions.md`. Null for any other path.
 */
export function extensionResourceInfo(
  relPath: string,
  nowSec: number,
  extensionsWithInstructions: ReadonlySet<string>,
): ExtensionResourceInfo | null {
  const parts = relPath.split('/');
  const [top, extension, folder] = parts;
  const name = parts.at(-1);
  if (top !== FILES.extensionsDir || folder !== 'resources' || parts.length < 4 || extension === undefined || name === undefined)
    return null;
  const flat = parts.length === 4 && name.endsWith('.md');
  const timestamp = flat ? resourceTimestamp(name) : null;
  const prunable = timestamp !== null && extensionsWithInstructions.has(extension);
  const expiresAt = prunable ? timestamp + EXTENSION_RESOURCE_RETENTION_DAYS * DAY_SECONDS : null;
  return {
    extension,
    timestamp,
    expiresAt,
    expired: expiresAt !== null && expiresAt <= nowSec,
    label: extension === CHRONICLE_EXTENSION ? chronicleLabel(name) : null,
  };
}

/** The extension folders with an `instructions.md` (Codex treats only those as active), from root-relative paths. */
export function activeExtensions(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const path of paths) {
    const [top, extension, file, ...rest] = path.split('/');
    if (rest.length === 0 && top === FILES.extensionsDir && extension !== undefined && file === 'instructions.md') out.add(extension);
  }
  return out;
}
