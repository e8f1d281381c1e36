// Memory Studio's own SQLite store: proposals, decisions and history (see migrations.ts for the schema).
export { LATEST_SCHEMA_VERSION, migrations, type Migration } from './migrations';
export { classifyStudioDbError, migrate, openStudioDb, STUDIO_DB_BUSY_TIMEOUT_MS, STUDIO_DB_FILE, type StudioDb } from './open-studio-db';
