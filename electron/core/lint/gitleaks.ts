// The adopted rule set: gitleaks' rules (rules/gitleaks-rules.json, MIT) run with gitleaks' own semantics.
//
// Per rule: keywords gate it, the first non-empty capture group (or `secretGroup`) is the secret, a Shannon
// entropy at or under `entropy` drops it, and the rule's and the global allowlists (regexes on the secret, match
// or line; stopwords in the secret) veto it. Generic rules also need a digit in the secret, as gitleaks does.
import { REDACTED_SECRET } from '../codex/constants';
import { goRegExp } from './go-regexp';
import data from './rules/gitleaks-rules.json';
import type { SecretCandidate, SecretRuleSpec } from './secret-rules';
import { isIdentifierLike, shannonEntropy } from './secret-heuristics';

interface AllowlistData {
  condition?: string;
  regexTarget?: string;
  regexes?: string[];
  stopwords?: string[];
}

interface RuleData {
  id: string;
  description: string;
  regex: string;
  secretGroup?: number;
  entropy?: number;
  keywords: string[];
  allowlists?: AllowlistData[];
}

interface Allowlist {
  and: boolean;
  target: 'secret' | 'match' | 'line';
  regexes: RegExp[];
  stopwords: string[];
}

/** Our own rules cover these better (unterminated blocks, JWT header check, the webhook's host kept), so gitleaks' copies would only duplicate them. */
const SUPERSEDED = new Set(['private-key', 'jwt', 'slack-webhook-url']);

const compileAllowlist = (a: AllowlistData): Allowlist => ({
  and: a.condition === 'AND',
  target: a.regexTarget === 'match' ? 'match' : a.regexTarget === 'line' ? 'line' : 'secret',
  regexes: (a.regexes ?? []).map((r) => goRegExp(r, '')),
  stopwords: (a.stopwords ?? []).map((s) => s.toLowerCase()),
});

/** Compiled on first use, as each rule's regexes are: most commands load the scanner and run few rules or none. */
let global: Allowlist | null = null;
const globalAllowlist = () => (global ??= compileAllowlist(data.allowlist));

/** gitleaks' `Allowlist.RegexAllowed` / `ContainsStopWord`, joined by the list's condition (OR unless AND). */
function allowed(list: Allowlist, secret: string, match: string, line: string): boolean {
  const target = list.target === 'match' ? match : list.target === 'line' ? line : secret;
  const checks: boolean[] = [];
  if (list.regexes.length > 0) checks.push(list.regexes.some((r) => r.test(target)));
  if (list.stopwords.length > 0) {
    const lower = secret.toLowerCase();
    checks.push(list.stopwords.some((s) => lower.includes(s)));
  }
  return checks.length > 0 && (list.and ? checks.every(Boolean) : checks.some(Boolean));
}

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? text.length : to);
}

/** The secret of a match: the chosen group, else the first non-empty group, else the whole match; with its offset. */
function secretOf(m: RegExpExecArray, secretGroup: number | undefined): { secret: string; offset: number } | null {
  const indices = m.indices;
  const pick = secretGroup ?? (m.length > 1 ? m.findIndex((g, i) => i > 0 && g !== undefined && g !== '') : 0);
  if (pick === -1) return { secret: m[0], offset: m.index };
  const secret = m[pick];
  const span = indices?.[pick];
  if (secret === undefined || secret === '' || !span) return null;
  return { secret, offset: span[0] };
}

/**
 * Most rules start `[\w.-]{0,50}?(?:keyword…)`: the lazy prefix only moves the match start left, yet V8 retries it
 * at every position. It is matched without the prefix, and the start is moved left afterwards (up to 50 name
 * characters), so the match allowlists still see `primary_key` in front of `key`.
 */
const NAME_PREFIX = /^((?:\(\?i\))?)\[\\w\.-\]\{0,50\}\?/;
const NAME_CHAR = /[\w.-]/;

function extendLeft(text: string, index: number): number {
  let start = index;
  while (start > 0 && index - start < 50 && NAME_CHAR.test(text.charAt(start - 1))) start--;
  return start;
}

/**
 * gitleaks ends most secrets with a quote, space, `;`, `\n` or the end; in Markdown a secret is as often followed by
 * sentence or table punctuation (`.`, `,`, `)`, `*`, `|`), which the ending accepts here too.
 */
const GITLEAKS_END = String.raw`(?:[\x60'"\s;]|\\[nr]|$)`;
const MARKDOWN_END = String.raw`(?:[\x60'"\s;.,:)\]}>*|]|\\[nr]|$)`;

function compileRule(rule: RuleData): SecretRuleSpec {
  const prefixed = NAME_PREFIX.test(rule.regex);
  // Translating a Go regex and compiling it costs about 0.05 ms a rule: done when the rule first runs, not at load.
  let compiled: { regex: RegExp; allowlists: Allowlist[] } | null = null;
  const compile = () => {
    const source = (prefixed ? rule.regex.replace(NAME_PREFIX, '$1') : rule.regex).replaceAll(GITLEAKS_END, MARKDOWN_END);
    return { regex: goRegExp(source, 'gd'), allowlists: (rule.allowlists ?? []).map(compileAllowlist) };
  };
  const generic = rule.id.startsWith('generic');
  const spec: SecretRuleSpec = {
    rule: `secrets/${rule.id}`,
    severity: generic ? 'warning' : 'error',
    label: `a secret gitleaks calls "${rule.id}"`,
    codexRedacts: false,
    keywords: rule.keywords,
    // A match starts on its keyword's line; the value may follow on the next lines (`key:\n  value`, curl -H).
    window: /\(\?s|\[\\r\\n\]|\\n/.test(rule.regex) ? 'block' : 'lines',
    find: (text) => {
      const out: SecretCandidate[] = [];
      const { regex, allowlists } = (compiled ??= compile());
      regex.lastIndex = 0;
      for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
        if (m[0].length === 0) regex.lastIndex++;
        const found = secretOf(m, rule.secretGroup);
        if (!found) continue;
        const { secret, offset } = found;
        if (rule.entropy !== undefined && shannonEntropy(secret) <= rule.entropy) continue;
        if (generic && (!/\d/.test(secret) || isIdentifierLike(secret))) continue;
        const start = prefixed ? extendLeft(text, m.index) : m.index;
        const match = text.slice(start, m.index + m[0].length);
        const line = lineAround(text, start, m.index + m[0].length);
        if (allowed(globalAllowlist(), secret, match, line) || allowlists.some((a) => allowed(a, secret, match, line))) continue;
        if (secret.includes(REDACTED_SECRET)) continue;
        out.push({
          rule: spec.rule,
          start: offset,
          end: offset + secret.length,
          replacement: REDACTED_SECRET,
          secretStart: offset,
          secretEnd: offset + secret.length,
        });
      }
      return out;
    },
  };
  return spec;
}

/** Every adopted gitleaks rule, in the file's order. */
export const GITLEAKS_RULES: readonly SecretRuleSpec[] = (data.rules as RuleData[]).filter((r) => !SUPERSEDED.has(r.id)).map(compileRule);

/** Where the rules come from, for docs and messages. */
export const GITLEAKS_SOURCE: string = data.source;
