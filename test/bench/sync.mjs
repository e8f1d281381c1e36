// Sync figures, whole process: `sync push` and `sync pull` of the heavy home beside plain git doing the same by hand
// (copy the files into a clone, add, commit, push; pull) against bare repositories on this disk. Each run has one real
// change to carry (a line appended to MEMORY.md, untimed), so neither side measures a no-op.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pairs, row, timeOnce } from './harness.mjs';

const git = (cwd, ...args) => {
  const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@bench.invalid', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

export function syncFigures({ bin, heavy, small, scratch, have, table }) {
  if (!have.git || !have.cp) return;
  const dir = join(scratch, 'sync');
  mkdirSync(dir, { recursive: true });
  // A copy of the heavy home: the runs append to its MEMORY.md, and every other figure reads the original.
  const home = join(dir, 'home');
  timeOnce('cp', ['-a', heavy, home]);
  const root = join(home, 'memories');
  const ours = join(dir, 'ours.git');
  const theirs = join(dir, 'theirs.git');
  git(dir, 'init', '-q', '--bare', ours);
  git(dir, 'init', '-q', '--bare', theirs);
  const cli = (...args) => [process.execPath, [bin, ...args]];
  timeOnce(...cli('sync', 'init', '--remote', ours, '--machine', 'bench', '--data-dir', join(dir, 'data-a')));
  // The anchor: a clone of its own bare repository that a person fills by copying the root in.
  const work = join(dir, 'work');
  git(dir, 'clone', '-q', theirs, work);
  writeFileSync(join(work, 'README'), 'anchor\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'start');
  git(work, 'push', '-q', 'origin', 'HEAD:main');
  mkdirSync(join(work, 'files'), { recursive: true });
  // What a person would run: copy the root in (its .git baseline left out), add, commit, push.
  const copyIn = `tar -C "${root}" --exclude=./.git -cf - . | tar -C "${work}/files" -xf - && git add -A && git -c user.name=b -c user.email=b@b.invalid commit -q -m x && git push -q origin HEAD:main`;
  let n = 0;
  const change = () => appendFileSync(join(root, 'MEMORY.md'), `\n- bench change ${++n}\n`);
  const push = pairs(
    () => {
      change();
      return [...cli('sync', 'push', '--codex-home', home, '--data-dir', join(dir, 'data-a')), { okCodes: [0, 4] }];
    },
    () => {
      change();
      return ['sh', ['-c', copyIn], { cwd: work }];
    },
  );
  row(table, 'sync push of the heavy home (a one-line change), vs copy + git add/commit/push', {
    ours: push.a,
    anchorLabel: 'copy + git push',
    anchor: push.b,
    ratio: push.ratio,
    budget: '2x',
    within: push.ratio <= 2,
  });

  // Pull on another machine (the small demo home receives): the heavy home's publication, one change per run.
  timeOnce(...cli('sync', 'init', '--remote', ours, '--machine', 'desk', '--data-dir', join(dir, 'data-b')));
  const receiver = join(dir, 'receiver');
  timeOnce('cp', ['-a', small, receiver]);
  // The first arrival (the whole publication) is applied once, untimed: each timed pull then carries one change.
  const first = JSON.parse(timeOnce(...cli('sync', 'pull', '--json', '--codex-home', receiver, '--data-dir', join(dir, 'data-b'))).stdout);
  timeOnce(...cli('apply', first.proposalId, '--accept', 'all', '--codex-home', receiver, '--data-dir', join(dir, 'data-b')));
  const reader = join(dir, 'reader');
  git(dir, 'clone', '-q', theirs, reader);
  const pull = pairs(
    () => {
      change();
      timeOnce(...cli('sync', 'push', '--codex-home', home, '--data-dir', join(dir, 'data-a')), { okCodes: [0, 4] });
      return cli('sync', 'pull', '--codex-home', receiver, '--data-dir', join(dir, 'data-b'));
    },
    () => {
      change();
      spawnSync('sh', ['-c', copyIn], { cwd: work });
      return ['git', ['pull', '-q', 'origin', 'main'], { cwd: reader }];
    },
  );
  row(table, 'sync pull of that change (verify + propose), vs git pull', {
    ours: pull.a,
    anchorLabel: 'git pull',
    anchor: pull.b,
    ratio: pull.ratio,
    budget: '2x',
    within: pull.ratio <= 2,
  });

  // Export of the heavy home's v1 root (every file, secrets scanned) beside tar czf of the same root.
  const exported = pairs(
    () => [
      ...cli('export', '--out', join(dir, 'bundle.tar.gz'), '--codex-home', heavy, '--version', 'v1', '--data-dir', join(dir, 'data-x')),
      { okCodes: [0, 4] },
    ],
    () => ['tar', ['czf', join(dir, 'anchor.tar.gz'), '-C', join(heavy, 'memories'), '--exclude=./.git', '.']],
  );
  row(table, 'export of the heavy home (v1 root, every file), vs tar czf of the root', {
    ours: exported.a,
    anchorLabel: 'tar czf',
    anchor: exported.b,
    ratio: exported.ratio,
    budget: '2x',
    within: exported.ratio <= 2,
  });
}
