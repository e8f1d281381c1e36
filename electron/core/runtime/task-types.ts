// What a pool task is: its handler, what it can do while running (cancel checks, progress), and how the pool treats it.

/** What a running task can do besides computing its answer. */
export interface TaskContext {
  /** True once the caller cancelled: cooperative tasks stop at the next safe point. */
  cancelled(): boolean;
  /** Throws the cancellation failure when cancelled. */
  throwIfCancelled(): void;
  /** Sends a progress or log event to the caller's `onEvent`. */
  emit(event: TaskEvent): void;
}

export type TaskEvent =
  | { type: 'progress'; message: string; fraction?: number; done?: number; total?: number }
  | { type: 'log'; line: string }
  | { type: 'selected'; detail: string; notes: string[] };

export type Handler<I, O> = (input: I, context: TaskContext) => Promise<O> | O;

export interface TaskSpec<I, O> {
  load: () => Promise<Handler<I, O>>;
  /** Checks `cancelled()` between steps, so cancel waits for it instead of terminating the thread (it holds a DB connection). */
  cooperative?: boolean;
  /** Read-only work that may run in the calling thread when a worker cannot start or dies. */
  fallback?: boolean;
}

export const spec = <I, O>(load: () => Promise<Handler<I, O>>, options: Omit<TaskSpec<I, O>, 'load'> = {}): TaskSpec<I, O> => ({
  load,
  ...options,
});
