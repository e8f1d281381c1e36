// How serve and the CLI's long commands stop on Ctrl+C or SIGTERM: cleanly first, and at once when that does not end it.
//
// The first SIGINT or SIGTERM runs the command's own stop (cancel a consolidation and hand Codex's lease back, stop an
// index build keeping what it wrote, close the serve host). The process then ends by itself, unless something holds
// it: a pool worker stuck in its task (Node cannot terminate a thread blocked in a system call, and waits for it at
// exit). So the process is ended at once at a second signal, or when the clean stop has not ended it by the deadline:
// the signal's default action is restored and the signal raised again, which ends the process whatever its threads do
// (exit status 130 for SIGINT, 143 for SIGTERM, as a shell expects).

/** From the first signal to the forced end: the clean stop's lease hand-back and socket closes take milliseconds. */
export const STOP_DEADLINE_MS = 1500;
/** How long a pool worker may take to end itself after a signal, then its termination (see the pool's ShutdownOptions). */
export const STOP_WORKER_GRACE_MS = 400;

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export interface StopOptions {
  deadlineMs?: number;
  /** Ends the process (tests pass their own); by default the signal is raised again with its default action. */
  force?: (signal: NodeJS.Signals, why: string) => void;
  /** Where the signals arrive: the process (tests pass an emitter of their own). */
  source?: Pick<NodeJS.EventEmitter, 'on' | 'removeListener'>;
}

export interface StopSignals {
  /** The signal received, or null. */
  readonly received: NodeJS.Signals | null;
  /** Stops listening (the command is over); a deadline already running stays armed, as the process must still end. */
  dispose(): void;
}

/**
 * Ends the process now with `signal`'s default action (no handler of ours runs again). The 'exit' listeners run first,
 * as they would at a normal exit: they end what must not outlive us (a codex exec child's process group).
 */
export function raiseAgain(signal: NodeJS.Signals, why: string): void {
  const status = signal === 'SIGINT' ? 130 : 143;
  process.stderr.write(`\n${why}\n`);
  for (const s of SIGNALS) process.removeAllListeners(s);
  try {
    process.emit('exit', status);
  } catch {
    // a listener's failure must not keep the process from ending
  }
  process.kill(process.pid, signal);
  // Where a signal cannot end the process this way (it did not), exit with the status a shell expects.
  setImmediate(() => process.exit(status));
}

/** Listens for SIGINT and SIGTERM while a command runs: `stop` at the first, the forced end at a second or the deadline. */
export function onStopSignals(stop: (signal: NodeJS.Signals) => void, options: StopOptions = {}): StopSignals {
  const force = options.force ?? raiseAgain;
  const source = options.source ?? process;
  let received: NodeJS.Signals | null = null;
  const listener = (signal: NodeJS.Signals) => {
    if (received) return force(signal, 'Stopped at once (a second signal).');
    received = signal;
    const deadline = setTimeout(
      () => force(signal, 'Stopped without waiting any longer: a background task did not end.'),
      options.deadlineMs ?? STOP_DEADLINE_MS,
    );
    deadline.unref(); // only what still holds the process open keeps it waiting for this
    stop(signal);
  };
  for (const s of SIGNALS) source.on(s, listener);
  return {
    get received() {
      return received;
    },
    dispose() {
      for (const s of SIGNALS) source.removeListener(s, listener);
    },
  };
}
