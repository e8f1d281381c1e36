// The openai engine's answer format: `<file path="...">` blocks, parsed strictly and written atomically into staging.
import type { MemoryVersion } from '../../../../shared/domain';
import { StudioFailure } from '../../platform/errors';
import { FILES } from '../../codex/constants';
import { checkRelativePath, resolveInsideRoot } from '../../platform/safe-path';
import { writeFileAtomic } from '../../platform/atomic-write';

export interface AnswerFile {
  path: string;
  content: string;
}

export interface ParsedAnswer {
  files: AnswerFile[];
  /** Whether the model said explicitly that nothing needs to change. */
  noChanges: boolean;
  problems: string[];
  /** Text outside the blocks (a closing remark, at most). */
  remarks: string;
}

const OPEN = /^\s*<file\s+path\s*=\s*"([^"]*)"\s*>\s*$/;
const CLOSE = /^\s*<\/file>\s*$/;
const NO_CHANGES = /<no-changes\s*\/>/;
const SKILL_PATH = /^skills\/[a-z0-9][a-z0-9-]{0,63}\/SKILL\.md$/;

/** The rules the model must follow to be understood (appended to the consolidation instructions). */
export function answerFormatInstructions(version: MemoryVersion): string {
  const allowed =
    version === 'v1' ? '`memory_summary.md`, `MEMORY.md` or `skills/<name>/SKILL.md`' : '`memory_summary.md` (the only file of v2)';
  return `### How to answer (strict; replaces running commands)

You cannot run commands or edit files here: the folder's files are in the user message. Answer with the complete new
content of every file you create or change, each in one block:

<file path="memory_summary.md">
v1
## User Profile
...
</file>

- The path is one of ${allowed}; any other path is refused.
- The opening tag is alone on its line and the content starts on the next line; \`</file>\` is alone on its own line.
- Give the whole file, never a diff or an excerpt. Never put a line consisting of \`</file>\` inside a file.
- Leave out files that need no change. If nothing needs to change, answer only \`<no-changes/>\`.
- Write nothing outside the blocks except, at most, one short closing line.`;
}

/** Parses the answer line by line; an unterminated block or a repeated path is reported, not guessed at. */
export function parseAnswer(text: string): ParsedAnswer {
  const parsed: ParsedAnswer = { files: [], noChanges: false, problems: [], remarks: '' };
  const remarks: string[] = [];
  let current: { path: string; lines: string[] } | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (current) {
      if (CLOSE.test(line)) {
        addFile(parsed, { path: current.path, content: current.lines.join('\n') + '\n' });
        current = null;
      } else current.lines.push(line);
      continue;
    }
    const open = OPEN.exec(line);
    if (open) current = { path: open[1] ?? '', lines: [] };
    else if (!/^\s*```\w*\s*$/.test(line) && line.trim().length > 0) remarks.push(line.trim());
  }
  if (current) parsed.problems.push(`The block for ${current.path} has no closing </file>; it was not written.`);
  parsed.remarks = remarks.join(' ');
  parsed.noChanges = NO_CHANGES.test(parsed.remarks);
  return parsed;
}

function addFile(parsed: ParsedAnswer, file: AnswerFile): void {
  const index = parsed.files.findIndex((f) => f.path === file.path);
  if (index >= 0) {
    parsed.problems.push(`${file.path} was given twice; the last block was used.`);
    parsed.files.splice(index, 1);
  }
  parsed.files.push(file);
}

/** Null when the model may write `path` for this version, else why not. */
export function refuseAnswerPath(version: MemoryVersion, path: string): string | null {
  try {
    checkRelativePath(path);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (path === FILES.summary) return null;
  if (version === 'v1' && (path === FILES.memory || SKILL_PATH.test(path))) return null;
  const allowed = version === 'v1' ? 'memory_summary.md, MEMORY.md and skills/<name>/SKILL.md' : 'memory_summary.md';
  return `The model may only write ${allowed} for memories ${version}, not "${path}".`;
}

/** Writes the allowed files into staging (temp file + rename); refused paths are logged and skipped. */
export async function writeAnswerFiles(
  stagingRoot: string,
  version: MemoryVersion,
  files: readonly AnswerFile[],
  log: (line: string) => void,
): Promise<string[]> {
  const wrote: string[] = [];
  for (const file of files) {
    const refused = refuseAnswerPath(version, file.path);
    if (refused) {
      log(`Refused: ${refused}`);
      continue;
    }
    const target = await resolveInsideRoot(stagingRoot, file.path).catch((error: unknown) => {
      log(`Refused: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    });
    if (!target) continue;
    try {
      await writeFileAtomic(target, file.content);
    } catch (error) {
      throw new StudioFailure('Internal', `Could not write ${file.path} in the staging folder: ${(error as Error).message}.`, {
        path: file.path,
        cause: error,
      });
    }
    log(`Wrote ${file.path} (${Buffer.byteLength(file.content, 'utf8')} bytes).`);
    wrote.push(file.path);
  }
  return wrote;
}
