// Small, schema-checked data for the renderer tests: file lists and rollout rows as the contract carries them.
import { fileKinds } from '../../../shared/file-kinds';
import { FileListSchema, type FileEntry, type FileKind, type FileList, type MemoryVersion } from '../../../shared/domain';
import { RolloutRowSchema, type RolloutRow } from '../../../shared/inspect';

export function entry(path: string, kind: FileKind, size = 100): FileEntry {
  return { path, kind, size, mtimeMs: 1_700_000_000_000, symlink: false };
}

export function fileList(version: MemoryVersion, files: readonly FileEntry[]): FileList {
  const counts = Object.fromEntries(fileKinds.map((kind) => [kind, 0])) as Record<FileKind, number>;
  for (const file of files) counts[file.kind] += 1;
  return FileListSchema.parse({
    version,
    root: `/home/dana/.codex/${version === 'v1' ? 'memories' : 'memories_v2'}`,
    files,
    counts,
    totalBytes: files.reduce((n, f) => n + f.size, 0),
    diagnostics: [],
  });
}

export function rolloutRow(path: string, fields: Partial<RolloutRow>): RolloutRow {
  return RolloutRowSchema.parse({
    path,
    threadId: null,
    updatedAt: null,
    cwd: null,
    project: null,
    gitBranch: null,
    title: null,
    bytes: 10,
    mtimeMs: 0,
    dbUsageCount: null,
    dbLastUsage: null,
    citations: 0,
    ...fields,
  });
}
