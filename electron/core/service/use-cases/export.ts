// `memory-studio export` for a short-lived host (the CLI): apart from the bundle reader (use-cases/bundle.ts), so an
// export loads no schema library, no arrival planning and no proposal code.
import type { HomeInfo, MemoryVersion } from '../../../../shared/domain';
import { exportBundle, type ExportResult } from '../../sync/bundle-export';

export type { ExportResult };

/** Every file of the root Codex reads (or `version`'s) into the .tar.gz `out`, secrets held back. */
export function exportBundleForCommand(home: HomeInfo, out: string, version?: MemoryVersion): Promise<ExportResult> {
  return exportBundle(home, out, version ? { version } : {});
}
