// Which inputs of a consolidation hold a secret, for the preview's marks: notes, resources, imports, hand edits, the selection.
import type { InputSecret } from '../../../shared/consolidate';
import type { MemoryVersion } from '../../../shared/domain';
import { ANALYSIS_CAP_BYTES, readMemoryFile } from '../codex/workspace';
import { scanSecrets, secretLabel } from '../lint';

/** One input's findings as the preview shows them: lines and kinds, never the secret. */
export function inputSecret(path: string, text: string): InputSecret | null {
  const found = scanSecrets(text);
  if (found.length === 0) return null;
  return {
    path,
    lines: [...new Set(found.map((f) => f.line))],
    kinds: [...new Set(found.map((f) => secretLabel(f.rule)))],
  };
}

/**
 * The live files at `paths` that hold a secret, read as every scan reads them (regular files only, inside the root,
 * up to the analysis cap); a file that cannot be read is left out here (the Files view says why).
 */
export async function secretsInFiles(root: string, version: MemoryVersion, paths: readonly string[]): Promise<InputSecret[]> {
  const out: InputSecret[] = [];
  for (const path of [...new Set(paths)].filter((p) => p.endsWith('.md')).sort()) {
    const file = await readMemoryFile(root, version, path, ANALYSIS_CAP_BYTES).catch(() => null);
    const found = file ? inputSecret(path, file.content) : null;
    if (found) out.push(found);
  }
  return out;
}
