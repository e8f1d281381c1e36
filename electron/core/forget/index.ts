// "Forget this session" as Codex's own forget does it: planned read only, applied under Codex's lease by the Apply engine.
export {
  commitDbChanges,
  commitDbChangesAt,
  dbChangePaths,
  DB_CHANGE_BUSY_TIMEOUT_MS,
  lockedVersionsOfChanges,
  versionsOfChanges,
} from './apply-db';
export { FORGET_KINDS, IMPORT_KINDS } from './kinds';
export {
  memoryDbPath,
  planForget,
  planForgetMany,
  shortThreadId,
  stateDbPath,
  type ForgetPlan,
  type ForgetThread,
  type ForgetVersionRow,
} from './plan';
export {
  CODEX_DEFAULT_RETRIES,
  globalStuck,
  inverseRepair,
  isRepairChange,
  planReclaim,
  planRetry,
  REPAIR_KINDS,
  type JobRow,
  type RepairPlan,
} from './repair';
