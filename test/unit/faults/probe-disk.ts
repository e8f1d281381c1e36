// The fault probe on a full data disk: a 3 MiB tmpfs filled up (as root), else a file-size limit (`ulimit -f`, EFBIG).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, errorOf, generalProblems, jsonOf, treeDigest, type CliRun } from './probe-kit';
import { makeProbeHome, type ProbeHome } from './probe-homes';

export interface ProbeTry {
  name: string;
  problems: string[];
}

/** How the disk is made full: a real tmpfs when this user may mount one, else RLIMIT_FSIZE in the child. */
export interface FullDisk {
  how: 'tmpfs' | 'ulimit';
  dir: string;
  /** Leaves about `freeKiB` free on the tmpfs (ulimit: the limit in KiB for the children); returns the shell prefix. */
  fill(freeKiB: number): string | undefined;
  release(): void;
}

export function makeFullDisk(base: string): FullDisk {
  const dir = join(base, 'disk');
  mkdirSync(dir, { recursive: true });
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir], { encoding: 'utf8' }).status === 0;
  if (mounted) {
    const filler = join(dir, 'filler');
    return {
      how: 'tmpfs',
      dir,
      fill(freeKiB) {
        rmSync(filler, { force: true });
        const df = spawnSync('df', ['-k', '--output=avail', dir], { encoding: 'utf8' }).stdout.trim().split('\n').pop() ?? '0';
        const take = Math.max(0, Number(df) - freeKiB);
        writeFileSync(filler, Buffer.alloc(take * 1024));
        return undefined;
      },
      release: () => void spawnSync('umount', [dir]),
    };
  }
  return {
    how: 'ulimit',
    dir,
    // dash and bash differ in the unit of `ulimit -f` (512 or 1024 bytes): 512 keeps the limit at most the one asked.
    fill: (freeKiB) => `ulimit -f ${freeKiB * 2} 2>/dev/null || ulimit -f ${freeKiB}`,
    release: () => undefined,
  };
}

const DATA_FAULTS = new Set(['disk-full', 'data-unwritable', 'staging-write']);

/** A failure says the data folder's fault and names a file in it; the memory folder is as it was. */
function judge(h: ProbeHome, run: CliRun, before: string, wantFault?: string): string[] {
  const problems = generalProblems(run);
  const error = errorOf(jsonOf(run));
  if (run.status !== 0 || error) {
    if (!error) problems.push(`exit ${run.status} without an error object`);
    else {
      if (!error.fault || !DATA_FAULTS.has(error.fault)) problems.push(`no data-folder fault: ${JSON.stringify(error)}`);
      if (wantFault && error.fault !== wantFault) problems.push(`fault ${error.fault ?? 'absent'}, not ${wantFault}`);
      if (!error.path?.startsWith(h.dataDir)) problems.push(`path ${error.path ?? 'absent'} is not in the data folder`);
      if (error.message.includes(h.root) && !error.message.includes(h.dataDir)) problems.push('names the live memory folder');
      if (run.status !== 1) problems.push(`exit ${run.status}, not 1`);
    }
    if (treeDigest(h.root) !== before) problems.push('the memory folder changed');
  }
  return problems;
}

/** The staging copy finds no room: the run names the staging file and says it is Memory Studio's own copy. */
async function stagingTry(base: string, disk: FullDisk): Promise<ProbeTry> {
  const h = await makeProbeHome(join(base, 'staging-home'));
  h.dataDir = join(disk.dir, 'data-staging');
  // A 1.5 MB file in the root: the Studio DB and the lease record fit, its staged copy does not.
  writeFileSync(join(h.root, 'extensions', 'big-notes.md'), '- a line of notes that takes some room\n'.repeat(40_000));
  const prefix = disk.fill(900);
  const before = treeDigest(h.root);
  const run = cli(['consolidate', '--version', 'v1', '--codex-home', h.codexHome, '--data-dir', h.dataDir, '--json'], {
    shellPrefix: prefix,
  });
  const problems = judge(h, run, before, 'staging-write');
  const error = errorOf(jsonOf(run));
  if (!error) problems.push('the run did not fail on a full disk');
  else if (!/staging copy/.test(error.message)) problems.push(`does not say it is the staging copy: ${error.message}`);
  rmSync(h.dataDir, { recursive: true, force: true });
  return { name: `${disk.how}: consolidate (staging)`, problems };
}

export async function diskFullTries(base: string): Promise<ProbeTry[]> {
  const disk = makeFullDisk(base);
  try {
    const tries = [await stagingTry(base, disk)];
    const h = await makeProbeHome(join(base, 'home'));
    // The proposal was made with room to spare; now the data folder moves onto the full disk with it.
    const dataDir = join(disk.dir, 'data');
    disk.fill(2000);
    spawnSync('cp', ['-a', h.dataDir, dataDir]);
    h.dataDir = dataDir;
    const note = join(base, 'note.md');
    writeFileSync(note, 'A note written while the disk is full.\n');
    const common = ['--codex-home', h.codexHome, '--data-dir', h.dataDir, '--json'];
    const commands: Array<[string, string[]]> = [
      ['propose', ['propose', '--version', 'v1', '--file', 'MEMORY.md', '--content-file', note, ...common]],
      ['note', ['note', '--version', 'v1', '--slug', 'full-disk', '--text-file', note, ...common]],
      ['forget', ['forget', h.threadId, ...common]],
      ['history', ['history', ...common]],
      ['apply', ['apply', h.proposalId, '--accept', 'all', ...common]],
      ['consolidate', ['consolidate', '--version', 'v1', ...common]],
      ['import --apply', ['import', '--from', 'claude', '--source-home', h.claudeHome, '--apply', '--skip-secret-files', ...common]],
      ['inspect', ['inspect', ...common]],
      ['doctor', ['doctor', ...common]],
    ];
    for (const [name, args] of commands) {
      const prefix = disk.fill(24);
      const before = treeDigest(h.root);
      tries.push({ name: `${disk.how}: ${name}`, problems: judge(h, cli(args, { shellPrefix: prefix }), before) });
    }
    return tries;
  } finally {
    disk.release();
  }
}
