// `npm start` and `npm run serve` run the host through `sh -c`: a signal sent to npm's own PID (a supervisor, `kill`,
// an IDE's stop button) makes npm exit, but npm hands it only to the shell, which does not pass it on, so the server
// would keep serving with nobody to stop it. Ctrl+C in a terminal reaches every process of the group and needs none of
// this. Here the host watches the shell's parent: once npm is gone (the shell has been handed to another parent), the
// host stops as at SIGTERM. Linux only (it reads /proc); elsewhere, and when npm started us without a shell between,
// nothing is watched.
import { readFileSync } from 'node:fs';

/** How often the host looks whether npm is still there: one small /proc read, on a timer that never holds the process. */
const EVERY_MS = 500;

/** The parent of `pid` from /proc/PID/stat ("pid (comm) state ppid …"), or null when it cannot be read (gone). */
export function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

function isNpm(pid: number): boolean {
  try {
    // npm sets its title ("npm start --serve …"), which replaces its argv: the words may be one string with spaces.
    const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    return words.slice(0, 2).some((word) => /(^|\/)npm(-cli\.js)?$/.test(word));
  } catch {
    return false;
  }
}

/** The package's own scripts that run the host (package.json "start" and "serve"), as npm passes them. */
const OWN_SCRIPT = /^node electron\/host\/bin\.cjs (start|serve)$/;

interface Launcher {
  shell: number;
  npm: number;
}

let noted: Launcher | null | undefined;

/**
 * Notes, once and as early as possible (before the host starts listening), the shell and the npm that started this
 * process; null when there is nothing to watch (not started by an npm script, no shell between, not Linux).
 */
export function noteLauncher(env: NodeJS.ProcessEnv = process.env): Launcher | null {
  if (noted !== undefined) return noted;
  noted = null;
  // Only `npm start` and `npm run serve` of this package (their scripts run the host and nothing else): a script of
  // the person's own that starts the server in the background and ends on purpose must not stop it.
  if (process.platform !== 'linux' || !OWN_SCRIPT.test(env.npm_lifecycle_script ?? '')) return noted;
  const shell = process.ppid;
  const npm = parentOf(shell);
  if (npm !== null && npm > 1 && !isNpm(shell) && isNpm(npm)) noted = { shell, npm };
  return noted;
}

/**
 * Calls `gone` once when the npm noted by noteLauncher has ended (at once when it already has); returns the way to
 * stop watching, or null when there is nothing to watch.
 */
export function followLauncher(gone: () => void): (() => void) | null {
  const launcher = noteLauncher();
  if (!launcher) return null;
  const timer = setInterval(() => {
    if (parentOf(launcher.shell) === launcher.npm) return;
    clearInterval(timer);
    // Whoever ran npm may have closed our output with it: a failed write must not end the process before its clean stop
    // (bin.cjs ends it quietly at EPIPE, as for `| head`), which hands Codex's lease back.
    for (const stream of [process.stdout, process.stderr]) {
      stream.removeAllListeners('error');
      stream.on('error', () => undefined);
    }
    gone();
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
