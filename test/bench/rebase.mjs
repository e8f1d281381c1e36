// Rebase figures: the three-way merge of the 5 MB MEMORY.md with 100 edits on each side against `git merge-file` on the
// same three files (alternating pairs): the whole operation (read, merge, hunks, write) in process as the app runs it, the
// same as a separate process (Node's start-up included), and a proposal's whole rebase (DB, disk, merge, store).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(fn) {
  const started = process.hrtime.bigint();
  const out = fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, out };
}

/** Base, theirs (100 lines changed by "Codex") and ours (100 other lines changed by the proposal), all from the 5 MB file. */
function threeFiles(memoryMdPath) {
  const base = readFileSync(memoryMdPath, 'utf8');
  const lines = base.split('\n');
  const theirs = [...lines];
  const ours = [...lines];
  for (let i = 0; i < 100; i++) {
    const t = Math.floor(((i + 0.3) * lines.length) / 100);
    const o = Math.floor(((i + 0.7) * lines.length) / 100);
    theirs[t] = `${theirs[t]} (Codex ${i})`;
    ours[o] = `${ours[o]} (proposal ${i})`;
  }
  return { base, theirs: theirs.join('\n'), ours: ours.join('\n') };
}

export async function rebaseFigures(root, memoryMdPath, runs) {
  const dir = mkdtempSync(join(tmpdir(), 'memory-studio-bench-rebase-'));
  try {
    const texts = threeFiles(memoryMdPath);
    const [o, t, p] = ['base.md', 'theirs.md', 'ours.md'].map((n) => join(dir, n));
    writeFileSync(o, texts.base);
    writeFileSync(t, texts.theirs);
    writeFileSync(p, texts.ours);
    const child = join(root, 'test', 'bench', 'rebase-child.cjs');
    const { mergeFiles } = require(child);
    const inProcess = [];
    const asProcess = [];
    const git = [];
    // Alternating pairs, so a busy machine slows both sides alike.
    for (let i = 0; i < runs; i++) {
      const a = timed(() => mergeFiles(root, t, o, p, join(dir, 'ours-in.md')));
      const b = timed(() => spawnSync('git', ['merge-file', '-p', t, o, p], { maxBuffer: 64 << 20 }));
      const c = timed(() => spawnSync(process.execPath, [child, root, t, o, p, join(dir, 'ours-out.md')]));
      if (a.out !== 0 || c.out.status !== 0) throw new Error(`the merge reported conflicts or failed: ${c.out.stderr}`);
      if (b.out.status !== 0) throw new Error(`git merge-file reported conflicts: ${b.out.stderr}`);
      inProcess.push(a.ms);
      git.push(b.ms);
      asProcess.push(c.ms);
      writeFileSync(join(dir, 'git-out.md'), b.out.stdout);
    }
    const gitOut = readFileSync(join(dir, 'git-out.md'), 'utf8');
    const same = readFileSync(join(dir, 'ours-out.md'), 'utf8') === gitOut && readFileSync(join(dir, 'ours-in.md'), 'utf8') === gitOut;

    // The whole rebase of a real proposal in process: Studio DB, disk read, merge, hunks, decisions carried, stored.
    const { createProposal, rebaseProposal, setDecisions } = require(join(root, 'out', 'electron', 'core', 'review', 'index.js'));
    const { openStudioDb } = require(join(root, 'out', 'electron', 'core', 'studio-db', 'index.js'));
    const rebases = [];
    for (let i = 0; i < Math.min(runs, 3); i++) {
      const memRoot = join(dir, `root-${i}`);
      mkdirSync(memRoot);
      writeFileSync(join(memRoot, 'MEMORY.md'), texts.base);
      const db = openStudioDb(join(dir, `data-${i}`));
      try {
        const proposal = await createProposal(db, {
          title: 'bench',
          source: 'edit',
          files: [{ version: 'v1', root: memRoot, relPath: 'MEMORY.md', proposedContent: texts.ours }],
        });
        setDecisions(db, proposal.id, [{ ord: 0, decisions: Object.fromEntries(proposal.files[0].hunks.map((h) => [h.id, 'accept'])) }]);
        writeFileSync(join(memRoot, 'MEMORY.md'), texts.theirs);
        const started = process.hrtime.bigint();
        await rebaseProposal(db, proposal.id);
        rebases.push(Number(process.hrtime.bigint() - started) / 1e6);
      } finally {
        db.close();
      }
    }
    const g = median(git);
    // The median of the pair-by-pair ratios, as the harness gives every other row.
    const ratio = (xs) => median(xs.map((x, k) => x / git[k]));
    const bytes = same ? 'same bytes as git' : 'OUTPUT DIFFERS FROM GIT';
    const anchor = { anchorLabel: 'git merge-file -p (a process)', anchor: g, budget: '3x git merge-file' };
    return {
      rows: [
        {
          figure: `merge 5 MB, 100 edits each side, in process (${bytes})`,
          ours: median(inProcess),
          ratio: ratio(inProcess),
          ...anchor,
          within: same && ratio(inProcess) <= 3,
        },
        {
          figure: 'the same merge as its own node process (Node start included)',
          ours: median(asProcess),
          ratio: ratio(asProcess),
          ...anchor,
          within: same && ratio(asProcess) <= 3,
        },
        { figure: 'rebase of a proposal (DB, disk, merge, hunks, store)', ours: median(rebases), budget: 'none (reported)', within: null },
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
