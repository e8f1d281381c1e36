// How the CLI names a written file: `v1/MEMORY.md` inside a memory root, the full path of a project's AGENTS.md.
import type { MemoryVersion } from '../../shared/domain';

export function where(f: { version: MemoryVersion; target: 'memory' | 'project'; root: string; relPath: string }): string {
  return f.target === 'project' ? `${f.root}/${f.relPath} (project)` : `${f.version}/${f.relPath}`;
}
