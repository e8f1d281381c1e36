// Another machine's Codex memory that arrived through sync sits in `resources/sync-<kind>-<name>/`, with the rollout
// summaries its pointers name: a pointer in it resolves inside that folder ("on laptop"), never as a broken root path.
import { useMemo } from 'react';

const ARRIVAL = /^(extensions\/external_agent_import\/resources\/sync-(machine|person|bundle)-([^/]+)\/)/;

export interface ArrivalPlace {
  /** The folder pointers resolve in (`''` for the root's own files). */
  base: string;
  /** Who published it ("laptop"), or null for the root's own files. */
  owner: string | null;
}

export function arrivalOf(path: string): ArrivalPlace {
  const m = ARRIVAL.exec(path);
  return m?.[1] && m[3] ? { base: m[1], owner: m[3] } : { base: '', owner: null };
}

/** The open file's pointer folder and the paths known there (relative to it), for the outline's missing marks. */
export function useArrivalPointers(path: string, known: ReadonlySet<string> | null): ArrivalPlace & { known: ReadonlySet<string> | null } {
  const place = arrivalOf(path);
  const mapped = useMemo(() => {
    if (!known || place.base === '') return known;
    const out = new Set<string>();
    for (const p of known) if (p.startsWith(place.base)) out.add(p.slice(place.base.length));
    return out;
  }, [known, place.base]);
  return { ...place, known: mapped };
}
