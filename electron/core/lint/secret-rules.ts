// The secret patterns: Codex's four redaction regexes ported exactly, plus well-known token formats Codex misses.
import { group } from '../platform/indexed';
import type { LintSeverity, SecretRule } from '../../../shared/lint';
import { REDACTED_SECRET } from '../codex/constants';

/** A place to redact: `text[start, end)` becomes `replacement`; `secretStart..secretEnd` is the secret itself. */
export interface SecretCandidate {
  rule: SecretRule;
  start: number;
  end: number;
  replacement: string;
  secretStart: number;
  secretEnd: number;
}

export interface SecretRuleSpec {
  rule: SecretRule;
  severity: LintSeverity;
  /** Words for messages: "a GitHub token". */
  label: string;
  codexRedacts: boolean;
  /**
   * Lower-case text the rule cannot match without (any one of them); null runs it on every text. The engine
   * finds all keywords in one pass and runs a rule only around its keywords' lines (`window`).
   */
  keywords: readonly string[] | null;
  /** Around a keyword: its line and the next two (`lines`), up to 32 KiB on (`block`), or the whole text. */
  window: 'lines' | 'block' | 'text';
  find(text: string): SecretCandidate[];
}

/**
 * Rust's regex `\w` (Unicode by default): Alphabetic, marks, decimal digits, connector punctuation, join controls.
 * `\b` next to a word character is "the other side is not \w"; JS's `\b` is ASCII-only, so it is spelled out.
 */
const W = String.raw`[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]`;
/** Rust's `\s` is Unicode White_Space; JS's `\s` also matches U+FEFF, so it is spelled out too. */
const S = String.raw`\p{White_Space}`;

// codex-rs/secrets/src/sanitizer.rs (read at fork zibuyu2015831/codex@67e69213; exported from
// codex-rs/secrets/src/lib.rs upstream at openai/codex@06566159), in the order `redact_secrets` applies them.
// `(?i:\bBearer)` folds only the word; no non-ASCII character case-folds to b, e, a or r.
export const CODEX_BEARER = new RegExp(String.raw`(?<!${W})[Bb][Ee][Aa][Rr][Ee][Rr][ \t]+([A-Za-z0-9._~+/-]{16,}=*)`, 'gu');
export const CODEX_OPENAI_KEY = /sk-[A-Za-z0-9]{20,}/gu;
export const CODEX_AWS_ACCESS_KEY_ID = new RegExp(String.raw`(?<!${W})AKIA[0-9A-Z]{16}(?!${W})`, 'gu');
// `(?i)` over the whole pattern: with /iu, JS folds like Rust's Unicode mode (K = U+212A matches k, ſ matches s).
export const CODEX_SECRET_ASSIGNMENT = new RegExp(
  String.raw`(?<!${W})(api[_-]?key|token|secret|password)(?!${W})(${S}*[:=]${S}*)(["']?)([^${S}"']{8,})`,
  'giu',
);

export function* matches(regex: RegExp, text: string): Generator<RegExpExecArray> {
  const re = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`);
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) re.lastIndex++;
    yield m;
  }
}

/** Start offset of capture group `index` (the groups used here are contiguous from the match start). */
function groupStart(m: RegExpExecArray, index: number): number {
  let offset = m.index;
  for (let i = 1; i < index; i++) offset += (m[i] ?? '').length;
  return offset;
}

const whole = (rule: SecretRule, m: RegExpExecArray, replacement = REDACTED_SECRET): SecretCandidate => ({
  rule,
  start: m.index,
  end: m.index + m[0].length,
  replacement,
  secretStart: m.index,
  secretEnd: m.index + m[0].length,
});

/** Text that is already redacted, whatever is left around the marker. */
const alreadyRedacted = (value: string): boolean => value.split(REDACTED_SECRET).join('').length < 8;

/** Codex's `redact_secrets`, in its order. */
export const CODEX_RULES: SecretRuleSpec[] = [
  {
    rule: 'secrets/bearer-token',
    severity: 'error',
    label: 'a bearer token',
    codexRedacts: true,
    keywords: ['bearer'],
    window: 'lines',
    find: (text) =>
      Array.from(matches(CODEX_BEARER, text), (m) => {
        const token = group(m, 1);
        const secretStart = m.index + m[0].length - token.length;
        return { ...whole('secrets/bearer-token', m, `Bearer ${REDACTED_SECRET}`), secretStart };
      }),
  },
  {
    rule: 'secrets/openai-key',
    severity: 'error',
    label: 'an OpenAI-style key (sk-…)',
    codexRedacts: true,
    keywords: ['sk-'],
    window: 'lines',
    find: (text) => Array.from(matches(CODEX_OPENAI_KEY, text), (m) => whole('secrets/openai-key', m)),
  },
  {
    rule: 'secrets/aws-access-key-id',
    severity: 'error',
    label: 'an AWS access key id',
    codexRedacts: true,
    keywords: ['akia'],
    window: 'lines',
    find: (text) => Array.from(matches(CODEX_AWS_ACCESS_KEY_ID, text), (m) => whole('secrets/aws-access-key-id', m)),
  },
  {
    rule: 'secrets/secret-assignment',
    severity: 'warning',
    label: 'a value assigned to a key, token, secret or password',
    codexRedacts: true,
    // Rust's `\s*` around the separator may cross any number of lines.
    keywords: ['key', 'token', 'secret', 'password'],
    window: 'block',
    find: (text) => {
      const out: SecretCandidate[] = [];
      for (const m of matches(CODEX_SECRET_ASSIGNMENT, text)) {
        const value = group(m, 4);
        // Codex would rewrite `[REDACTED_SECRET]` with itself: nothing left to redact.
        if (alreadyRedacted(value)) continue;
        const start = groupStart(m, 4);
        out.push({
          rule: 'secrets/secret-assignment',
          start,
          end: start + value.length,
          replacement: REDACTED_SECRET,
          secretStart: start,
          secretEnd: start + value.length,
        });
      }
      return out;
    },
  },
];

/** A rule whose match (or capture `secretGroup`, never optional) is the secret, replaced whole; `accept` can veto a match. */
export function simpleRule(
  rule: SecretRule,
  label: string,
  keywords: readonly string[],
  regex: RegExp,
  secretGroup = 0,
  accept: (secret: string) => boolean = () => true,
): SecretRuleSpec {
  return {
    rule,
    severity: 'error',
    label,
    codexRedacts: false,
    keywords,
    window: 'lines',
    find: (text) => {
      const out: SecretCandidate[] = [];
      for (const m of matches(regex, text)) {
        const secret = group(m, secretGroup);
        if (!accept(secret)) continue;
        const start = secretGroup === 0 ? m.index : groupStart(m, secretGroup);
        out.push({
          rule,
          start,
          end: start + secret.length,
          replacement: REDACTED_SECRET,
          secretStart: start,
          secretEnd: start + secret.length,
        });
      }
      return out;
    },
  };
}

/** Current OpenAI keys (`sk-proj-…`, `sk-svcacct-…`, `sk-admin-…`): the hyphen stops Codex's `sk-[A-Za-z0-9]{20,}`. */
export const OPENAI_PREFIXED_KEY = /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g;
export const GITHUB_TOKEN = /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g;
export const GITLAB_TOKEN = /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g;
export const SLACK_TOKEN = /(?<![A-Za-z0-9_-])xox[abpsr]-[A-Za-z0-9-]{10,}/g;
export const SLACK_WEBHOOK = /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)([A-Za-z0-9_/-]{20,})/g;
export const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/g;
export const URL_CREDENTIALS = /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s:/?#@[\]"'<>]+:)([^\s/?#@"'<>]+)@(?=[A-Za-z0-9[])/g;

/** Passwords in URLs that are placeholders, not secrets. */
const URL_PASSWORD_PLACEHOLDER =
  /^(?:\*+|x+|\.{3}|…|<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%s|\{[^}]*\}|password|passwd|pass|secret|token|changeme|\[REDACTED_SECRET\])$/i;

/** The JWT header must decode to a JSON object naming an algorithm or type: plain base64 text starting `eyJ` is not a token. */
function jwtHeaderOk(token: string): boolean {
  try {
    const header: unknown = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'));
    return typeof header === 'object' && header !== null && ('alg' in header || 'typ' in header);
  } catch {
    return false;
  }
}

/** Token formats with a fixed shape that Codex does not redact. */
export const TOKEN_RULES: SecretRuleSpec[] = [
  simpleRule('secrets/openai-project-key', 'an OpenAI project, service-account or admin key', ['sk-'], OPENAI_PREFIXED_KEY),
  simpleRule('secrets/github-token', 'a GitHub token', ['gh', 'github_pat_'], GITHUB_TOKEN),
  simpleRule('secrets/gitlab-token', 'a GitLab personal access token', ['glpat-'], GITLAB_TOKEN),
  simpleRule('secrets/slack-token', 'a Slack token', ['xox'], SLACK_TOKEN),
  simpleRule('secrets/slack-webhook', 'a Slack webhook URL', ['hooks.slack.com'], SLACK_WEBHOOK, 2),
  simpleRule('secrets/jwt', 'a JSON Web Token', ['eyj'], JWT, 0, jwtHeaderOk),
  simpleRule(
    'secrets/url-credentials',
    'a password inside a URL',
    ['://'],
    URL_CREDENTIALS,
    3,
    (password) => !URL_PASSWORD_PLACEHOLDER.test(password),
  ),
];
