// A path as the disk resolves it, whether or not it exists yet: for comparing folders named in different ways.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** The real path of the nearest existing folder of `path`, with the rest as given (links and `..` resolved). */
export function realPathOf(path: string): string {
  const tail: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    try {
      return join(realpathSync(dir), ...tail.reverse());
    } catch {
      if (dirname(dir) === dir) return resolve(path);
      tail.push(basename(dir));
    }
  }
}

/** Whether `child` is `parent` or lies inside it (both as given: resolve them first). */
export function isInsideOrSame(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
