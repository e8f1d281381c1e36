// Bare keys with no prefix of their own, found by shape plus the words around them (entropy plus context).
import { REDACTED_SECRET } from '../codex/constants';
import { isHexOrUuid, mixedAndRandom, shannonEntropy } from './secret-heuristics';
import { matches, simpleRule, type SecretCandidate, type SecretRuleSpec } from './secret-rules';

/** An AWS secret access key: 40 base64 characters, alone (not part of a longer base64 run). */
const BARE_AWS_SECRET = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
/** "aws" or "secret" shortly before the value, on its line or the line before. */
const AWS_CONTEXT = /aws|secret/i;
const CONTEXT_CHARS = 160;

export const AWS_SECRET_RULE: SecretRuleSpec = {
  rule: 'secrets/aws-secret-access-key',
  severity: 'error',
  label: 'an AWS secret access key',
  codexRedacts: false,
  keywords: ['aws', 'secret'],
  window: 'lines',
  find: (text) => {
    const out: SecretCandidate[] = [];
    for (const m of matches(BARE_AWS_SECRET, text)) {
      const value = m[0];
      // Random keys mix upper, lower and digits with high entropy; hex hashes and words do not (a leading `/` is
      // as likely as any other character, so a path-like start does not disqualify it here).
      // A 40-character commit or object id is this shape too ("commit <sha> rotated the secret loader"); a real
      // key is base64 of random bytes, and all 40 of those are hex digits about once in 10^24 keys.
      if (isHexOrUuid(value) || !mixedAndRandom(value)) continue;
      if (!AWS_CONTEXT.test(text.slice(Math.max(0, m.index - CONTEXT_CHARS), m.index))) continue;
      out.push({
        rule: 'secrets/aws-secret-access-key',
        start: m.index,
        end: m.index + value.length,
        replacement: REDACTED_SECRET,
        secretStart: m.index,
        secretEnd: m.index + value.length,
      });
    }
    return out;
  },
};

/** Azure storage connection strings (`AccountKey=` 64 bytes in base64) and Service Bus / Event Hubs `SharedAccessKey=`. */
const AZURE_ACCOUNT_KEY = /((?:Account|SharedAccess)Key=)([A-Za-z0-9+/]{43}=|[A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])/gi;

/**
 * A password under a password-like name (`DB_PASSWORD=`, `"password": "…"`, `smtp_passwd:`): Codex's assignment rule
 * needs the bare word and no quote before the separator, and gitleaks' generic rule stops at symbols.
 */
const PASSWORD_ASSIGNMENT =
  /(?<![A-Za-z0-9])([A-Za-z0-9_.-]*(?:passw(?:or)?d|passphrase|pwd)[A-Za-z0-9_.-]*)(["']?)([ \t]*(?::=|=>|[:=])[ \t]*)(["']?)([^\s"'`]{8,128})/gi;
const PASSWORD_PLACEHOLDER = /^(?:\$\{?[A-Za-z_]|<|\{\{|%[A-Za-z_]|\*+$|x+$|\.{3}|…)|REDACTED/i;

/** Mixed like a chosen or generated password: three kinds of character (lower, upper, digit, symbol) and some entropy. */
function passwordLike(value: string): boolean {
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  return !PASSWORD_PLACEHOLDER.test(value) && kinds >= 3 && shannonEntropy(value) >= 3;
}

export const PASSWORD_RULE: SecretRuleSpec = {
  ...simpleRule('secrets/password-assignment', 'a password', ['passw', 'pwd', 'passphrase'], PASSWORD_ASSIGNMENT, 5, passwordLike),
  severity: 'warning',
};

export const CONTEXT_RULES: readonly SecretRuleSpec[] = [
  AWS_SECRET_RULE,
  PASSWORD_RULE,
  simpleRule(
    'secrets/azure-storage-key',
    'an Azure storage or Service Bus access key',
    ['accountkey=', 'sharedaccesskey='],
    AZURE_ACCOUNT_KEY,
    2,
  ),
];
