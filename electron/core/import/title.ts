// An import's title, counted from what it writes: when proposed from the plan, when applied from what Apply really wrote.
import type { ImportSource } from '../../../shared/import';
import type { Proposal, ProposalResult } from '../../../shared/review';
import type { StudioDb } from '../studio-db';
import { IMPORT_RESOURCES_DIR } from './instructions';
import { loadProvenance } from '../studio-db/provenance';

export const TOOL_NAMES: Record<ImportSource, string> = { claude: 'Claude Code', cursor: 'Cursor' };

export interface TitledWrite {
  relPath: string;
  action: 'write' | 'delete';
  /** A file read from the source (not `scope.json` or `instructions.md`). */
  imported: boolean;
}

const PREFIX = `${IMPORT_RESOURCES_DIR}/`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "Import from Claude Code: 2 projects, 5 files, 1 removed": projects written, source files written, projects removed (zeros left out). */
export function importTitle(tool: string, writes: readonly TitledWrite[]): string {
  const projects = new Set<string>();
  const removed = new Set<string>();
  const files = new Set<string>();
  for (const w of writes) {
    if (!w.relPath.startsWith(PREFIX)) continue;
    const [key, ...rest] = w.relPath.slice(PREFIX.length).split('/');
    if (!key) continue;
    if (w.action === 'write') projects.add(key);
    if (w.action === 'write' && w.imported) files.add(`${key}/${rest.join('/')}`);
    if (w.action === 'delete' && rest.join('/') === 'scope.json') removed.add(key);
  }
  const parts = [
    projects.size > 0 ? plural(projects.size, 'project') : '',
    files.size > 0 ? plural(files.size, 'file') : '',
    removed.size > 0 ? `${removed.size} removed` : '',
  ].filter(Boolean);
  return `Import from ${tool}: ${parts.length > 0 ? parts.join(', ') : 'no file changed'}`;
}

/** The history title of an applied import: only what the person accepted counts (a rejected removal is not "removed"). */
export function appliedImportTitle(db: StudioDb, proposal: Proposal, result: ProposalResult): string {
  const provenance = loadProvenance(db, [proposal.id]).get(proposal.id) ?? [];
  const imported = new Set(provenance.map((p) => `${p.version}\0${p.relPath}`));
  // A sync arrival's tool ('sync') has no entry: its title names the machines, so it is read back from the title.
  const recorded = provenance[0]?.tool;
  const tool =
    (recorded === 'claude' || recorded === 'cursor' ? TOOL_NAMES[recorded] : undefined) ??
    /^Import from ([^:]+):/.exec(proposal.title)?.[1];
  const writes = result.files.flatMap((f): TitledWrite[] =>
    f.action === 'unchanged' ? [] : [{ relPath: f.relPath, action: f.action, imported: imported.has(`${f.version}\0${f.relPath}`) }],
  );
  return importTitle(tool ?? 'another tool', writes);
}
