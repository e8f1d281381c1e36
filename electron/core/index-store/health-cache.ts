// The health report's memo in the index: reads of Codex's DBs that depend only on the files' content.
import type { HealthCache } from '../codex-db/health';
import { codexCache } from './read';
import { threadConnection } from './tasks';
import { saveCodexCache } from './write';

export function healthCache(indexPath: string): HealthCache {
  return {
    get: (key, signature) => {
      try {
        return codexCache(threadConnection(indexPath), key, signature);
      } catch {
        return undefined; // No index (off, damaged): read the DB instead.
      }
    },
    set: (key, signature, value) => {
      try {
        saveCodexCache(threadConnection(indexPath), key, signature, value);
      } catch {
        // A full or busy index only loses the memo.
      }
    },
  };
}
