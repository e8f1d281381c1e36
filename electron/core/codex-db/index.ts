// Read-only access to Codex's SQLite files: pipeline health, the thread catalog and per-thread memory usage.
export { readPipelineHealth, type HealthOptions } from './health';
export { globalClaim, readGlobalJob, readStage1Jobs, stage1RetryState } from './jobs';
export { classifyDbError, DEFAULT_BUSY_TIMEOUT_MS, openCodexDb, type OpenedDb, type OpenOptions, type OpenResult } from './open-db';
export { readDbUsage, readOutputStats, type DbUsage } from './outputs';
export { activeVersions, openCodexStores, type CodexStores, type VersionStore } from './stores';
export { readThreadCatalog, threadStats, type ThreadCatalog, type ThreadRow } from './threads';
export { intOrNull, isoToUnixTime, nowSeconds, unixTime } from './time';
export { codexDbFailure, dbProblemFailure } from './db-failure';
