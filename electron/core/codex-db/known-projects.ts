// The project folders Codex knows: the cwds of its threads (the thread catalog) and the folders memory entries apply to.
import { join } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';
import type { MemoryMdParsed } from '../../../shared/formats';
import { openCodexDb, readThreadCatalog } from './';
import { parseMemoryFile } from '../formats';
import { realPathOf } from '../platform/real-path';
import { FILES, STATE_DB_FILE } from '../codex/constants';
import { readMemoryFile } from '../codex/workspace';

/** Thread cwds from the state DB (none when it cannot be read). */
async function threadCwds(home: HomeInfo): Promise<string[]> {
  const opened = await openCodexDb('state', join(home.sqliteHome, STATE_DB_FILE));
  if (!opened.ok) return [];
  try {
    const catalog = readThreadCatalog(opened.handle.db);
    return catalog ? [...catalog.rows.values()].flatMap((row) => (row.cwd ? [row.cwd] : [])) : [];
  } catch {
    return [];
  } finally {
    opened.handle.close();
  }
}

/** `applies_to: cwd=…` of every MEMORY.md block of each root (none for a root without a readable MEMORY.md). */
async function appliesToCwds(home: HomeInfo): Promise<string[]> {
  const out: string[] = [];
  for (const root of home.roots.filter((r) => r.exists)) {
    const text = await readMemoryFile(root.path, root.version, FILES.memory)
      .then((file) => file.content)
      .catch(() => null);
    if (text === null) continue;
    const parsed = parseMemoryFile(text, { path: FILES.memory, kind: 'memory_md', version: root.version }) as MemoryMdParsed;
    for (const block of parsed.blocks) if (block.appliesTo?.cwd) out.push(block.appliesTo.cwd);
  }
  return out;
}

/** Every folder Codex knows as a project of this home, as real paths (a symlinked cwd counts as the folder it names). */
export async function knownProjectDirs(home: HomeInfo): Promise<Set<string>> {
  const dirs = [...(await threadCwds(home)), ...(await appliesToCwds(home))];
  return new Set(dirs.filter((d) => d.startsWith('/') || /^[A-Za-z]:[\\/]/.test(d)).map(realPathOf));
}
