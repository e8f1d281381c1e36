// What a proposal keeps of its texts: every secret masked, the lines that hold one, and the checks that keep Apply exact.
import type { DecisionMap, Hunk } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import { maskForStorage } from '../lint/mask-at-rest';
import type { SecretCandidate } from '../lint/secret-rules';
import { runTask } from '../runtime/pool';
import { scanSecrets } from '../lint/secrets';
import { applyDecisions, type LiveSource } from './hunks';
import { splitLines } from './lines';
import type { LineSecrets } from './secret-lines';

export type { LineSecrets } from './secret-lines';

/**
 * Per stored text of a proposal file, the 0-based lines that hold a masked secret and what each held
 * (`proposal_files.masked_lines`). Only these lines differ from the real text, and only these can never be written
 * back: Memory Studio does not have their secret any more. The review marks them (`Hunk.secrets`).
 */
export interface MaskedLines {
  base?: LineSecrets;
  proposed?: LineSecrets;
  mergeBase?: LineSecrets;
  ours?: LineSecrets;
}

/** Stored as `{side: [line, ...], kinds: {side: [what, ...]}}`: the lines as at-rest first kept them, the kinds beside. */
type StoredLines = Record<string, number[] | Record<string, string[]>>;

/** Before kinds were kept (migration 7's rows), a masked line is marked as holding "a secret". */
const UNKNOWN_KIND = 'a secret';

/** The stored JSON of a group of texts' masked lines (a proposal file's sides, a history file's before and after). */
export function parseLineSecrets(json: string | null | undefined): Record<string, LineSecrets> {
  if (!json) return {};
  const stored = JSON.parse(json) as StoredLines;
  const allKinds = (stored.kinds ?? {}) as Record<string, string[]>;
  const out: Record<string, LineSecrets> = {};
  for (const [side, lines] of Object.entries(stored)) {
    if (side === 'kinds') continue;
    const kinds = allKinds[side] ?? [];
    out[side] = new Map((lines as number[]).map((line, k) => [line, kinds[k] ?? UNKNOWN_KIND]));
  }
  return out;
}

/** The JSON `parseLineSecrets` reads, or null when no text of the group holds a masked line. */
export function lineSecretsJson(sides: Record<string, LineSecrets | undefined>): string | null {
  const kept = Object.entries(sides).filter((e): e is [string, LineSecrets] => (e[1]?.size ?? 0) > 0);
  if (kept.length === 0) return null;
  const kinds: Record<string, string[]> = {};
  const stored: StoredLines = {};
  for (const [side, lines] of kept) {
    const sorted = [...lines.entries()].sort((a, b) => a[0] - b[0]);
    stored[side] = sorted.map(([line]) => line);
    kinds[side] = sorted.map(([, kind]) => kind);
  }
  return JSON.stringify({ ...stored, kinds });
}

export const parseMaskedLines = (json: string | null | undefined): MaskedLines => parseLineSecrets(json);
export const maskedLinesJson = (lines: MaskedLines): string | null => lineSecretsJson({ ...lines });

/**
 * The masked lines of `text` by their text (a blank one is left out: a masked multi-line key leaves blank lines
 * behind), with what each held: a rebase or a revision keeps some masked lines of the texts it came from.
 */
export function maskedLineTexts(text: string | null, lines: LineSecrets | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (text === null || !lines || lines.size === 0) return out;
  const all = splitLines(text);
  for (const [i, kind] of lines) {
    const line = all[i] ?? '';
    if (line.trim() !== '' && !out.has(line)) out.set(line, kind);
  }
  return out;
}

/** The lines of `text` equal to one of `masked` (by text, see `maskedLineTexts`), with what each held. */
export function secretsByText(text: string | null, masked: ReadonlyMap<string, string>): LineSecrets {
  const out: LineSecrets = new Map();
  if (text === null || masked.size === 0) return out;
  splitLines(text).forEach((line, i) => {
    const kind = masked.get(line);
    if (kind !== undefined) out.set(i, kind);
  });
  return out;
}

/** Every masked line of `texts` (pairs of a stored text and its masked lines), by text. */
export function maskedLinesOf(...texts: Array<[string | null, LineSecrets | undefined]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [text, lines] of texts) for (const [line, kind] of maskedLineTexts(text, lines)) if (!out.has(line)) out.set(line, kind);
  return out;
}

const oneLine = (line: string) => line.replace(/\r?\n$/, '');

/**
 * The guard Apply passes to `resolveFile`: a line taken from the proposal's side that is one of the file's masked
 * lines would write `abcd****` where a secret was. That happens only when a decision takes the proposal's copy of a
 * line whose secret Memory Studio no longer has (a conflict resolved with "ours" over a disk that rotated the key, a
 * proposal made before secrets were masked): Apply refuses it, naming the line, and writes nothing.
 */
export function maskedLineGuard(relPath: string, masked: ReadonlyMap<string, string>): LiveSource['guard'] {
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

/** A proposal's two texts as the data folder keeps them, and the lines of each that held a secret (and what). */
export interface StoredPair {
  base: string | null;
  proposed: string | null;
  maskedLines: MaskedLines;
}

/** Above this many characters a text's secret scan runs on the pool (about 15 ms of scanning), both texts at once. */
const OFF_THREAD_SCAN_CHARS = 256 * 1024;

/** Each large text's secret spans, scanned on the pool all at once; null for a small one (the caller scans it here). */
export function scanLargeTexts(texts: readonly (string | null)[]): Promise<(SecretCandidate[] | null)[]> {
  return Promise.all(
    texts.map((text) => (text !== null && text.length > OFF_THREAD_SCAN_CHARS ? runTask('secret-spans', { text }) : null)),
  );
}

/** `maskPair`, with a large text's secret scan on the pool: a 5 MB MEMORY.md is a third of a second of regexes. */
export async function maskPairAsync(base: string | null, proposed: string | null): Promise<StoredPair> {
  return maskPair(base, proposed, await scanLargeTexts([base, proposed]));
}

export function maskPair(base: string | null, proposed: string | null, scanned?: readonly (SecretCandidate[] | null)[]): StoredPair {
  const masked = maskForStorage([base, proposed], scanned);
  return {
    base: masked.texts[0] ?? null,
    proposed: masked.texts[1] ?? null,
    maskedLines: { base: masked.kinds[0] ?? new Map(), proposed: masked.kinds[1] ?? new Map() },
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
  const secretLines = [...(stored.maskedLines.proposed?.keys() ?? [])].sort((a, b) => a - b);
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
