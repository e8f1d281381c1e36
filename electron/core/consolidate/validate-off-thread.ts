// Runs the validation of a staged result on the shared worker pool (lint of a multi-megabyte MEMORY.md stalled the main loop ~250 ms).
import type { MemoryVersion } from '../../../shared/domain';
import { runTask } from '../runtime/pool';
import type { Validation } from './types';

export function validateStagedOffThread(
  stagingRoot: string,
  version: MemoryVersion,
  options: { only?: ReadonlySet<string>; liveRoot?: string } = {},
): Promise<Validation> {
  return runTask('validate', { stagingRoot, version, only: options.only ? [...options.only] : undefined, liveRoot: options.liveRoot });
}
