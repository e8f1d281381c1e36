// What a proposal keeps of its texts: every secret masked, the lines that hold one, and the checks that keep Apply exact.
import type { DecisionMap, Hunk } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import { maskForStorage } from '../lint/mask-at-rest';
import { scanSecrets } from '../lint';
import { applyDecisions, type LiveSource } from './hunks';
import { splitLines } from './lines';

/**
 * Per stored text of a proposal file, the 0-based lines that hold a masked secret (`proposal_files.masked_lines`).
 * Only these lines differ from the real text, and only these can never be written back: Memory Studio does not have
 * their secret any more.
 */
export interface MaskedLines {
  base?: number[];
  proposed?: number[];
  mergeBase?: number[];
  ours?: number[];
}

export function parseMaskedLines(json: string | null | undefined): MaskedLines {
  return json ? (JSON.parse(json) as MaskedLines) : {};
}

export function maskedLinesJson(lines: MaskedLines): string | null {
  const kept = Object.fromEntries(Object.entries(lines).filter(([, list]) => (list as number[]).length > 0));
  return Object.keys(kept).length === 0 ? null : JSON.stringify(kept);
}

/** The lines of `text` at `indexes` (a blank one is left out: a masked multi-line key leaves blank lines behind). */
export function linesAt(text: string | null, indexes: readonly number[] | undefined): string[] {
  if (text === null || !indexes || indexes.length === 0) return [];
  const lines = splitLines(text);
  return indexes.map((i) => lines[i] ?? '').filter((line) => line.trim() !== '');
}

/** The lines of `text` equal to one of `masked` (a rebase or revision keeps some masked lines of the texts it came from). */
export function indexesOf(text: string | null, masked: ReadonlySet<string>): number[] {
  if (text === null || masked.size === 0) return [];
  const out: number[] = [];
  splitLines(text).forEach((line, i) => {
    if (masked.has(line)) out.push(i);
  });
  return out;
}

const oneLine = (line: string) => line.replace(/\r?\n$/, '');

/**
 * The guard Apply passes to `resolveFile`: a line taken from the proposal's side that is one of the file's masked
 * lines would write `abcd****` where a secret was. That happens only when a decision takes the proposal's copy of a
 * line whose secret Memory Studio no longer has (a conflict resolved with "ours" over a disk that rotated the key, a
 * proposal made before secrets were masked): Apply refuses it, naming the line, and writes nothing.
 */
export function maskedLineGuard(relPath: string, masked: ReadonlySet<string>): LiveSource['guard'] {
  if (masked.size === 0) return undefined;
  return (line) => {
    if (!masked.has(line)) return;
    throw new StudioFailure(
      'Conflict',
      `${relPath}: the line "${oneLine(line)}" would be written from Memory Studio's masked copy, without its secret; nothing was written.`,
      {
        path: relPath,
        hint: "Memory Studio keeps no secret, so it cannot write that line back as it was. Reject that change (or resolve the conflict with the disk's lines, theirs), then apply again.",
      },
    );
  };
}

/** A proposal's two texts as the data folder keeps them, and the real proposal's lines that held a secret. */
export interface StoredPair {
  base: string | null;
  proposed: string | null;
  maskedLines: MaskedLines;
}

export function maskPair(base: string | null, proposed: string | null): StoredPair {
  const masked = maskForStorage([base, proposed]);
  return {
    base: masked.texts[0] ?? null,
    proposed: masked.texts[1] ?? null,
    maskedLines: { base: masked.maskedLines[0] ?? [], proposed: masked.maskedLines[1] ?? [] },
  };
}

const acceptAll = (hunks: readonly Hunk[]): DecisionMap => Object.fromEntries(hunks.map((h) => [h.id, 'accept' as const]));

/**
 * A proposal may keep a secret only on a line it leaves as it is: Apply writes every unchanged line from the live file,
 * so such a secret stays on disk exactly as it was. A secret on a line the proposal adds, moves or changes would have
 * to rest in the data folder to be written later, so the proposal is refused, naming the line (nothing is stored).
 * The check replays "accept everything" over the real base and compares each line that holds a secret.
 */
export function refuseCarriedSecrets(
  relPath: string,
  real: { base: string | null; proposed: string | null },
  stored: StoredPair,
  hunks: readonly Hunk[],
): void {
  const secretLines = stored.maskedLines.proposed ?? [];
  if (real.proposed === null || secretLines.length === 0) return;
  const wanted = splitLines(real.proposed);
  let got: string[] = [];
  if (real.base !== null && stored.base !== null && stored.proposed !== null) {
    got = splitLines(applyDecisions(stored.base, stored.proposed, hunks, acceptAll(hunks), {}, { live: real.base }));
  }
  const line = secretLines.find((i) => got[i] !== wanted[i]);
  if (line === undefined) return;
  const finding = scanSecrets(wanted[line] ?? '')[0];
  const what = finding ? `${finding.rule.replace(/^secrets\//, '')}, ${finding.preview}` : 'a secret';
  throw new StudioFailure(
    'Invalid',
    `${relPath}: line ${line + 1} of the proposed text holds a secret (${what}) on a line this proposal adds or changes; nothing was proposed.`,
    {
      path: relPath,
      hint: 'A change may keep a secret only on a line it leaves untouched: Memory Studio never stores secrets, so it could not write that line. Take the secret out of the new text (or redact it in the file first: "Redact all"), then propose again.',
    },
  );
}
