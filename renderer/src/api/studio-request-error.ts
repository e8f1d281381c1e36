// Turns Results into values or a typed error, so react-query's error state carries the StudioError to the UI.
import type { ChannelName } from '../../../shared/contract';
import type { Result, StudioError } from '../../../shared/result';

export class StudioRequestError extends Error {
  readonly channel: ChannelName;
  readonly studioError: StudioError;

  constructor(channel: ChannelName, studioError: StudioError) {
    super(studioError.message);
    this.name = 'StudioRequestError';
    this.channel = channel;
    this.studioError = studioError;
  }
}

export function unwrap<T>(channel: ChannelName, result: Result<T>): T {
  if (result.ok) return result.value;
  throw new StudioRequestError(channel, result.error);
}

/** Whatever was thrown, as a StudioError a person can read (bugs in our own code become Internal). */
export function toStudioError(error: unknown): StudioError {
  if (error instanceof StudioRequestError) return error.studioError;
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'Internal',
    message: `Memory Studio hit an unexpected problem: ${message}`,
    hint: 'Retry; if it happens again, report it with what you were doing.',
  };
}

/** Only Busy is worth an automatic retry; every other kind would fail the same way again. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return error instanceof StudioRequestError && error.studioError.kind === 'Busy' && failureCount < 3;
}
