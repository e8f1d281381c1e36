// `doctor`'s report for a host that holds the home's refreshed index (the CLI's, the keeper's): citations from its
// sessions table, and the memory files' entries, duplicate clusters and budget cut from what it keeps, so a warm run
// re-reads and re-parses nothing the index already has. The same report as `doctor.run` reading the files.
import type { DoctorOptions, DoctorReport } from '../../../../shared/doctor';
import type { FileEntry, MemoryVersion } from '../../../../shared/domain';
import { runDoctor } from '../../doctor';
import { usageFromIndex, type IndexedHome } from '../../index-store/inspect';

export async function doctorFromIndex(
  indexed: IndexedHome,
  indexPath: string,
  options: DoctorOptions & { inThread?: boolean },
): Promise<DoctorReport> {
  const files: Partial<Record<MemoryVersion, FileEntry[]>> = {};
  for (const [version, root] of indexed.roots) files[version] = root.list.files;
  return runDoctor(indexed.home, { ...options, usage: () => usageFromIndex(indexed), index: { path: indexPath, files } });
}
