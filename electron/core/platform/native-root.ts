// Where the package lives, so Electron (main and every worker thread) loads its own build of better-sqlite3.

let packageRootForNative: string | undefined;

/** Tells core where the package lives, so Electron can find its own native build. Called by main, and in each worker. */
export function configureNativeSqlite(packageRoot: string): void {
  packageRootForNative = packageRoot;
}

/** What was configured, for the worker pool to hand to its threads (each thread has its own module state). */
export function nativeSqliteRoot(): string | undefined {
  return packageRootForNative;
}
