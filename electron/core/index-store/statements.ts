// Prepared statements per connection: the index runs the same few statements thousands of times per build.
import type Database from 'better-sqlite3';

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** `sql` prepared once per connection. */
export function stmt<R = unknown>(db: Database.Database, sql: string): Database.Statement<unknown[], R> {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement as Database.Statement<unknown[], R>;
}
