// A small tmpfs for disk-full tests: the kernel's own ENOSPC, not an injected one. Needs root (mount); else the
// tests that use it are skipped and say why.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  dir: string;
  /** Fills the disk until `leaveKb` KB are free (a file `filler` at its top); `fill(0)` fills it up. */
  fill(leaveKb: number): void;
  freeKb(): number;
  /** Removes the filler. */
  drain(): void;
  unmount(): void;
}

/** Why a tmpfs cannot be mounted here (null when it can): probed once. */
let unavailable: string | null | undefined;

export function tmpfsUnavailable(): string | null {
  if (unavailable !== undefined) return unavailable;
  const dir = mkdtempSync(join(tmpdir(), 'memory-studio-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    unavailable = null;
  } catch (error) {
    unavailable = `cannot mount a tmpfs here (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return unavailable;
}

export function mountTmpfs(dir: string, sizeMb: number): Tmpfs {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
  const filler = join(dir, 'filler');
  const freeKb = () => {
    const s = statfsSync(dir);
    return Math.floor((s.bavail * s.bsize) / 1024);
  };
  return {
    dir,
    freeKb,
    fill(leaveKb) {
      const fd = openSync(filler, 'a');
      try {
        const chunk = Buffer.alloc(4096);
        while (freeKb() > leaveKb) {
          try {
            writeSync(fd, chunk, 0, Math.min(chunk.length, (freeKb() - leaveKb) * 1024));
          } catch {
            break; // ENOSPC: as full as it gets
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    drain: () => rmSync(filler, { force: true }),
    unmount: () => execFileSync('umount', ['-l', dir], { stdio: 'pipe' }),
  };
}
