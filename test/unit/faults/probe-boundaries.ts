// The fault probe at the boundaries: what may not cross into a memory root, a project folder or a child process.
import type { ProbeTry } from './probe-disk';

export async function boundaryTries(_base: string): Promise<ProbeTry[]> {
  return [];
}
