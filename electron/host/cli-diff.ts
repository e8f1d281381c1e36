// A proposal in the terminal (`show`, `doctor --fix`): each file, each hunk's header with its id and decision, and the
// hunk's lines as a diff (- and +), conflicts between markers. Coloured on a terminal only: plain in a pipe or a log,
// and with NO_COLOR set; FORCE_COLOR=1 colours a pipe too.
import type { Hunk, Proposal } from '../../shared/review';
import { cliEnv, stdoutIsTTY } from './cli-io';
import { where } from './cli-where';

type Paint = (code: string, text: string) => string;

/** Whether to colour stdout: a terminal without NO_COLOR, or FORCE_COLOR set to anything but 0. */
export function colourOn(): boolean {
  const env = cliEnv();
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stdoutIsTTY();
}

const painter = (on: boolean): Paint => (on ? (code, text) => `\u001b[${code}m${text}\u001b[0m` : (_code, text) => text);

const RED = '31';
const GREEN = '32';
const CYAN = '36';
const BOLD_YELLOW = '1;33';
const INDENT = '        ';

export function hunkLine(h: Hunk, decision: string | undefined, paint: Paint = painter(false)): string {
  const range = paint(CYAN, `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
  const kinds = [...new Set((h.secrets ?? []).map((s) => s.label))];
  // Core marked the lines: said on the hunk's line, so a secret is seen before `apply --accept all`.
  const secret = kinds.length > 0 ? `  HOLDS A SECRET (${kinds.join(', ')})` : '';
  if (h.kind !== 'conflict') return `      ${h.id}  ${range}  ${decision ?? 'undecided'}${secret}`;
  const resolved = decision ? `resolved: ${decision}` : `UNRESOLVED (--resolve ${h.id}=theirs, =ours or =both)`;
  return `      ${h.id}  ${range}  ${paint(BOLD_YELLOW, `CONFLICT with the disk, ${resolved}`)}${secret}`;
}

/** A change hunk's unified lines: removed in red, added in green, context as is. */
function changeLines(h: Hunk, paint: Paint): string[] {
  return h.lines.map((line) => {
    if (line.startsWith('-')) return `${INDENT}${paint(RED, line)}`;
    if (line.startsWith('+')) return `${INDENT}${paint(GREEN, line)}`;
    return `${INDENT}${line}`;
  });
}

/** A conflict: the disk's lines and the proposal's between the markers git uses, each side named. */
function conflictLines(h: Hunk, paint: Paint): string[] {
  const c = h.conflict;
  if (!c) return changeLines(h, paint);
  const side = (absent: boolean, text: string[], code: string) =>
    absent ? [`${INDENT}(no file)`] : text.map((line) => `${INDENT}${paint(code, line)}`);
  return [
    `${INDENT}${paint(BOLD_YELLOW, '<<<<<<< on disk now (theirs)')}`,
    ...side(c.absent === 'theirs', c.theirs.text, RED),
    `${INDENT}${paint(BOLD_YELLOW, '=======')}`,
    ...side(c.absent === 'ours', c.ours.text, GREEN),
    `${INDENT}${paint(BOLD_YELLOW, '>>>>>>> proposed (ours)')}`,
  ];
}

/** The proposal's header, files, hunks with their lines, and its Codex-DB changes. */
export function printProposal(p: Proposal, options: { diff?: boolean } = {}): void {
  const paint = painter(colourOn());
  console.log(`${p.id}  ${p.status}  ${p.source}  "${p.title}"  +${p.added} -${p.removed}`);
  for (const f of p.files) {
    console.log(`  [${f.ord}] ${where(f)} (${f.change}, +${f.added} -${f.removed}${f.rebase ? ', rebased' : ''})`);
    for (const h of f.hunks) {
      console.log(hunkLine(h, f.decisions[h.id], paint));
      if (options.diff === false) continue;
      for (const line of h.kind === 'conflict' ? conflictLines(h, paint) : changeLines(h, paint)) console.log(line);
    }
  }
  for (const c of p.dbChanges) console.log(`  db ${c.db}: ${c.description}`);
}
