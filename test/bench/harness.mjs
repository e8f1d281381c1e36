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
  return { ms, stdout: result.stdout, stderr: result.stderr };
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

// Node's start (`node -e ""`), measured once at the start of the run (setNodeStart): every row is also printed as a
// multiple of it, so a figure can be read on a machine, or under a load, other than the one that printed it.
let nodeStartMs = null;

/** Measures `node -e ""` as alternating pairs with `sh -c :` (a process that does nothing); `keep` makes its median the yardstick. */
export function measureNodeStart(runs = RUNS * 2, keep = true) {
  const r = pairs(
    () => [process.execPath, ['-e', '']],
    () => ['sh', ['-c', ':']],
    runs,
  );
  if (keep) nodeStartMs = r.a;
  return r;
}

export const nodeStart = () => nodeStartMs;

/** "1.23x": a ratio as printed; '' when there is none. */
export const times = (ratio) =>
  ratio === null || ratio === undefined || !Number.isFinite(ratio) ? '' : `${ratio.toFixed(ratio < 0.1 ? 3 : 2)}x`;

/**
 * One table row: the figure, its ratio to its anchor (the tool a person would otherwise use, measured beside it) and
 * to Node's start, ours and the anchor's absolute times beside them, the budget and whether it is met (null: no
 * budget, reported). `unit` other than 'ms' (a count) prints the value as is and no Node-start ratio.
 */
export function row(table, figure, { ours, anchorLabel = '', anchor = null, ratio = null, budget, within, unit = 'ms' }) {
  const isMs = unit === 'ms';
  table.push({
    figure,
    ours: isMs ? ms(ours) : `${ours} ${unit}`,
    anchorLabel,
    anchor: ms(anchor),
    ratio: times(ratio ?? (anchor ? ours / anchor : null)),
    node: isMs && nodeStartMs ? times(ours / nodeStartMs) : '',
    budget,
    verdict: within === null || within === undefined ? 'reported' : within ? 'within' : 'OVER',
  });
}

export function printTable(title, table) {
  console.log(`\n${title}`);
  const w = { figure: 70, ratio: 8, node: 8, ours: 10, anchorLabel: 34, anchor: 9, budget: 28 };
  console.log(
    `  ${'figure'.padEnd(w.figure)} ${'/anchor'.padStart(w.ratio)} ${'/node'.padStart(w.node)} ${'ours'.padStart(w.ours)}  ${'anchor'.padEnd(w.anchorLabel)} ${'time'.padStart(w.anchor)}  ${'budget'.padEnd(w.budget)} verdict`,
  );
  for (const r of table) {
    console.log(
      `  ${r.figure.padEnd(w.figure)} ${r.ratio.padStart(w.ratio)} ${r.node.padStart(w.node)} ${r.ours.padStart(w.ours)}  ${r.anchorLabel.padEnd(w.anchorLabel)} ${r.anchor.padStart(w.anchor)}  ${r.budget.padEnd(w.budget)} ${r.verdict}`,
    );
  }
}
