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
// Lossless export bundles (issue 25, item 3): every file of a root in one .tar.gz, read back as an arrival.
export {
  bundleOwner,
  exportBundle,
  planBundle,
  readBundle,
  BUNDLE_FORMAT,
  type BundleContents,
  type BundleManifest,
  type BundlePlan,
  type ExportResult,
} from './bundle';
export { proposeArrivals } from './arrive';
