// Releases as people read them: consecutive verified releases as one range (`0.169.0–0.169.1`), a gap as a list.

/** `versions` (each in `verified`, the verified releases oldest first) as ranges of neighbours, joined by commas. */
export function releaseRangeLabel(versions: readonly string[], verified: readonly string[]): string {
  const indexes = [...new Set(versions.map((v) => verified.indexOf(v)).filter((i) => i >= 0))].sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const i of indexes) {
    const last = runs[runs.length - 1];
    if (last && i === last[1] + 1) last[1] = i;
    else runs.push([i, i]);
  }
  const unknown = versions.filter((v) => !verified.includes(v));
  return [...runs.map(([a, b]) => (a === b ? verified[a] : `${verified[a]}–${verified[b]}`)), ...unknown].join(', ');
}
