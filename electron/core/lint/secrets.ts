// The secret scanner: every secret in a text, masked, with the redaction edit Codex's own redactor would make.
import { itemAt } from '../platform/indexed';
import { appendAll } from '../platform/append';
import type { LintDiagnostic, SecretFinding } from '../../../shared/lint';
import { REDACTED_SECRET } from '../codex/constants';
import { GITLEAKS_RULES } from './gitleaks';
import { KeywordIndex } from './keyword-index';
import { CONTEXT_RULES } from './secret-context';
import { HIGH_ENTROPY_RULE, PRIVATE_KEY_RULE } from './secret-heuristics';
import {
  CODEX_AWS_ACCESS_KEY_ID,
  CODEX_BEARER,
  CODEX_OPENAI_KEY,
  CODEX_RULES,
  CODEX_SECRET_ASSIGNMENT,
  TOKEN_RULES,
  type SecretCandidate,
  type SecretRuleSpec,
} from './secret-rules';
import { TextLines } from './text-lines';

/**
 * Rules by precedence. When two matches overlap, the longer replacement span wins (it is what Codex's
 * sequential redaction ends up removing, e.g. `token=abc` + `sk-…` inside one value); on a tie, the earlier
 * rule here wins, so `token=ghp_…` is reported as a GitHub token, and `token=sk_live_…` as gitleaks' Stripe
 * rule, with the same edit Codex would make. Generic rules come last.
 */
const [bearer, openai, aws, assignment] = CODEX_RULES as [SecretRuleSpec, SecretRuleSpec, SecretRuleSpec, SecretRuleSpec];
const isGeneric = (spec: SecretRuleSpec) => spec.rule.startsWith('secrets/generic');
export const SECRET_RULE_SPECS: readonly SecretRuleSpec[] = [
  PRIVATE_KEY_RULE,
  bearer,
  openai,
  aws,
  ...TOKEN_RULES,
  ...CONTEXT_RULES,
  ...GITLEAKS_RULES.filter((spec) => !isGeneric(spec)),
  assignment,
  HIGH_ENTROPY_RULE,
  ...GITLEAKS_RULES.filter(isGeneric),
];

const specOf = new Map(SECRET_RULE_SPECS.map((spec, index) => [spec.rule, { spec, index }]));

/** Non-overlapping candidates, by the precedence above, in text order. */
function resolveOverlaps(candidates: SecretCandidate[]): SecretCandidate[] {
  const ranked = [...candidates].sort(
    (a, b) =>
      b.end - b.start - (a.end - a.start) || (specOf.get(a.rule)?.index ?? 0) - (specOf.get(b.rule)?.index ?? 0) || a.start - b.start,
  );
  const kept: SecretCandidate[] = [];
  for (const c of ranked) {
    if (kept.some((k) => c.start < k.end && k.start < c.end)) continue;
    kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}

const KEYWORDS = [...new Set(SECRET_RULE_SPECS.flatMap((spec) => spec.keywords ?? []).map((k) => k.toLowerCase()))];
const INDEX = new KeywordIndex(KEYWORDS);
const keywordIds = new Map(KEYWORDS.map((k, i) => [k, i]));
const ruleKeywordIds = SECRET_RULE_SPECS.map((spec) => spec.keywords?.map((k) => keywordIds.get(k.toLowerCase()) as number) ?? null);
/** A keyword seen this often is everywhere: its rules run on the whole text instead of windows. */
const MAX_HITS = 256;
/** Short texts are scanned whole: windows would save nothing. */
const WHOLE_TEXT_CHARS = 1024;
const BLOCK_CHARS = 65_536;
/** Codex's rules fold Unicode case as Rust does (K, the Kelvin sign, is k; ſ is s): ASCII keywords miss those. */
const UNICODE_FOLDS = /[\u017f\u212a]/;

/** Merged [start, end) ranges around the keyword hits: from the hit's line start to the end of the window. */
function windowsAround(text: string, hits: number[], kind: 'lines' | 'block'): Array<[number, number]> {
  const sorted = hits.length > 1 ? [...hits].sort((a, b) => a - b) : hits;
  const out: Array<[number, number]> = [];
  for (const hit of sorted) {
    const start = text.lastIndexOf('\n', hit - 1) + 1;
    let end = kind === 'block' ? Math.min(text.length, hit + BLOCK_CHARS) : hit;
    for (let lines = kind === 'block' ? 1 : 3; lines > 0 && end < text.length; lines--) {
      const next = text.indexOf('\n', end);
      end = next === -1 ? text.length : lines > 1 ? next + 1 : next;
    }
    const last = out[out.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** For each keyword: the rules it triggers (by precedence); and the rules that run on every text. */
const rulesOfKeyword: number[][] = KEYWORDS.map(() => []);
const KEYWORDLESS: number[] = [];
const CODEX_REDACTS: number[] = [];
ruleKeywordIds.forEach((ids, index) => {
  if (!ids) KEYWORDLESS.push(index);
  else for (const id of new Set(ids)) rulesOfKeyword[id]?.push(index);
  if (itemAt(SECRET_RULE_SPECS, index).codexRedacts) CODEX_REDACTS.push(index);
});

/**
 * The rules to run on a text, by precedence: those without keywords, those whose keyword occurs, and (when the text
 * has a character Rust's case folding maps to ASCII) Codex's own rules whatever their keywords. Masking asks this of
 * every string of a report, most of which hold no keyword at all, so the rules are not visited one by one.
 */
function rulesFor(found: readonly number[], folds: boolean): number[] {
  if (found.length === 0 && !folds) return KEYWORDLESS;
  const picked = new Set<number>(KEYWORDLESS);
  for (const id of found) for (const rule of itemAt(rulesOfKeyword, id)) picked.add(rule);
  if (folds) for (const rule of CODEX_REDACTS) picked.add(rule);
  return [...picked].sort((a, b) => a - b);
}

/**
 * The last text scanned and its spans, while `rememberingSecretScans` runs: indexing a file asks twice of the same text
 * (its lint diagnostics, then the masked copy it stores), and the scan is a third of that file's cost. Dropped when the
 * work ends, so no text (a secret in it) stays in memory after it.
 */
let lastScan: { text: string; spans: readonly SecretCandidate[] } | null = null;
let remembering = 0;

/** Runs `work` with the last scan kept for a second ask of the same text (copies handed out), then forgets it. */
export function rememberingSecretScans<T>(work: () => T): T {
  remembering++;
  try {
    return work();
  } finally {
    if (--remembering === 0) lastScan = null;
  }
}

/** Every secret in `text` as non-overlapping replacement spans (UTF-16 offsets), in text order. */
export function findSecretSpans(text: string): SecretCandidate[] {
  if (remembering === 0) return scanSpans(text);
  if (lastScan?.text === text) return lastScan.spans.map((c) => ({ ...c }));
  const spans = scanSpans(text);
  lastScan = { text, spans: spans.map((c) => ({ ...c })) };
  return spans;
}

function scanSpans(text: string): SecretCandidate[] {
  const { positions, found } = INDEX.scan(text, MAX_HITS);
  const folds = UNICODE_FOLDS.test(text);
  const candidates: SecretCandidate[] = [];
  for (const index of rulesFor(found, folds)) {
    const spec = itemAt(SECRET_RULE_SPECS, index);
    const ids = ruleKeywordIds[index];
    if (!ids || (folds && spec.codexRedacts)) {
      appendAll(candidates, spec.find(text));
      continue;
    }
    const hits = ids.flatMap((id) => itemAt(positions, id));
    if (hits.length === 0) continue;
    if (spec.window === 'text' || text.length <= WHOLE_TEXT_CHARS || ids.some((id) => itemAt(positions, id).length >= MAX_HITS)) {
      appendAll(candidates, spec.find(text));
      continue;
    }
    for (const [from, to] of windowsAround(text, hits, spec.window)) {
      for (const c of spec.find(text.slice(from, to))) {
        candidates.push({
          ...c,
          start: c.start + from,
          end: c.end + from,
          secretStart: c.secretStart + from,
          secretEnd: c.secretEnd + from,
        });
      }
    }
  }
  return candidates.length === 0 ? candidates : resolveOverlaps(candidates);
}

/** What a rule's secret is, in words ("an AWS access key id"), for marks and messages. */
export function secretLabel(rule: string): string {
  return specOf.get(rule)?.spec.label ?? 'a secret';
}

/** First four characters, then `****`. */
export function maskSecret(secret: string): string {
  return `${Array.from(secret).slice(0, 4).join('')}****`;
}

function toFinding(lines: TextLines, c: SecretCandidate): SecretFinding {
  const { spec } = specOf.get(c.rule) as { spec: SecretRuleSpec };
  const from = lines.position(c.secretStart);
  const to = lines.position(c.secretEnd);
  const preview = maskSecret(lines.text.slice(c.secretStart, c.secretEnd));
  const edit = lines.replaceEdit(c.start, c.end, c.replacement);
  return {
    rule: c.rule,
    severity: spec.severity,
    line: from.line,
    endLine: to.line,
    startColumn: from.column,
    endColumn: to.column,
    preview,
    codexRedacts: spec.codexRedacts,
    fix: { description: `Replace ${spec.label} (${preview}) with ${REDACTED_SECRET}`, edits: [edit] },
  };
}

/** Scans one file's text. Line numbers and edits follow the parsers' line model (after a BOM; LF, CRLF, CR). */
export function scanSecrets(text: string): SecretFinding[] {
  const spans = findSecretSpans(text);
  if (spans.length === 0) return [];
  const lines = new TextLines(text);
  return spans.map((c) => toFinding(lines, c));
}

/** The findings as lint diagnostics (rule ids `secrets/*`). */
export function secretDiagnostics(text: string): LintDiagnostic[] {
  return scanSecrets(text).map((f) => {
    const { spec } = specOf.get(f.rule) as { spec: SecretRuleSpec };
    const who = spec.codexRedacts
      ? "Codex's own redactor removes this from session input, but it never re-scans consolidated memory files"
      : 'Codex does not redact this kind of secret';
    return {
      severity: f.severity,
      rule: f.rule,
      line: f.line,
      endLine: f.endLine,
      startColumn: f.startColumn,
      endColumn: f.endColumn,
      message: `This looks like ${spec.label} (${f.preview}). ${who}, so it is injected into the next session's prompt as is. Replace it with ${REDACTED_SECRET}.`,
      fix: f.fix,
    };
  });
}

/** `text` with every finding replaced, as one string (all fixes at once, without line-edit conflicts). */
export function redactAllSecrets(text: string): string {
  let out = '';
  let at = 0;
  for (const c of findSecretSpans(text)) {
    out += text.slice(at, c.start) + c.replacement;
    at = c.end;
  }
  return out + text.slice(at);
}

/** `codex_secrets::redact_secrets` exactly: the four regexes applied one after the other, as Codex does. */
export function codexRedactSecrets(input: string): string {
  return input
    .replace(CODEX_BEARER, `Bearer ${REDACTED_SECRET}`)
    .replace(CODEX_OPENAI_KEY, REDACTED_SECRET)
    .replace(CODEX_AWS_ACCESS_KEY_ID, REDACTED_SECRET)
    .replace(CODEX_SECRET_ASSIGNMENT, `$1$2$3${REDACTED_SECRET}`);
}
