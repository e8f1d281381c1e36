// Worker-thread entry of the shared pool (compiled to out/electron/core/workers/worker-main.js): runs one task at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { configureNativeSqlite } from '../native-root';
import { toStudioError } from '../errors';
import { cancelledFailure, type WorkerReply, type WorkerRequest } from './pool';
import { TASKS, type TaskContext } from './tasks';

const port = parentPort;
const root = (workerData as { sqlitePackageRoot?: string } | null)?.sqlitePackageRoot;
if (root) configureNativeSqlite(root);

async function run(request: WorkerRequest): Promise<WorkerReply> {
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
    return { type: 'error', id: request.id, error: toStudioError(error), cancelled: cancelled(), ...(typeof code === 'string' ? { code } : {}) };
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
port?.on('message', (request: WorkerRequest) => {
  void run(request).then(reply);
});
