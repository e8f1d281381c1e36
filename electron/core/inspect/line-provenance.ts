// One line of a memory file traced back: its entry, the rollout summaries and sessions behind it, who cited it.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { DoctorFile } from '../../../shared/doctor';
import type { CitedByEntry, LineProvenance, LineSession } from '../../../shared/provenance';
import { classifyPath, readMemoryFile } from '../codex/workspace';
import { DOCTOR_FILES, entriesOf } from '../review/blocks/entries';
import { StudioFailure } from '../platform/errors';
import { citedBy, locateSession, resolvePointer } from '../sessions';

/** An entry's rollout summaries are followed at most this far (a task group can name dozens). */
const MAX_POINTERS = 20;

const isDoctorFile = (path: string): path is DoctorFile => (DOCTOR_FILES as readonly string[]).includes(path);

/** A citation covers the line when its range holds it, or when it names the whole file (a summary cited by its thread). */
const covers = (entry: CitedByEntry, line: number) =>
  entry.lineStart === null || entry.lineEnd === null ? entry.via === 'rollout_id' : entry.lineStart <= line && line <= entry.lineEnd;

async function sessionsOf(home: HomeInfo, threadIds: readonly string[]): Promise<LineSession[]> {
  const out: LineSession[] = [];
  for (const threadId of threadIds.slice(0, MAX_POINTERS)) {
    const location = await locateSession(home, threadId);
    out.push({ threadId, sessionPath: location.path, exists: location.path !== null });
  }
  return out;
}

/**
 * Where a line came from. The file is read through the same safe read as `workspace.read` (inside the root, no
 * symlink, regular file); a line past the end is refused with the file's length.
 */
export async function lineProvenance(
  home: HomeInfo,
  rootPath: string,
  version: MemoryVersion,
  path: string,
  line: number,
  capBytes: number,
): Promise<LineProvenance> {
  const file = await readMemoryFile(rootPath, version, path, capBytes);
  // A final line ending starts no line of its own.
  const lines = file.content === '' ? 0 : file.content.split('\n').length - (file.content.endsWith('\n') ? 1 : 0);
  if (line > Math.max(lines, 1)) {
    throw new StudioFailure('Invalid', `${version}/${path} has ${lines} lines, so there is no line ${line}.`, {
      path,
      hint: `Ask for a line from 1 to ${Math.max(lines, 1)}.`,
    });
  }
  const notes: string[] = [];
  const result: LineProvenance = {
    version,
    path,
    line,
    kind: classifyPath(path),
    entry: null,
    rolloutSummaries: [],
    sessions: [],
    citedBy: [],
    fileCitations: 0,
    notes,
  };
  if (result.kind === 'rollout-summary') {
    result.rolloutSummaries.push(await resolvePointer(home, version, path));
  } else if (isDoctorFile(path)) {
    const { entries } = entriesOf(version, path, file.content);
    const model = entries.find((m) => m.entry.line <= line && line <= m.entry.endLine);
    if (model) {
      const { entry } = model;
      result.entry = { kind: entry.kind, title: entry.title, line: entry.line, endLine: entry.endLine, cwd: entry.cwd };
      for (const pointer of entry.pointers.slice(0, MAX_POINTERS)) {
        result.rolloutSummaries.push(await resolvePointer(home, version, pointer, { threadIdHint: entry.threadIds[0] }));
      }
      if (entry.pointers.length > MAX_POINTERS)
        notes.push(`The entry names ${entry.pointers.length} rollout summaries; the first ${MAX_POINTERS} are followed.`);
      const viaSummaries = new Set(result.rolloutSummaries.map((r) => r.threadId));
      result.sessions = await sessionsOf(
        home,
        entry.threadIds.filter((id) => !viaSummaries.has(id)),
      );
    } else notes.push(`Line ${line} is not inside an entry of ${path} (a heading or a blank line between entries).`);
  } else notes.push(`${path} is not cut into entries; only the sessions that cited it are listed.`);
  const cited = await citedBy(home, version, path);
  result.fileCitations = cited.length;
  result.citedBy = cited.filter((c) => covers(c, line));
  return result;
}
