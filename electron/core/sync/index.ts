// Sync between machines and teammates through a git remote (issue 25): what the service and its use cases call.
export {
  syncInit,
  syncPull,
  syncPush,
  syncStatus,
  type PullResult,
  type PushResult,
  type StatusResult,
  type InitInput,
  type SyncStep,
} from './engine';
export { syncPaths } from './state';
