// The secret scanner: each rule finds its secret and leaves look-alikes alone; fixes redact as Codex's redactor does.
import { describe, expect, it } from 'vitest';
import { entropyThreshold, looksRandom, shannonEntropy } from '../../../electron/core/lint/secret-heuristics';
import {
  codexRedactSecrets,
  findSecretSpans,
  maskSecret,
  rememberingSecretScans,
  redactAllSecrets,
  scanSecrets,
  SECRET_RULE_SPECS,
  secretDiagnostics,
} from '../../../electron/core/lint/secrets';
import { applyTextEdits } from '../../../electron/core/formats/lines';
import { LintDiagnosticSchema, SecretFindingSchema } from '../../../shared/lint';

const R = '[REDACTED_SECRET]';
// Fake secrets are assembled at run time so the repository holds no token-shaped literals.
const alnum = (n: number, seed = 7) => Array.from({ length: n }, (_, i) => 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ0'[(i * seed) % 27]).join('');
const GH = `ghp_${alnum(36)}`;
const GH_PAT = `github_pat_${alnum(22, 5)}_${alnum(59, 11)}`;
const GL = `glpat-${alnum(20, 13)}`;
const SLACK = `xoxb-123456789012-1234567890123-${alnum(24)}`;
const SK = `sk-${alnum(24)}`;
const SK_PROJ = `sk-proj-${alnum(40, 5)}-${alnum(20, 11)}`;
const AKIA = 'AKIA' + 'IOSFODNN7EXAMPLE';
const jwtPart = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const JWT = `${jwtPart({ alg: 'HS256', typ: 'JWT' })}.${jwtPart({ sub: '1234567890', name: 'Dana' })}.${alnum(43, 5)}`;
const PEM_BODY = [alnum(64), alnum(64, 5), alnum(40, 11)].join('\n');
const PEM = `-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----`;

/** The one finding's rule, and the text after applying its fix with the parsers' own edit applier. */
function single(text: string): { rule: string; fixed: string; preview: string } {
  const findings = scanSecrets(text);
  expect(findings, JSON.stringify(findings)).toHaveLength(1);
  const f = SecretFindingSchema.parse(findings[0]);
  return { rule: f.rule, fixed: applyTextEdits(text, f.fix.edits), preview: f.preview };
}

describe('Codex redaction rules, exactly as codex-rs/secrets/src/sanitizer.rs', () => {
  // The upstream test table (redacts_supported_bearer_tokens / avoids_bearer_false_positives).
  it.each([
    ['Bearer abcde+fghijklmnopqrstuvwxyz012345', 'Bearer [REDACTED_SECRET]'],
    ['Bearer abcdefghijklmnop+secret_suffix', 'Bearer [REDACTED_SECRET]'],
    ['Bearer sk-abcdefghijklmnopqrst+secret_suffix', 'Bearer [REDACTED_SECRET]'],
    ['Bearer AKIAABCDEFGHIJKLMNOP/~secret_suffix', 'Bearer [REDACTED_SECRET]'],
    ['Bearer AbcdefghijklMN09._~+/-==; echo done', 'Bearer [REDACTED_SECRET]; echo done'],
    ['authorization: bEaReR\tabcdefghijklmnop', 'authorization: Bearer [REDACTED_SECRET]'],
    ['Bearer   abcdefghijklmnop', 'Bearer [REDACTED_SECRET]'],
  ])('redacts %j', (input, expected) => {
    expect(codexRedactSecrets(input)).toBe(expected);
    expect(single(input)).toMatchObject({ rule: 'secrets/bearer-token', fixed: expected });
  });

  it.each([
    'Bearer of good news',
    'Bearer abcdefghijklmno',
    'NotABearer abcdefghijklmnop',
    'Bearerabcdefghijklmnop',
    'Bearer\nabcdefghijklmnop',
    'Bearer\u00a0abcdefghijklmnop',
    'Bearer abcdefghijklmno\u212a',
    'éBearer abcdefghijklmnop', // Rust's \b is Unicode: é is a word character, so no boundary
  ])('leaves %j alone', (input) => {
    expect(codexRedactSecrets(input)).toBe(input);
    expect(scanSecrets(input)).toEqual([]);
  });

  it('OpenAI-style keys: sk- and 20+ alphanumerics, anywhere', () => {
    expect(single(`key ${SK} here`)).toMatchObject({ rule: 'secrets/openai-key', fixed: `key ${R} here`, preview: 'sk-a****' });
    expect(scanSecrets('sk-short123 and sk_abcdefghijklmnopqrstuvwx')).toEqual([]);
  });

  it('AWS access key ids need Unicode word boundaries on both sides', () => {
    expect(single(`id=${AKIA}`)).toMatchObject({ rule: 'secrets/aws-access-key-id', fixed: `id=${R}` });
    expect(scanSecrets(`${AKIA}X`)).toEqual([]);
    expect(scanSecrets(`x${AKIA}`)).toEqual([]);
    expect(scanSecrets(`é${AKIA}`)).toEqual([]);
    expect(codexRedactSecrets(`é${AKIA}`)).toBe(`é${AKIA}`);
  });

  it('assignments keep key, separator and quote, and redact the value', () => {
    expect(single("api_key = 'abcd1234efgh'")).toMatchObject({ rule: 'secrets/secret-assignment', fixed: `api_key = '${R}'` });
    expect(single('PASSWORD: hunter2hunter2')).toMatchObject({ fixed: `PASSWORD: ${R}` });
    expect(single('Token="abcdefgh"')).toMatchObject({ fixed: `Token="${R}"` });
    expect(codexRedactSecrets("api-key:'abcd1234efgh' secret=abcdefghij")).toBe(`api-key:'${R}' secret=${R}`);
    // (?i) in Unicode mode: the Kelvin sign folds to k, as in Rust.
    expect(single('api_\u212Aey=abcdefgh12')).toMatchObject({ fixed: `api_\u212Aey=${R}` });
  });

  it('assignments: short values, other words, already-redacted values are not findings', () => {
    for (const text of [
      'password: short',
      'tokens: abcdefghijkl',
      'my_token=abcdefghijk',
      `token: ${R}`,
      `password=${R},`,
      `secret = "${R}"`,
    ]) {
      expect(scanSecrets(text), text).toEqual([]);
    }
  });

  it("an assignment can span lines, as Rust's \\s does; the fix edits the value's line", () => {
    const text = 'secret:\n  rotation-code-2026\nnext';
    expect(codexRedactSecrets(text)).toBe(`secret:\n  ${R}\nnext`);
    const [f] = scanSecrets(text);
    expect(f).toMatchObject({ line: 2, endLine: 2, startColumn: 3, endColumn: 21 });
    expect(applyTextEdits(text, f!.fix.edits)).toBe(`secret:\n  ${R}\nnext`);
  });

  it("redactAllSecrets equals Codex's redact_secrets on text with only Codex's patterns", () => {
    const text = `curl -H "Authorization: Bearer ${alnum(30)}" \n${SK}\nAKIA${'Z'.repeat(16)} password=${alnum(12)}\ntoken: abc${SK}`;
    expect(redactAllSecrets(text)).toBe(codexRedactSecrets(text));
  });
});

describe('token formats Codex does not redact', () => {
  it.each([
    ['GitHub classic token', `use ${GH} for CI`, 'secrets/github-token', `use ${R} for CI`],
    ['GitHub fine-grained token', `(${GH_PAT})`, 'secrets/github-token', `(${R})`],
    ['GitLab token', `GL=${GL}`, 'secrets/gitlab-token', `GL=${R}`],
    ['Slack token', `slack ${SLACK}.`, 'secrets/slack-token', `slack ${R}.`],
    [
      'Slack webhook',
      `post to https://hooks.slack.com/services/T0123ABCD/B0456EFGH/${alnum(24)} daily`,
      'secrets/slack-webhook',
      `post to https://hooks.slack.com/services/${R} daily`,
    ],
    ['OpenAI project key', `OPENAI ${SK_PROJ}`, 'secrets/openai-project-key', `OPENAI ${R}`],
    ['JWT', `cookie ${JWT};`, 'secrets/jwt', `cookie ${R};`],
    [
      'URL credentials',
      'DATABASE_URL postgres://dana:s3cr3t-Pass@db.internal:5432/app',
      'secrets/url-credentials',
      `DATABASE_URL postgres://dana:${R}@db.internal:5432/app`,
    ],
    ['private key', `key:\n${PEM}\nafter`, 'secrets/private-key', `key:\n${R}\nafter`],
    [
      'unterminated private key',
      `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\n${PEM_BODY}\n\nprose`,
      'secrets/private-key',
      `${R}\n\nprose`,
    ],
    [
      'high-entropy value under a secret-like key',
      'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'secrets/high-entropy-assignment',
      `AWS_SECRET_ACCESS_KEY=${R}`,
    ],
    ['high-entropy JSON value', `{"client_secret": "${alnum(32, 5)}"}`, 'secrets/high-entropy-assignment', `{"client_secret": "${R}"}`],
  ])('%s', (_label, text, rule, fixed) => {
    expect(single(text)).toMatchObject({ rule, fixed });
  });

  it.each([
    ['short GitHub prefix', 'ghp_short and ghp_' + alnum(20)],
    ['short GitLab token', 'glpat-abc'],
    ['other xox prefix', `xoxz-${alnum(20)} and xoxb-short`],
    ['Slack URL without a secret path', 'https://hooks.slack.com/services/'],
    ['base64 that is not a JWT', `${jwtPart({ not: 'a jwt' })}.${jwtPart({ x: 1234567 })}.abcdefghijkl`],
    ['placeholder URL passwords', 'https://user:<password>@host/x https://u:${PASS}@h https://u:****@h https://u:[REDACTED_SECRET]@h'],
    ['URLs without credentials', 'ssh://git@github.com:22/x https://example.com/a:b@c git@github.com:dana/x.git'],
    ['a private-key header in prose', 'the file starts with -----BEGIN OPENSSH PRIVATE KEY----- and must stay secret'],
    ['a public key block', `-----BEGIN PUBLIC KEY-----\n${PEM_BODY}\n-----END PUBLIC KEY-----`],
    ['words under secret-like keys', 'api_token_name = read_only_access_token_for_ci\nGITHUB_TOKEN_FILE=tests/fixtures/token.json'],
  ])('leaves %s alone', (_label, text) => {
    expect(scanSecrets(text)).toEqual([]);
  });
});

describe('false positives the memory folder is full of', () => {
  it('thread ids, SHA-256 hashes, rollout file names, commit SHAs, hash4s and redacted text', () => {
    const text = [
      'thread_id: 019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61',
      'session_token: 019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61',
      '"contentSha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"',
      'secret_sha256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      '- rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md (thread_id=019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61)',
      'token_file=2026-03-02T17-05-44-LN3m-weekly_memory_report_pivot_from_git_history.md',
      'fixed in commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39; token_commit=3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
      'hash4 values: k3Qz LN3m Ab12',
      `Authorization: Bearer ${R}`,
      `api_key=${R} token: ${R}`,
      'design tokens come from design/tokens.json via `pnpm tokens`',
    ].join('\n');
    expect(scanSecrets(text)).toEqual([]);
  });
});

describe('overlaps, positions and messages', () => {
  it('reports one finding per secret: the outer match, or the specific rule on a tie', () => {
    expect(single(`token=${GH}`)).toMatchObject({ rule: 'secrets/github-token', fixed: `token=${R}` });
    expect(single(`Authorization: Bearer ${JWT}`)).toMatchObject({ rule: 'secrets/bearer-token', fixed: `Authorization: Bearer ${R}` });
    expect(single(`api_key=${SK}`)).toMatchObject({ rule: 'secrets/openai-key', fixed: `api_key=${R}` });
    // Codex's assignment swallows the whole value, so its longer span wins, as Codex's sequential redaction ends.
    expect(single(`token=abc${SK}`)).toMatchObject({ rule: 'secrets/secret-assignment', fixed: `token=${R}` });
  });

  it('gives 1-based lines and UTF-16 columns after a BOM, with CRLF, and an exclusive end column', () => {
    const text = `\uFEFFfirst\r\nsecond ${GH} x\r\nthird`;
    const [f] = scanSecrets(text);
    expect(f).toMatchObject({ line: 2, endLine: 2, startColumn: 8, endColumn: 8 + GH.length, preview: 'ghp_****' });
    expect(applyTextEdits(text, f!.fix.edits)).toBe(`\uFEFFfirst\r\nsecond ${R} x\r\nthird`);
  });

  it('a multi-line key block spans lines and its fix collapses them', () => {
    const text = `a\n${PEM}\nb\n`;
    const [f] = scanSecrets(text);
    expect(f).toMatchObject({ rule: 'secrets/private-key', line: 3, endLine: 5, preview: `${PEM_BODY.slice(0, 4)}****` });
    expect(f!.fix.edits).toEqual([{ line: 2, endLine: 6, startColumn: 1, endColumn: 34, text: R }]);
    expect(applyTextEdits(text, f!.fix.edits)).toBe(`a\n${R}\nb\n`);
  });

  it('masks with the first four characters and never shows the secret in a diagnostic', () => {
    expect(maskSecret('abcdefgh')).toBe('abcd****');
    const diagnostics = secretDiagnostics(`x ${GH}`);
    expect(diagnostics).toHaveLength(1);
    const d = LintDiagnosticSchema.parse(diagnostics[0]);
    expect(d).toMatchObject({ severity: 'error', rule: 'secrets/github-token' });
    expect(JSON.stringify(d)).not.toContain(GH);
    expect(d.message).toMatch(/GitHub token \(ghp_\*\*\*\*\)/);
  });
});

describe('entropy threshold', () => {
  it('passes random keys and rejects words, dated slugs and file names', () => {
    expect(looksRandom(alnum(24, 5))).toBe(true);
    expect(looksRandom('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toBe(true);
    expect(looksRandom('5f4dcc3b5aa765d61d8327deb882cf99')).toBe(true); // 32-char hex (MD5 length) with digits and letters
    for (const word of [
      'release-2026-03-02-hotfix-build',
      'read_only_access_token_for_ci',
      'tests/fixtures/token.json',
      '2026-03-02T17-05-44-k3Qz',
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaa1A',
    ]) {
      expect(looksRandom(word), word).toBe(false);
    }
  });

  it('passes a random key that happens to have no digit, not camelCase names or acronyms', () => {
    // About 1 in 280 random 32-character keys has no digit; the at-rest probe planted one that rested in clear.
    expect(looksRandom('nQvWysvphBdxPpDKHXePYiGkPAuNaRLx')).toBe(true);
    expect(findSecretSpans('ACME_API_KEY=nQvWysvphBdxPpDKHXePYiGkPAuNaRLx\n')).toHaveLength(1);
    for (const name of [
      'getAuthenticationTokenFromEnvironment',
      'HTTPServerURLConfigurationProvider',
      'ThisIsNotARealSecretValueAtAll',
      'all_lowercase_words_without_digits_x',
      // A review found these flagged by a first version of the check (short words, PascalCase).
      'getUserIdByEmailOrPhoneAndSendItToTheApi',
      'GetTokenFromAwsSsoOrEnvVarIfSet',
      'MyAppProdDbKeyForUsEastOneAndTwo',
    ]) {
      expect(looksRandom(name), name).toBe(false);
    }
    expect(findSecretSpans('The AWS secret loader calls getUserIdByEmailOrPhoneAndSendItToTheApi first.\n')).toEqual([]);
  });

  it('is log2(len) - 0.75 capped at 4.2, and 3.0 for hex', () => {
    expect(entropyThreshold('x'.repeat(20))).toBeCloseTo(Math.log2(20) - 0.75);
    expect(entropyThreshold('x'.repeat(64))).toBe(4.2);
    expect(entropyThreshold('0123456789abcdef0123')).toBe(3.0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});

describe('the adopted gitleaks rules', () => {
  it('each compiles (when it first runs) and runs on a text holding its keywords, including the allowlists', () => {
    // Their Go regexes are translated only when a rule first runs: this runs every one, so a rule that no longer
    // translates fails here rather than in someone's scan.
    const specs = SECRET_RULE_SPECS.filter((spec) => spec.rule.startsWith('secrets/') && spec.keywords);
    expect(specs.length).toBeGreaterThan(150);
    for (const spec of specs) {
      const text = `${(spec.keywords ?? []).join(' = ')} = ${alnum(40)}\nmore ${alnum(12, 5)}`;
      expect(() => spec.find(text), spec.rule).not.toThrow();
    }
  });
});

describe('the last scan, kept for the same text asked again', () => {
  it('answers the same spans, and a caller changing its answer changes nothing the next caller gets', () => {
    const text = `config:\n  token = ${'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}\nother line\n`;
    rememberingSecretScans(() => {
      const first = findSecretSpans(text);
      expect(first.length).toBe(1);
      const copy = first.map((c) => ({ ...c }));
      (first[0] as { start: number }).start = -1; // a caller that edits what it got
      first.push({ ...(copy[0] as (typeof copy)[0]), rule: 'x' as never });
      expect(findSecretSpans(text)).toEqual(copy);
      // Another text in between, then the first again: scanned anew, same answer.
      expect(findSecretSpans('nothing secret here')).toEqual([]);
      expect(findSecretSpans(text)).toEqual(copy);
    });
  });
});
