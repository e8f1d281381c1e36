// The plan of a stale group's bulk fix (a pool task): one proposal that retires every entry of the group, file by
// file, through the same removal edits as a single retire, computed against the files as they are now.
import type { DoctorFile, Finding, StaleGroup } from '../../../shared/doctor';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { applyTextEdits } from '../formats';
import { sha256Text, type ProposalFileInput } from '../review';
import { removalEdits } from './fix-edits';
import { readFileState } from './fix-plans';

export interface GroupPlanInput {
  home: HomeInfo;
  group: StaleGroup;
  findings: Finding[];
}

/** One proposal file per memory file the group touches, each entry's removal computed against the text as it is now. */
export interface GroupPlan {
  title: string;
  note: string;
  files: ProposalFileInput[];
}

export async function groupRetirePlan(input: GroupPlanInput): Promise<GroupPlan> {
  const byFile = new Map<string, { version: MemoryVersion; file: DoctorFile; ids: Set<string> }>();
  for (const f of input.findings) {
    const key = `${f.version}\0${f.file}`;
    const at = byFile.get(key) ?? { version: f.version, file: f.file, ids: new Set<string>() };
    for (const id of f.entryIds) at.ids.add(id);
    byFile.set(key, at);
  }
  const files: ProposalFileInput[] = [];
  for (const { version, file, ids } of byFile.values()) {
    const state = await readFileState(input.home, version, file);
    const present = new Set(state.models.filter((m) => ids.has(m.entry.id)).map((m) => m.entry.id));
    if (present.size === 0) continue;
    files.push({
      version,
      root: state.root,
      relPath: file,
      proposedContent: applyTextEdits(state.text, removalEdits(state.models, present)),
      expectedBaseSha256: sha256Text(state.text),
    });
  }
  const { group } = input;
  return {
    title: `Doctor: retire ${group.title}`,
    note: `Stale group ${group.id}: ${group.fixDescription}`,
    files,
  };
}
