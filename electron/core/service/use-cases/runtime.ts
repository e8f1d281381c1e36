// The worker threads a host runs core's heavy reads on, and what each task runs (the registry the host hands over).
export { configureWorkerPool, runTask, shutdownWorkerPool } from '../../runtime/pool';
export { installTasks } from '../../tasks/registry';
