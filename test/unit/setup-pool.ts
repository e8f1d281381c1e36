// Every unit test file ends with the shared worker pool closed: its workers stop between awaits, before vitest ends the
// file's process. A process that exits with a worker inside a DB read can abort in Node 20 (see STOP_GRACE_MS in pool.ts).
import { afterAll } from 'vitest';
import { shutdownWorkerPool } from '../../electron/core/runtime/pool';
import { installTasks } from '../../electron/core/tasks/registry';

// What each pool task runs in this thread (the fallback, and every task when a test turns the workers off), as a host does.
installTasks();

afterAll(() => shutdownWorkerPool());
