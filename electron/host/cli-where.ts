// How the CLI names a written file: `v1/MEMORY.md` inside a memory root, the full path of a project's AGENTS.md or of
// an agent's configuration.
import type { MemoryVersion } from '../../shared/domain';
import type { FileTarget } from '../../shared/review';

export function where(f: { version: MemoryVersion; target: FileTarget; root: string; relPath: string }): string {
  if (f.target === 'project') return `${f.root}/${f.relPath} (project)`;
  if (f.target === 'agent-config') return `${f.root}/${f.relPath} (agent configuration)`;
  return `${f.version}/${f.relPath}`;
}
