// Worker-thread entry of the shared pool (compiled to out/electron/core/tasks/worker-main.js): runs one task at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { configureNativeSqlite } from '../platform/native-root';
import { toStudioError } from '../platform/errors';
import { cancelledFailure, type RunRequest, type WorkerReply, type WorkerRequest } from '../runtime/pool';
import type { TaskContext } from '../runtime/task-types';
import { installTasks, TASKS } from './registry';

const port = parentPort;
const root = (workerData as { sqlitePackageRoot?: string } | null)?.sqlitePackageRoot;
if (root) configureNativeSqlite(root);
// Nested tasks (a task that runs another) run in this thread, through the same registry.
installTasks();

async function run(request: RunRequest): Promise<WorkerReply> {
  const flag = new Int32Array(request.flag);
  const cancelled = () => Atomics.load(flag, 0) === 1;
  const context: TaskContext = {
    cancelled,
    throwIfCancelled: () => {
      if (cancelled()) throw cancelledFailure();
    },
    emit: (event) => port?.postMessage({ type: 'event', id: request.id, event } satisfies WorkerReply),
  };
  try {
    const handler = (await TASKS[request.name].load()) as (input: unknown, context: TaskContext) => unknown;
    return { type: 'done', id: request.id, value: await handler(request.input, context) };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return {
      type: 'error',
      id: request.id,
      error: toStudioError(error),
      cancelled: cancelled(),
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
}

/** Posts the reply; a value the port cannot clone becomes an error reply, so the caller hears why instead of the worker dying. */
function reply(message: WorkerReply): void {
  try {
    port?.postMessage(message);
  } catch (error) {
    port?.postMessage({ type: 'error', id: message.id, error: toStudioError(error), cancelled: false } satisfies WorkerReply);
  }
}

// run() answers every failure as an error reply and reply() never throws: nothing here can reject unheard.
// 'exit' is handled between awaits, never inside a call into Node's fs: the pool asks instead of terminating the
// thread from outside, which Node 20 can turn into an abort of the whole process (see STOP_GRACE_MS in pool.ts).
port?.on('message', (request: WorkerRequest) => {
  if (request.type === 'exit') process.exit(0);
  void run(request).then(reply);
});
