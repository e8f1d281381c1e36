// A fresh random corpus of credentials, one generator per family the best scanners cover, plus look-alikes.
// Every call makes new random values (crypto), so the tests measure recall on keys never seen before.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const URLSAFE = ALNUM + '_-';

export const rand = (alphabet: string, n: number): string => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)] as T;
const b64 = (bytes: number) => randomBytes(bytes).toString('base64');
const jwtPart = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const pemBody = (bytes: number) => (b64(bytes).match(/.{1,64}/g) as string[]).join('\n');

export interface Family {
  name: string;
  /** A fresh secret. */
  make(): string;
  /** The environment variable or key a person would store it under. */
  env: string;
  /** The family needs words around it (bare keys): only these contexts are used. */
  contexts?: Array<(secret: string) => string>;
}

export const FAMILIES: readonly Family[] = [
  { name: 'OpenAI legacy key', env: 'OPENAI_API_KEY', make: () => `sk-${rand(ALNUM, 48)}` },
  { name: 'OpenAI project key', env: 'OPENAI_API_KEY', make: () => `sk-proj-${rand(URLSAFE, 74)}T3BlbkFJ${rand(URLSAFE, 74)}` },
  { name: 'Anthropic API key', env: 'ANTHROPIC_API_KEY', make: () => `sk-ant-api03-${rand(URLSAFE, 93)}AA` },
  { name: 'AWS access key id', env: 'AWS_ACCESS_KEY_ID', make: () => `AKIA${rand(UPPER + '234567', 16)}` },
  {
    name: 'AWS secret access key (bare)',
    env: 'AWS_SECRET_ACCESS_KEY',
    make: () => rand(B64, 40),
    contexts: [
      (s) => `AWS secret for the staging bucket: ${s}`,
      (s) => `the aws credentials were rotated; new secret\n${s}`,
      (s) => `- aws: key id in 1Password, secret ${s} (rotate monthly)`,
    ],
  },
  { name: 'GitHub classic token', env: 'GITHUB_TOKEN', make: () => `ghp_${rand(ALNUM, 36)}` },
  { name: 'GitHub fine-grained token', env: 'GH_TOKEN', make: () => `github_pat_${rand(ALNUM, 22)}_${rand(ALNUM, 59)}` },
  { name: 'GitHub app token', env: 'GH_APP_TOKEN', make: () => `${pick(['ghs', 'ghu', 'gho'])}_${rand(ALNUM, 36)}` },
  { name: 'GitLab token', env: 'GITLAB_TOKEN', make: () => `glpat-${rand(URLSAFE, 20)}` },
  { name: 'Slack bot token', env: 'SLACK_BOT_TOKEN', make: () => `xoxb-${rand(DIGITS, 12)}-${rand(DIGITS, 13)}-${rand(ALNUM, 24)}` },
  {
    name: 'Slack webhook',
    env: 'SLACK_WEBHOOK_URL',
    make: () => `https://hooks.slack.com/services/T${rand(UPPER + DIGITS, 8)}/B${rand(UPPER + DIGITS, 10)}/${rand(ALNUM, 24)}`,
  },
  {
    name: 'Stripe secret key',
    env: 'STRIPE_SECRET_KEY',
    make: () => `${pick(['sk', 'rk'])}_${pick(['live', 'test'])}_${rand(ALNUM, pick([24, 99]))}`,
  },
  { name: 'Google API key', env: 'GOOGLE_API_KEY', make: () => `AIza${rand(URLSAFE, 35)}` },
  { name: 'npm token', env: 'NPM_TOKEN', make: () => `npm_${rand(LOWER + DIGITS + UPPER, 36)}` },
  { name: 'Hugging Face token', env: 'HF_TOKEN', make: () => `hf_${rand(LOWER + UPPER, 34)}` },
  { name: 'SendGrid key', env: 'SENDGRID_API_KEY', make: () => `SG.${rand(URLSAFE, 22)}.${rand(URLSAFE, 43)}` },
  { name: 'Twilio API key', env: 'TWILIO_API_KEY', make: () => `SK${rand(HEX, 32)}` },
  { name: 'PyPI token', env: 'PYPI_TOKEN', make: () => `pypi-AgEIcHlwaS5vcmc${rand(URLSAFE, 70)}` },
  { name: 'DigitalOcean token', env: 'DIGITALOCEAN_TOKEN', make: () => `${pick(['dop', 'doo'])}_v1_${rand(HEX, 64)}` },
  { name: 'Shopify token', env: 'SHOPIFY_TOKEN', make: () => `${pick(['shpat', 'shpca', 'shppa', 'shpss'])}_${rand(HEX, 32)}` },
  { name: 'Databricks token', env: 'DATABRICKS_TOKEN', make: () => `dapi${rand(HEX, 32)}` },
  {
    name: 'Telegram bot token',
    env: 'TELEGRAM_BOT_TOKEN',
    make: () => `${rand(DIGITS, 10)}:A${rand(URLSAFE, 34)}`,
    contexts: [(s) => `TELEGRAM_BOT_TOKEN=${s}`, (s) => `telegram_token: "${s}"`, (s) => `The telegram bot token: ${s}`],
  },
  {
    name: 'Azure storage key',
    env: 'AZURE_STORAGE_CONNECTION_STRING',
    make: () => b64(64),
    contexts: [
      (s) =>
        `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=app${rand(LOWER, 6)};AccountKey=${s};EndpointSuffix=core.windows.net"`,
      (s) => `- storage: AccountName=logs${rand(DIGITS, 3)};AccountKey=${s}`,
    ],
  },
  {
    name: 'PEM private key',
    env: 'PRIVATE_KEY',
    make: () => {
      const kind = pick(['RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ', '']);
      return `-----BEGIN ${kind}PRIVATE KEY-----\n${pemBody(pick([121, 256, 1190]))}\n-----END ${kind}PRIVATE KEY-----`;
    },
    contexts: [(s) => `deploy key:\n${s}`, (s) => `\`\`\`\n${s}\n\`\`\``],
  },
  {
    name: 'private key in JSON (escaped newlines)',
    env: 'GOOGLE_APPLICATION_CREDENTIALS',
    make: () => `-----BEGIN PRIVATE KEY-----\\n${pemBody(1190).replaceAll('\n', '\\n')}\\n-----END PRIVATE KEY-----\\n`,
    contexts: [(s) => `{"type": "service_account", "private_key_id": "${rand(HEX, 40)}", "private_key": "${s}"}`],
  },
  {
    name: 'JWT',
    env: 'SESSION_JWT',
    make: () =>
      `${jwtPart({ alg: pick(['HS256', 'RS256']), typ: 'JWT' })}.${jwtPart({ sub: randomUUID(), iat: randomInt(1e9) })}.${rand(URLSAFE, 43)}`,
  },
  {
    name: 'Bearer token',
    env: 'AUTH_HEADER',
    make: () => rand(ALNUM + '._~+/-', 40),
    contexts: [(s) => `curl -H "Authorization: Bearer ${s}" https://api.internal/v1/jobs`, (s) => `Authorization: Bearer ${s}`],
  },
  {
    name: 'URL credentials',
    env: 'DATABASE_URL',
    make: () => rand(ALNUM, 18),
    contexts: [(s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`, (s) => `connect with mysql://root:${s}@127.0.0.1/test`],
  },
  {
    name: 'password assignment',
    env: 'DB_PASSWORD',
    // As password generators make them: letters with at least one digit and one symbol, shuffled in.
    make: () => [...rand(ALNUM, 14), rand(DIGITS, 1), rand('!#%&*', 1)].sort(() => randomInt(3) - 1).join(''),
    contexts: [(s) => `DB_PASSWORD=${s}`, (s) => `password: ${s}`, (s) => `"password": "${s}"`],
  },
  {
    name: 'Mailgun key',
    env: 'MAILGUN_API_KEY',
    make: () => `key-${rand(HEX, 32)}`,
    contexts: [(s) => `MAILGUN_API_KEY=${s}`, (s) => `mailgun_key: "${s}"`],
  },
  { name: 'Linear key', env: 'LINEAR_API_KEY', make: () => `lin_api_${rand(ALNUM, 40)}` },
  { name: 'Postman key', env: 'POSTMAN_API_KEY', make: () => `PMAK-${rand(HEX, 24)}-${rand(HEX, 34)}` },
  { name: 'Doppler token', env: 'DOPPLER_TOKEN', make: () => `dp.pt.${rand(ALNUM, 43)}` },
  { name: 'age secret key', env: 'AGE_KEY', make: () => `AGE-SECRET-KEY-1${rand('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}` },
  { name: 'Heroku key', env: 'HEROKU_API_KEY', make: () => `HRKU-AA${rand(URLSAFE, 58)}` },
  { name: 'Square token', env: 'SQUARE_TOKEN', make: () => `sq0atp-${rand(URLSAFE, 22)}` },
  { name: 'Grafana token', env: 'GRAFANA_TOKEN', make: () => `glsa_${rand(ALNUM, 32)}_${rand(HEX, 8)}` },
  { name: 'Dynatrace token', env: 'DT_API_TOKEN', make: () => `dt0c01.${rand(UPPER + DIGITS, 24)}.${rand(UPPER + DIGITS, 64)}` },
  { name: 'Vault token', env: 'VAULT_TOKEN', make: () => `hvs.${rand(URLSAFE, 95)}` },
  {
    name: 'generic API key',
    env: 'ACME_API_KEY',
    make: () => rand(ALNUM, 32),
    contexts: [(s) => `ACME_API_KEY=${s}`, (s) => `"client_secret": "${s}"`, (s) => `api_key: ${s}`],
  },
];

/** How a person writes a credential into a note; `{s}` is the secret, `{env}` its variable. */
const CONTEXTS: Array<(secret: string, env: string) => string> = [
  (s, env) => `- Deploy note: set ${env}=${s} before running the e2e suite.`,
  (s, env) => `"${env.toLowerCase()}": "${s}",`,
  (s, env) => `export ${env}="${s}"`,
  (s) => `The key we use in CI is ${s}.`,
  (s, env) => `| ${env} | ${s} |`,
  (s) => `Paste \`${s}\` into the settings page.`,
  (s, env) => `${env}: ${s}`,
];

const PROSE = [
  '# Task Group: payments-service',
  '- The flaky PDF export test was fixed by pinning the font cache (see rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_flaky_pdf_export_test.md).',
  'Dana prefers small PRs and runs `pnpm test --filter api` before pushing.',
  '## Keywords',
  'retry, backoff, idempotency key, webhook',
  '- Use the staging cluster for load tests; production needs an approval.',
];

export interface Sample {
  family: string;
  secret: string;
  text: string;
}

/** One secret of `family` in a random context between random memory-like lines. */
export function sample(family: Family): Sample {
  const secret = family.make();
  const line = family.contexts ? pick(family.contexts)(secret) : pick(CONTEXTS)(secret, family.env);
  const before = Array.from({ length: randomInt(4) }, () => pick(PROSE));
  const after = Array.from({ length: randomInt(4) }, () => pick(PROSE));
  return { family: family.name, secret, text: [...before, line, ...after].join('\n') + '\n' };
}

/**
 * Hex digests and UUIDs in the sentences memory files hold around them, next to the words the bare-key rules look
 * for (aws, secret, token, key): a probe found 6 of 30 such commit lines reported as AWS secret keys.
 */
export const HEX_AND_UUID_LINES: ReadonlyArray<(sha: string) => string> = [
  (sha) => `commit ${sha} rotated the token refresh logic`,
  (sha) => `- Fixed the secret loader in ${sha} (see the AWS runbook)`,
  (sha) => `git object ${sha}: blob of aws/credentials.example`,
  (sha) => `Reverted ${sha.toUpperCase()}, which broke the secret rotation job.`,
  () => `sha256:${rand(HEX, 64)} is the digest of the secrets-manager image`,
  () => `- the aws key id rotation ran in thread ${randomUUID()}`,
  () => `secret rotation request ${randomUUID().toUpperCase()} finished`,
  () => `tree ${rand(HEX, 64)} (sha256 object format) holds the secret scanner config`,
];

/** Text typical of memory files that is not a secret, however random it looks. */
export const LOOK_ALIKES: ReadonlyArray<{ name: string; make(): string }> = [
  { name: 'SHA-256 content hash', make: () => `"contentSha256": "${rand(HEX, 64)}"` },
  { name: 'commit id', make: () => `fixed in commit ${rand(HEX, 40)} (reverted later)` },
  { name: 'short commit ids', make: () => `cherry-picked ${rand(HEX, 7)} and ${rand(HEX, 12)} onto main` },
  { name: 'thread id', make: () => `thread_id: ${randomUUID()}` },
  { name: 'session token uuid', make: () => `session_token: ${randomUUID()}` },
  {
    name: 'rollout summary name',
    make: () => `- rollout_summaries/2026-0${randomInt(1, 9)}-1${randomInt(9)}T17-05-44-${rand(ALNUM, 4)}-fix_flaky_pdf_export_test.md`,
  },
  { name: 'base64 image', make: () => `![chart](data:image/png;base64,iVBORw0KGgo${b64(300)})` },
  {
    name: 'text naming key prefixes',
    make: () =>
      'OpenAI keys start with sk- or sk-proj-, GitHub tokens with ghp_ and github_pat_, AWS key ids with AKIA; never paste them here.',
  },
  { name: 'npm integrity', make: () => `"integrity": "sha512-${b64(64)}"` },
  { name: 'docker digest', make: () => `image: ghcr.io/acme/api@sha256:${rand(HEX, 64)}` },
  { name: 'git LFS pointer', make: () => `oid sha256:${rand(HEX, 64)}\nsize ${randomInt(1e6)}` },
  { name: 'env placeholder', make: () => `OPENAI_API_KEY=\${OPENAI_API_KEY} and GITHUB_TOKEN=\${{ secrets.GITHUB_TOKEN }}` },
  { name: 'redacted value', make: () => `api_key = [REDACTED_SECRET]\nAuthorization: Bearer [REDACTED_SECRET]` },
  { name: 'ssh public key', make: () => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${rand(B64, 43)} dana@laptop` },
  { name: 'session file path', make: () => `sessions/2026/03/02/rollout-2026-03-02T17-05-44-${randomUUID()}.jsonl` },
  { name: 'token budget settings', make: () => `max_tokens = ${randomInt(1, 9)}096\ntoken_budget: ${randomInt(100, 9999)}` },
  { name: 'identifiers', make: () => `useAccessTokenRefreshHandler() calls getSecretManagerClient${rand(UPPER, 1)}()` },
  { name: 'cache key', make: () => `cache_key: build-linux-x64-node20-${rand(HEX, 8)}` },
  { name: 'public key block', make: () => `-----BEGIN PUBLIC KEY-----\n${pemBody(294)}\n-----END PUBLIC KEY-----` },
  { name: 'commit in a sentence', make: () => `commit ${rand(HEX, 40)} rotated the token refresh logic` },
  { name: 'git object ids', make: () => `git cat-file -p ${rand(HEX, 40)}: the aws secret loader's tree, blob ${rand(HEX, 64)}` },
  { name: 'sha256 digest', make: () => `sha256 ${rand(HEX, 64)} of the secrets bundle matched the release notes` },
  { name: 'uuids in prose', make: () => `the api key rotation ran as thread ${randomUUID()} (request ${randomUUID().toUpperCase()})` },
  {
    name: 'ISO timestamps and versions',
    make: () => `released v2.${randomInt(99)}.${randomInt(9)} on 2026-03-0${randomInt(1, 9)}T17:05:44Z (build ${rand(DIGITS, 10)})`,
  },
];
