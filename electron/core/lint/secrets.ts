// The secret scanner: every secret in a text, masked, with the redaction edit Codex's own redactor would make.
import type { LintDiagnostic, SecretFinding, SecretRule } from '../../../shared/lint';
import { REDACTED_SECRET } from '../codex-constants';
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
 * rule here wins, so `token=ghp_…` is reported as a GitHub token with the same edit Codex would make.
 */
const [bearer, openai, aws, assignment] = CODEX_RULES as [SecretRuleSpec, SecretRuleSpec, SecretRuleSpec, SecretRuleSpec];
export const SECRET_RULE_SPECS: readonly SecretRuleSpec[] = [PRIVATE_KEY_RULE, bearer, openai, aws, ...TOKEN_RULES, assignment, HIGH_ENTROPY_RULE];

const specOf = new Map(SECRET_RULE_SPECS.map((spec, index) => [spec.rule, { spec, index }]));

/** Non-overlapping candidates, by the precedence above, in text order. */
function resolveOverlaps(candidates: SecretCandidate[]): SecretCandidate[] {
  const ranked = [...candidates].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || (specOf.get(a.rule)?.index ?? 0) - (specOf.get(b.rule)?.index ?? 0) || a.start - b.start,
  );
  const kept: SecretCandidate[] = [];
  for (const c of ranked) {
    if (kept.some((k) => c.start < k.end && k.start < c.end)) continue;
    kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/**
 * Literal text each rule's pattern cannot match without (any one of them, lower-cased). Most memory files contain
 * none, so the expensive patterns are skipped; a rule missing here always runs.
 */
const REQUIRED_TEXT: Partial<Record<SecretRule, readonly string[]>> = {
  'secrets/bearer-token': ['bearer'],
  'secrets/openai-key': ['sk-'],
  'secrets/openai-project-key': ['sk-'],
  'secrets/aws-access-key-id': ['akia'],
  'secrets/secret-assignment': ['key', 'token', 'secret', 'password'],
  'secrets/high-entropy-assignment': ['key', 'token', 'secret', 'passw', 'pwd', 'credential'],
  'secrets/github-token': ['gh', 'github_pat_'],
  'secrets/gitlab-token': ['glpat-'],
  'secrets/slack-token': ['xox'],
  'secrets/slack-webhook': ['hooks.slack.com'],
  'secrets/jwt': ['eyj'],
  'secrets/url-credentials': ['://'],
  'secrets/private-key': ['private key'],
};

/** Every secret in `text` as non-overlapping replacement spans (UTF-16 offsets), in text order. */
export function findSecretSpans(text: string): SecretCandidate[] {
  // Unicode case folding as /iu does it: toLowerCase maps K (Kelvin) to k; ſ (long s) must be folded by hand.
  const folded = text.toLowerCase().replaceAll('\u017f', 's');
  const applicable = SECRET_RULE_SPECS.filter((spec) => REQUIRED_TEXT[spec.rule]?.some((needle) => folded.includes(needle)) ?? true);
  return resolveOverlaps(applicable.flatMap((spec) => spec.find(text)));
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
