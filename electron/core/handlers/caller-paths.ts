// Which folders a request may name: typed on the command line (the person's own), or sent by a page (serve's HTTP, the
// app's renderer), where only what Codex knows, what the person chose in main's native dialog, or what they named when
// starting serve counts; never a path a page sends on its own.
import { isInsideOrSame, realPathOf } from '../platform/real-path';

/**
 * What a chosen path is for: a promotion's project folder, an import's source home, Cursor's state.vscdb, a repository
 * an import looks in.
 */
export type ChosenPurpose = 'project' | 'import-source' | 'cursor-db' | 'repo';

export interface CallerPaths {
  /** `person`: the CLI, whose arguments a person typed. `page`: a request from a page, whose paths must be known or chosen. */
  readonly from: 'person' | 'page';
  /** Records a path the person chose (main's dialog) for `purpose`. */
  choose(purpose: ChosenPurpose, path: string): string;
  /** Whether `path` was chosen for `purpose`: the same path, or (an import source) a folder inside a chosen one. */
  chosen(purpose: ChosenPurpose, path: string): boolean;
}

/** `named`: paths the person gave when starting the host (serve's `--import-source DIR`). */
export function createCallerPaths(from: 'person' | 'page', named: Partial<Record<ChosenPurpose, readonly string[]>> = {}): CallerPaths {
  const picked = new Map<ChosenPurpose, Set<string>>();
  const add = (purpose: ChosenPurpose, path: string): string => {
    const real = realPathOf(path);
    const set = picked.get(purpose) ?? new Set<string>();
    set.add(real);
    picked.set(purpose, set);
    return real;
  };
  for (const [purpose, paths] of Object.entries(named) as Array<[ChosenPurpose, readonly string[]]>) for (const p of paths) add(purpose, p);
  return {
    from,
    choose: add,
    chosen(purpose, path) {
      const real = realPathOf(path);
      for (const p of picked.get(purpose) ?? []) if (p === real || (purpose === 'import-source' && isInsideOrSame(p, real))) return true;
      return false;
    },
  };
}
