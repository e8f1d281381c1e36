// The bench's measuring tools: whole processes timed as alternating pairs (A B A B ...), medians and the median of the
// pair-by-pair ratios, each row printed beside its budget; and a plain word when an anchor tool is missing.
import { spawnSync } from 'node:child_process';

export const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 7));

/** Runs a command once and returns its wall time in ms; a failure (unexpected exit code) stops the bench with its output. */
export function timeOnce(cmd, args, { okCodes = [0], env, cwd } = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, env: env ? { ...process.env, ...env } : process.env, cwd });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!okCodes.includes(result.status ?? -1))
    throw new Error(`${cmd} ${args.join(' ')} exited ${result.status}:\n${(result.stderr || result.stdout).slice(0, 2000)}`);
  return { ms, stdout: result.stdout };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/**
 * A and B in turn, `runs` times each, after one unmeasured warm-up of each. `a`/`b` are () => [cmd, args, options]
 * (called before each run, untimed, so a run can be given a fresh proposal or data folder).
 */
export function pairs(a, b, runs = RUNS) {
  for (const side of [a, b]) if (side) timeOnce(...side());
  const as = [];
  const bs = [];
  const ratios = [];
  for (let i = 0; i < runs; i++) {
    const x = timeOnce(...a()).ms;
    as.push(x);
    if (b) {
      const y = timeOnce(...b()).ms;
      bs.push(y);
      ratios.push(x / y);
    }
  }
  return { a: median(as), b: b ? median(bs) : null, ratio: b ? median(ratios) : null, runs };
}

/** Which anchor tools are on PATH; each missing one is named once with how to get it. */
export function checkTools() {
  const wanted = {
    rg: 'ripgrep, the search anchor (Debian: apt-get install -y ripgrep)',
    git: 'git, the diff anchor (apt-get install -y git)',
    cp: 'cp (coreutils)',
    cat: 'cat (coreutils)',
    sh: 'a POSIX shell',
    grep: 'grep, the secret-scan anchor of the import figures',
  };
  const have = {};
  for (const [tool, what] of Object.entries(wanted)) {
    have[tool] = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).status === 0;
    if (!have[tool]) console.log(`Anchor tool missing: ${tool} is not installed, so the figures measured against ${what} are skipped.`);
  }
  return have;
}

const ms = (n) => (n === null || n === undefined ? '' : n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${n.toFixed(n < 10 ? 2 : 0)} ms`);

/** One table row: the figure, ours, the anchor, the ratio, the budget and whether it is met. */
export function row(table, figure, { ours, anchorLabel = '', anchor = null, ratio = null, budget, within }) {
  table.push({
    figure,
    ours: ms(ours),
    anchorLabel,
    anchor: ms(anchor),
    ratio: ratio === null ? '' : `${ratio.toFixed(2)}x`,
    budget,
    verdict: within === null ? '' : within ? 'within' : 'OVER',
  });
}

export function printTable(title, table) {
  console.log(`\n${title}`);
  const widths = { figure: 58, ours: 9, anchorLabel: 30, anchor: 9, ratio: 7, budget: 26 };
  console.log(
    `  ${'figure'.padEnd(widths.figure)} ${'Memory Studio'.padStart(13)}  ${'anchor'.padEnd(widths.anchorLabel)} ${'time'.padStart(widths.anchor)} ${'ratio'.padStart(widths.ratio)}  ${'budget'.padEnd(widths.budget)} verdict`,
  );
  for (const r of table) {
    console.log(
      `  ${r.figure.padEnd(widths.figure)} ${r.ours.padStart(13)}  ${r.anchorLabel.padEnd(widths.anchorLabel)} ${r.anchor.padStart(widths.anchor)} ${r.ratio.padStart(widths.ratio)}  ${r.budget.padEnd(widths.budget)} ${r.verdict}`,
    );
  }
}
