// The import's secret gate: findings with line numbers per file, the person's redact/skip choices, and the redacted text.
import type { SecretAction, SecretFinding } from '../../../shared/import';
import { findSecretSpans, maskSecret, TextLines } from '../lint';
import type { SecretCandidate } from '../lint/secret-rules';

/** Characters of the line kept around a finding in the preview. */
const PREVIEW_CONTEXT = 60;

export interface ScannedSecret {
  finding: SecretFinding;
  start: number;
  end: number;
  replacement: string;
}

/** `text[from, to)` with every secret span inside it masked (first four characters, then `****`). */
function maskedSlice(text: string, from: number, to: number, spans: readonly SecretCandidate[]): string {
  let out = '';
  let at = from;
  for (const span of spans) {
    if (span.secretEnd <= from || span.secretStart >= to) continue;
    const start = Math.max(at, span.secretStart);
    out += text.slice(at, start) + maskSecret(text.slice(span.secretStart, span.secretEnd));
    at = Math.min(to, Math.max(start, span.secretEnd));
  }
  return out + text.slice(at, to);
}

/**
 * Every secret in `text` (Codex's four patterns and our broader set), with a preview of its line in which this
 * secret and every other one on the line are masked: a preview never shows a secret in clear. `spans` are the text's
 * own, when they were found elsewhere (on the pool).
 */
export function scanImportSecrets(text: string, spans: readonly SecretCandidate[] = findSecretSpans(text)): ScannedSecret[] {
  if (spans.length === 0) return [];
  const lines = new TextLines(text);
  return spans.map((span) => {
    const { line, column } = lines.position(span.secretStart);
    const lineStart = lines.lineStart(line);
    const lineEnd = lines.lineEnd(line);
    const from = Math.max(lineStart, span.secretStart - PREVIEW_CONTEXT);
    const to = Math.min(lineEnd, Math.max(span.secretStart, Math.min(span.secretEnd, lineEnd)) + PREVIEW_CONTEXT);
    const preview = `${from > lineStart ? '…' : ''}${maskedSlice(text, from, to, spans)}${to < lineEnd ? '…' : ''}`;
    return {
      finding: { id: `${span.rule}@${line}:${column}`, rule: span.rule, line, column, preview, action: null },
      start: span.start,
      end: span.end,
      replacement: span.replacement,
    };
  });
}

export interface FileSecretChoices {
  /** Per finding id. */
  byFinding: Map<string, SecretAction>;
  /** For every finding of the file. */
  forFile: SecretAction | undefined;
  /** For every finding without its own choice. */
  fallback: SecretAction | undefined;
}

/** Each finding's action: its own choice, else the file's, else the default; null when unresolved. */
export function resolveSecrets(scanned: readonly ScannedSecret[], choices: FileSecretChoices): ScannedSecret[] {
  return scanned.map((s) => ({
    ...s,
    finding: { ...s.finding, action: choices.byFinding.get(s.finding.id) ?? choices.forFile ?? choices.fallback ?? null },
  }));
}

/** `text` with every finding marked `redact` replaced as Codex's redactor (and `redactAllSecrets`) replaces it. */
export function redactChosen(text: string, scanned: readonly ScannedSecret[]): string {
  let out = '';
  let at = 0;
  for (const s of scanned) {
    if (s.finding.action !== 'redact') continue;
    out += text.slice(at, s.start) + s.replacement;
    at = s.end;
  }
  return out + text.slice(at);
}
