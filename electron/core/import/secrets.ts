// The import's secret gate: findings with line numbers per file, the person's redact/skip choices, and the redacted text.
import type { SecretAction, SecretFinding } from '../../../shared/import';
import { findSecretSpans, maskSecret, TextLines } from '../lint';

/** Characters of the line kept around a finding in the preview. */
const PREVIEW_CONTEXT = 60;

export interface ScannedSecret {
  finding: SecretFinding;
  start: number;
  end: number;
  replacement: string;
}

/** Every secret in `text` (Codex's four patterns and our broader set), with a masked preview of its line. */
export function scanImportSecrets(text: string): ScannedSecret[] {
  const spans = findSecretSpans(text);
  if (spans.length === 0) return [];
  const lines = new TextLines(text);
  return spans.map((span) => {
    const { line, column } = lines.position(span.secretStart);
    const lineStart = lines.lineStart(line);
    const lineEnd = lines.lineEnd(line);
    const from = Math.max(lineStart, span.secretStart - PREVIEW_CONTEXT);
    const to = Math.min(lineEnd, span.secretEnd + PREVIEW_CONTEXT);
    const secretEnd = Math.min(span.secretEnd, lineEnd);
    const preview = `${from > lineStart ? '…' : ''}${text.slice(from, span.secretStart)}${maskSecret(text.slice(span.secretStart, span.secretEnd))}${text.slice(secretEnd, to)}${to < lineEnd ? '…' : ''}`;
    return { finding: { id: `${span.rule}@${line}:${column}`, rule: span.rule, line, column, preview, action: null }, start: span.start, end: span.end, replacement: span.replacement };
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
  return scanned.map((s) => ({ ...s, finding: { ...s.finding, action: choices.byFinding.get(s.finding.id) ?? choices.forFile ?? choices.fallback ?? null } }));
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
