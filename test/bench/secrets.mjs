// Bench: the secret scan of the heavy home (memory-studio secrets) beside one grep -E pass of the same patterns.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** A JS character class body as a POSIX bracket body (where `\` is literal): escapes become the characters. */
function classToEre(body) {
  let out = '';
  let dash = false;
  let bracket = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = body[++i];
    if (n === 'w') out += '[:alnum:]_';
    else if (n === 'd') out += '0-9';
    else if (n === 's') out += '[:space:]';
    else if (n === 't') out += '\t';
    else if (n === 'n' || n === 'r' || n === 'f')
      continue; // grep reads lines: no line break inside one
    else if (n === 'x') {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (n === 'p') {
      const close = body.indexOf('}', i);
      out += /White_Space/.test(body.slice(i, close)) ? '[:space:]' : '[:alnum:]_';
      i = close;
    } else if (n === '-') dash = true;
    else if (n === ']') bracket = true;
    else out += n;
  }
  return (bracket ? ']' : '') + out + (dash ? '-' : '');
}

/** A JS RegExp source as a POSIX ERE for grep: lookarounds dropped (grep has none), lazy quantifiers made greedy. */
export function jsToEre(src) {
  let out = '';
  const stack = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      const n = src[++i];
      if (n === 'd') out += '[0-9]';
      else if (n === 'x') {
        out += `[${String.fromCharCode(parseInt(src.slice(i + 1, i + 3), 16))}]`;
        i += 2;
      } else if (n === 'p') {
        const close = src.indexOf('}', i);
        out += /White_Space/.test(src.slice(i, close)) ? '[[:space:]]' : '[[:alnum:]_]';
        i = close;
      } else if (n === 't') out += '\t';
      else out += `\\${n}`;
    } else if (c === '[') {
      let j = i + 1;
      if (src[j] === '^') j++;
      if (src[j] === ']') j++;
      while (src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
      const negated = src[i + 1] === '^';
      out += `[${negated ? '^' : ''}${classToEre(src.slice(i + (negated ? 2 : 1), j))}]`;
      i = j;
    } else if (c === '(') {
      const look = /^\(\?<?[=!]/.exec(src.slice(i));
      const group = /^\(\?(?::|<[A-Za-z_][A-Za-z0-9_]*>)/.exec(src.slice(i));
      stack.push(look ? out.length : -1);
      out += '(';
      if (look) i += look[0].length - 1;
      else if (group) i += group[0].length - 1;
    } else if (c === ')') {
      const start = stack.pop();
      if (start >= 0) out = out.slice(0, start);
      else out += ')';
    } else if (c === '?' && /[*+?}]$/.test(out) && !/\\[*+?}]$/.test(out)) {
      // lazy quantifier: ERE has only greedy ones
    } else out += c;
  }
  return out;
}

/** The engine's patterns as EREs: gitleaks' rules (case folding spelled out) and Memory Studio's own. */
export function secretPatterns(root) {
  const core = (path) => require(join(root, 'out', 'electron', 'core', path));
  const { goToJsSource } = core('lint/go-regexp.js');
  const data = require(join(root, 'out', 'electron', 'core', 'lint', 'rules', 'gitleaks-rules.json'));
  const rules = core('lint/secret-rules.js');
  const ours = [
    rules.CODEX_BEARER,
    rules.CODEX_OPENAI_KEY,
    rules.CODEX_AWS_ACCESS_KEY_ID,
    rules.CODEX_SECRET_ASSIGNMENT,
    rules.OPENAI_PREFIXED_KEY,
    rules.GITHUB_TOKEN,
    rules.GITLAB_TOKEN,
    rules.SLACK_TOKEN,
    rules.SLACK_WEBHOOK,
    rules.JWT,
    rules.URL_CREDENTIALS,
  ];
  const extra = [
    '-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----',
    '[A-Za-z0-9/+]{40}',
    '((?:Account|SharedAccess)Key=)([A-Za-z0-9+/]{43}=|[A-Za-z0-9+/]{86}==)',
  ];
  const fromGitleaks = data.rules.map((r) =>
    goToJsSource(r.regex.startsWith('(?i)') ? r.regex.slice(4) : r.regex, { ci: r.regex.startsWith('(?i)'), dotAll: false }),
  );
  return [...ours.map((re) => re.source), ...extra, ...fromGitleaks].map(jsToEre);
}

/**
 * Alternating pairs, whole process against whole process: `memory-studio secrets` and grep -E over the same files.
 * One `grep -E -f` with every pattern at once builds a DFA too large to finish (about 70 s for 270 KB of these
 * files here), so grep gets its fastest form: one pass per pattern, each a plain DFA, summed.
 */
export async function secretFigures(root, home, dir, runs) {
  const list = secretPatterns(root);
  const patterns = join(dir, 'secret-patterns.ere');
  writeFileSync(patterns, list.join('\n') + '\n');
  const check = spawnSync('grep', ['-Ec', '-f', patterns, '/dev/null']);
  if (check.status === 2) throw new Error(`grep refuses the patterns: ${check.stderr}`);
  const bin = join(root, 'electron', 'host', 'bin.cjs');
  const roots = [join(home, 'memories'), join(home, 'memories_v2')];
  const ours = () => [spawnSync(process.execPath, [bin, 'secrets', '--codex-home', home, '--json'], { maxBuffer: 64 << 20 })];
  // grep exits 1 when nothing matches; -c reads every line of every file, as the scan does.
  const grep = () =>
    list.map((p) => spawnSync('grep', ['-rEc', '--exclude-dir=.git', '--include=*.md', '-e', p, ...roots], { maxBuffer: 64 << 20 }));
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    for (const [samples, fn] of [
      [a, ours],
      [b, grep],
    ]) {
      const started = process.hrtime.bigint();
      for (const result of fn()) if (result.status !== 0 && result.status !== 1) throw new Error(String(result.stderr));
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  const median = (xs) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return [
    [
      'secret scan of the heavy home (both roots)',
      median(a),
      `grep -E, ${list.length} patterns, one pass each`,
      median(b),
      'budget: within 2x',
    ],
  ];
}
