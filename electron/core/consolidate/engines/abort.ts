// The error an engine rejects with when its run is cancelled.

/** The signal's own reason when it is an Error, else an `AbortError` saying the run was cancelled. */
export function abortError(signal: AbortSignal): Error {
  if (signal.reason instanceof Error) return signal.reason;
  const error = new Error('The consolidation run was cancelled.');
  error.name = 'AbortError';
  return error;
}
