// The CLI's figures, whole process against whole process in alternating pairs: --help, inspect, lint, search, budget,
// apply of 10 files, propose, the pathological files and a 20 MB MEMORY.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { clearInterval, setInterval } from 'node:timers';
import { join } from 'node:path';
import { pairs, row, RUNS, timeOnce } from './harness.mjs';
import { client, waitIndexed } from './http-host.mjs';

const require = createRequire(import.meta.url);
const node = process.execPath;

/** Creates `count` pending proposals of 10 rollout summaries each (distinct files, so each Apply lands cleanly). */
async function tenFileProposals(root, home, data, count) {
  const { openStudioDb } = require(join(root, 'out', 'electron', 'core', 'studio-db', 'index.js'));
  const { createProposal } = require(join(root, 'out', 'electron', 'core', 'review', 'index.js'));
  const v1 = join(home, 'memories');
  const names = readdirSync(join(v1, 'rollout_summaries')).sort();
  const db = openStudioDb(data);
  const out = [];
  try {
    for (let p = 0; p < count; p++) {
      const files = names.slice(p * 10, p * 10 + 10).map((name) => {
        const relPath = `rollout_summaries/${name}`;
        return {
          version: 'v1',
          root: v1,
          relPath,
          proposedContent: `${readFileSync(join(v1, relPath), 'utf8')}\n- reviewed in the bench\n`,
        };
      });
      out.push({
        id: (await createProposal(db, { title: `bench ${p}`, source: 'edit', files })).id,
        files: files.map((f) => join(v1, f.relPath)),
      });
    }
  } finally {
    db.close();
  }
  return out;
}

/** Starts `memory-studio keep` on the home and resolves once it says it answers (its first refresh done). */
/** `keep` (ready when it says so), or the app (`serve`: ready once its keeper's socket is in the data folder). */
function startKeeper(bin, home, data, how = 'keep') {
  const args = how === 'keep' ? ['keep'] : ['serve', '--port', '0'];
  const env = { ...process.env, MEMORY_STUDIO_NO_ELECTRON: '1' };
  const child = spawn(node, [bin, ...args, '--codex-home', home, '--data-dir', data], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  const socketThere = () => existsSync(join(data, 'keeper')) && readdirSync(join(data, 'keeper')).some((n) => n.endsWith('.sock'));
  return new Promise((resolve, reject) => {
    let settling = false;
    // The app as a person has it open: its first screen asked for and its index ready (as `keep` is when it says so),
    // not the seconds after its start, when its own start-up work shares the two cores with the command timed.
    const settle = async (url) => {
      const call = client(url);
      await call('home.get');
      await waitIndexed(call);
      done();
    };
    const poll = setInterval(() => {
      const url = /Open: (\S+)/.exec(out)?.[1];
      if (how === 'serve' && socketThere() && url && !settling) {
        settling = true;
        settle(url).catch(reject);
      }
    }, 50);
    const done = () => {
      clearInterval(poll);
      resolve(child);
    };
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (how === 'keep' && out.includes('Ctrl+C stops')) done();
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`memory-studio ${how} exited (${code}) before it answered: ${err}`));
    });
  });
}

function stopKeeper(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** MEMORY.md with 100 scattered one-line edits, for propose (its hunks) against git diff --no-index. */
function hundredEdits(home, dir) {
  const base = readFileSync(join(home, 'memories', 'MEMORY.md'), 'utf8');
  const lines = base.split('\n');
  for (let i = 0; i < 100; i++) {
    const at = Math.floor(((i + 0.5) * lines.length) / 100);
    lines[at] = `${lines[at]} (edited ${i})`;
  }
  const edited = join(dir, 'MEMORY.edited.md');
  writeFileSync(edited, lines.join('\n'));
  return edited;
}

export async function cliFigures({ root, bin, heavy, have, scratch, homes }) {
  const table = [];
  const data = join(scratch, 'data-heavy');
  const roots = [join(heavy, 'memories'), join(heavy, 'memories_v2')];
  // The README's way: bin/memory-studio run as a program (its #! line starts Node), as a person types it.
  const readme = join(root, 'bin', 'memory-studio');
  const cli =
    (...args) =>
    () => [readme, [...args, '--codex-home', heavy, '--data-dir', data], {}];
  const word = 'flaky';

  const help = pairs(
    () => [readme, ['--help']],
    () => [node, ['-e', '']],
  );
  row(table, '`bin/memory-studio --help` (modules load lazily)', {
    ours: help.a,
    anchorLabel: 'node -e ""',
    anchor: help.b,
    ratio: help.ratio,
    budget: '150 ms',
    within: help.a <= 150,
  });

  if (have.rg) {
    const rgCount = () => ['rg', ['-i', '-F', '-c', word, ...roots], { okCodes: [0, 1] }];
    const rgLines = () => ['rg', ['-i', '-F', word, ...roots], { okCodes: [0, 1] }];
    const searchCli = () => [readme, ['search', word, 'test', '--json', '--codex-home', heavy, '--data-dir', data], {}];
    // With `memory-studio keep` running on the home (as git's fsmonitor daemon for git status): the CLI hands the
    // command to it, which answers from the index its file events keep fresh. The budgeted figures.
    const keeper = await startKeeper(bin, heavy, data);
    try {
      // Each beside rg over both roots; doctor's report is shown, not budgeted (it compares every entry).
      const kept = [
        ['inspect --json, warm, keep running', cli('inspect', '--json'), rgCount, `rg -i -F -c ${word}`, 2],
        ['lint --json, warm, keep running', cli('lint', '--json'), rgCount, `rg -i -F -c ${word}`, 2],
        ['doctor --json, warm, keep running', cli('doctor', '--json'), rgCount, `rg -i -F -c ${word}`, null],
        [`search "${word} test" --json, keep running`, searchCli, rgLines, `rg -i -F ${word}`, 2],
        ['budget --json (both roots), keep running', cli('budget', '--json'), rgCount, `rg -i -F -c ${word}`, 2],
      ];
      for (const [figure, ours, anchor, anchorLabel, limit] of kept) {
        const r = pairs(ours, anchor);
        row(table, figure, {
          ours: r.a,
          anchorLabel: `${anchorLabel} (both roots)`,
          anchor: r.b,
          ratio: r.ratio,
          budget: limit === null ? 'none' : `${limit}x rg`,
          within: limit === null ? null : r.ratio <= limit,
        });
      }
    } finally {
      await stopKeeper(keeper);
    }
    // The app open on the home (serve here) answers the same commands from its keeper thread, as `keep` does.
    const app = await startKeeper(bin, heavy, data, 'serve');
    try {
      const r = pairs(cli('inspect', '--json'), rgCount);
      row(table, 'inspect --json, warm, the app (serve) open', {
        ours: r.a,
        anchorLabel: `rg -i -F -c ${word} (both roots)`,
        anchor: r.b,
        ratio: r.ratio,
        budget: '2x rg',
        within: r.ratio <= 2,
      });
    } finally {
      await stopKeeper(app);
    }
    // Without a keeper each process must lstat every file and session before it answers (a file changed in place
    // does not change its folder's mtime): reported beside the floors that bound it, not budgeted.
    for (const command of ['inspect', 'lint']) {
      const r = pairs(cli(command, '--json'), rgCount);
      row(table, `${command} --json, warm, no keeper`, {
        ours: r.a,
        anchorLabel: `rg -i -F -c ${word} (both roots)`,
        anchor: r.b,
        ratio: r.ratio,
        budget: 'none (floors below)',
        within: null,
      });
    }
    const search = pairs(searchCli, rgLines);
    row(table, `search "${word} test" --json, no keeper`, {
      ours: search.a,
      anchorLabel: `rg -i -F ${word} (both roots)`,
      anchor: search.b,
      ratio: search.ratio,
      budget: 'none (floors below)',
      within: null,
    });
    // The floors: a Node process that does nothing, and one that only does the stat pass (roots and sessions, as a
    // warm inspect or lint must; the roots alone, as search must), each beside the same rg. Reported, not budgeted.
    const floor = join(root, 'test', 'bench', 'stat-floor.cjs');
    const sessions = [join(heavy, 'sessions'), join(heavy, 'archived_sessions')];
    for (const [label, command] of [
      ['floor: node -e "" (Node start alone)', () => [node, ['-e', '']]],
      ['floor: the stat pass alone, roots + sessions (inspect, lint)', () => [node, [floor, ...roots, ...sessions]]],
      ['floor: the stat pass alone, roots (search)', () => [node, [floor, ...roots]]],
    ]) {
      const r = pairs(command, rgCount);
      row(table, label, {
        ours: r.a,
        anchorLabel: `rg -i -F -c ${word} (both roots)`,
        anchor: r.b,
        ratio: r.ratio,
        budget: 'none (what any Node CLI pays)',
        within: null,
      });
    }
  }
  const budget = pairs(cli('budget', '--json'), () => [
    'cat',
    [join(heavy, 'memories', 'memory_summary.md'), join(heavy, 'memories_v2', 'memory_summary.md')],
    {},
  ]);
  row(table, 'budget --json (both roots), no keeper', {
    ours: budget.a,
    anchorLabel: 'cat both summaries',
    anchor: budget.b,
    ratio: budget.ratio,
    budget: '200 ms',
    within: budget.a <= 200,
  });

  // apply: a fresh 10-file proposal per run (made beforehand, untimed); the anchor copies the same 10 files.
  const proposals = await tenFileProposals(root, heavy, data, RUNS + 1);
  let next = 0;
  const copyDir = join(scratch, 'cp-target');
  mkdirSync(copyDir, { recursive: true });
  let copied = 0;
  const apply = pairs(
    () => [readme, ['apply', proposals[next++].id, '--accept', 'all', '--json', '--codex-home', heavy, '--data-dir', data], {}],
    () => ['cp', [...proposals[copied++ % proposals.length].files, copyDir], {}],
  );
  row(table, 'apply of 10 files (locks, Codex lease, history)', {
    ours: apply.a,
    anchorLabel: 'cp of the same 10 files',
    anchor: apply.b,
    ratio: apply.ratio,
    budget: '300 ms',
    within: apply.a <= 300,
  });

  if (have.git) {
    const edited = hundredEdits(heavy, scratch);
    const propose = pairs(cli('propose', '--version', 'v1', '--file', 'MEMORY.md', '--content-file', edited, '--json'), () => [
      'git',
      ['diff', '--no-index', '--no-color', join(heavy, 'memories', 'MEMORY.md'), edited],
      { okCodes: [1] },
    ]);
    row(table, 'propose: 100 edits to the 5.6 MB MEMORY.md', {
      ours: propose.a,
      anchorLabel: 'git diff --no-index',
      anchor: propose.b,
      ratio: propose.ratio,
      budget: '3x git diff',
      within: propose.ratio <= 3,
    });
  }

  // Cold on purpose: a fresh data folder per run, so nothing the index remembers helps.
  const fresh =
    (home, ...args) =>
    () => [readme, [...args, '--codex-home', home, '--data-dir', mkdtempSync(join(scratch, 'cold-'))], {}];
  // The first inspect of the heavy home (index built from nothing) beside cat of every file it reads.
  const everything = [...roots, join(heavy, 'sessions'), join(heavy, 'archived_sessions')];
  const cold = pairs(
    fresh(heavy, 'inspect', '--json'),
    () => ['sh', ['-c', 'find "$@" -type f -exec cat {} + >/dev/null', 'sh', ...everything], {}],
    Math.min(RUNS, 3),
  );
  row(table, 'first inspect --json of the heavy home (cold: fresh data folder)', {
    ours: cold.a,
    anchorLabel: 'cat of every file (find -exec cat)',
    anchor: cold.b,
    ratio: cold.ratio,
    budget: '5x cat',
    within: cold.ratio <= 5,
  });
  const line = pairs(fresh(homes.longLine, 'budget', '--version', 'v1', '--json'), () => [
    'cat',
    [join(homes.longLine, 'memories', 'memory_summary.md')],
    {},
  ]);
  row(table, 'budget, summary with a 100,000-character line (cold)', {
    ours: line.a,
    anchorLabel: 'cat the summary',
    anchor: line.b,
    ratio: line.ratio,
    budget: '1 s',
    within: line.a <= 1000,
  });
  const nested = pairs(fresh(homes.nested, 'inspect', '--version', 'v1', '--json'), () => [
    'cat',
    [join(homes.nested, 'memories', 'memory_summary.md'), join(homes.nested, 'memories', 'MEMORY.md')],
    {},
  ]);
  row(table, 'inspect, 500 KB deeply nested summary + MEMORY.md (cold)', {
    ours: nested.a,
    anchorLabel: 'cat both files',
    anchor: nested.b,
    ratio: nested.ratio,
    budget: '2 s',
    within: nested.a <= 2000,
  });

  const big = homes.memory20;
  const once = JSON.parse(
    timeOnce(node, [
      bin,
      'consolidate',
      '--version',
      'v1',
      '--json',
      '--codex-home',
      big,
      '--data-dir',
      mkdtempSync(join(scratch, 'cold-')),
    ]).stdout,
  );
  const consolidate = pairs(
    fresh(big, 'consolidate', '--version', 'v1', '--json'),
    () => ['cp', ['-a', join(big, 'memories'), join(scratch, `cp-a-${Date.now()}`)], {}],
    Math.min(RUNS, 3),
  );
  row(table, 'consolidate a 20 MB MEMORY.md to a proposal', {
    ours: consolidate.a,
    anchorLabel: 'cp -a of the root',
    anchor: consolidate.b,
    ratio: consolidate.ratio,
    budget: `20x cp -a${once.state === 'proposed' ? '' : ' (NO PROPOSAL)'}`,
    within: once.state === 'proposed' && consolidate.ratio <= 20,
  });
  rmSync(copyDir, { recursive: true, force: true });
  return table;
}
