// Codex's own artifact validators (`validate_consolidation_artifacts_for_version`, `is_valid_v2_summary` in
// codex-rs/memories/write/src/workspace.rs, fork zibuyu2015831/codex@67e69213) as diagnostics with fixes.
import type { LintDiagnostic, LintEdit } from '../../../shared/lint';
import { FILES, SUMMARY_FIRST_LINE, V2_SUMMARY_HEADINGS, V2_SUMMARY_MAX_BYTES } from '../codex/constants';
import { floorCharBoundary, rustLines, rustTrim } from '../codex/rust-str';
import { TextLines } from './text-lines';

const WHY_FIRST_LINE =
  "Codex's Phase 2 refuses a consolidation whose summary does not start with this line (failed_invalid_artifacts), and the next consolidation rewrites the summary from scratch.";

/** `codex/summary-first-line`: `summary.lines().next() == Some("v1")`. `text` is null when the file is missing. */
export function checkSummaryFirstLine(text: string | null): LintDiagnostic[] {
  const rule = 'codex/summary-first-line';
  if (text === null) {
    const message = `${FILES.summary} is missing: Codex's Phase 2 refuses a consolidation without it (failed_invalid_artifacts), and new sessions get no memory summary.`;
    return [{ severity: 'error', rule, line: 1, endLine: 1, message }];
  }
  const first = rustLines(text)[0];
  if (first === SUMMARY_FIRST_LINE) return [];
  const shown = first === undefined ? 'the file is empty' : `it is ${JSON.stringify(first.length > 60 ? `${first.slice(0, 60)}…` : first)}`;
  const message = `The first line of ${FILES.summary} must be exactly "${SUMMARY_FIRST_LINE}" (${shown}). ${WHY_FIRST_LINE}`;
  if (text.startsWith('\uFEFF')) {
    return [
      {
        severity: 'error',
        rule,
        line: 1,
        endLine: 1,
        message: `${message} The file starts with a byte-order mark, which Codex counts as part of the line: save it as UTF-8 without BOM.`,
      },
    ];
  }
  const lines = new TextLines(text);
  if (lines.lineCount > 0 && lines.lineText(1) === SUMMARY_FIRST_LINE) {
    // Only a lone CR ends the line in the parsers' model; Rust's `lines()` does not split there.
    return [
      {
        severity: 'error',
        rule,
        line: 1,
        endLine: 1,
        message: `${message} The file uses lone CR line breaks, which Codex does not treat as line ends: convert them to LF.`,
      },
    ];
  }
  return [{ severity: 'error', rule, line: 1, endLine: 1, message, fix: firstLineFix(lines) }];
}

function firstLineFix(lines: TextLines): LintDiagnostic['fix'] {
  const isV1 = (line: number) => rustTrim(lines.lineText(line)).toLowerCase() === SUMMARY_FIRST_LINE;
  if (lines.lineCount === 0)
    return { description: `Write "${SUMMARY_FIRST_LINE}" as the first line`, edits: [{ line: 1, endLine: 0, text: SUMMARY_FIRST_LINE }] };
  if (isV1(1))
    return {
      description: `Make the first line exactly "${SUMMARY_FIRST_LINE}"`,
      edits: [{ line: 1, endLine: 1, text: SUMMARY_FIRST_LINE }],
    };
  let firstContent = 1;
  while (firstContent <= lines.lineCount && rustTrim(lines.lineText(firstContent)) === '') firstContent++;
  if (firstContent > 1 && firstContent <= lines.lineCount && isV1(firstContent)) {
    return {
      description: `Remove the blank lines before "${SUMMARY_FIRST_LINE}"`,
      edits: [{ line: 1, endLine: firstContent, text: SUMMARY_FIRST_LINE }],
    };
  }
  return { description: `Insert "${SUMMARY_FIRST_LINE}" as the first line`, edits: [{ line: 1, endLine: 0, text: SUMMARY_FIRST_LINE }] };
}

/** A heading written almost right: another level, another case, a trailing colon or extra spaces. */
function nearHeading(line: string, heading: string): boolean {
  const norm = (s: string) =>
    rustTrim(s)
      .replace(/^#+\s*/, '')
      .replace(/\s*:$/, '')
      .replace(/\s+/g, ' ')
      .replace(/[\u2018\u2019]/g, "'")
      .toLowerCase();
  return /^\s*#/.test(line) && norm(line) === norm(heading);
}

/** `codex/v2-headings`: each of the four headings must appear as a trimmed line (`line.trim() == heading`). */
export function checkV2Headings(text: string): LintDiagnostic[] {
  const present = new Set(rustLines(text).map((l) => rustTrim(l)));
  const missing = V2_SUMMARY_HEADINGS.filter((h) => !present.has(h));
  if (missing.length === 0) return [];
  const lines = new TextLines(text);
  // A misspelt heading counts as present for placement: its own fix rewrites it in place.
  const lineOf = (heading: string): number | null => {
    for (let n = 1; n <= lines.lineCount; n++)
      if (rustTrim(lines.lineText(n)) === heading || nearHeading(lines.lineText(n), heading)) return n;
    return null;
  };
  const out: LintDiagnostic[] = [];
  for (const heading of missing) {
    const why = `Codex's v2 validator requires the line "${heading}" in ${FILES.summary}; without it Phase 2 fails (invalid v2 memory summary) and memory/status does not report v2 as ready.`;
    let near: number | null = null;
    for (let n = 1; n <= lines.lineCount && near === null; n++) if (nearHeading(lines.lineText(n), heading)) near = n;
    if (near !== null) {
      out.push({
        severity: 'error',
        rule: 'codex/v2-headings',
        line: near,
        endLine: near,
        message: `Line ${near} is meant to be "${heading}" but is written differently. ${why}`,
        fix: { description: `Rewrite line ${near} as "${heading}"`, edits: [{ line: near, endLine: near, text: heading }] },
      });
      continue;
    }
    // Insert before the next canonical heading that is present, else at the end, to keep the template's order.
    const order = V2_SUMMARY_HEADINGS.indexOf(heading);
    const next = V2_SUMMARY_HEADINGS.slice(order + 1)
      .map(lineOf)
      .find((n): n is number => n !== null);
    const edit: LintEdit =
      next !== undefined
        ? { line: next, endLine: next - 1, text: heading }
        : { line: lines.lineCount + 1, endLine: lines.lineCount, text: heading };
    const at = next ?? Math.max(1, lines.lineCount);
    out.push({
      severity: 'error',
      rule: 'codex/v2-headings',
      line: at,
      endLine: at,
      message: `The heading "${heading}" is missing. ${why}`,
      fix: { description: next !== undefined ? `Insert "${heading}" before line ${next}` : `Append "${heading}"`, edits: [edit] },
    });
  }
  return out;
}

/** `codex/v2-size`: `summary.len() < 10_000` (UTF-8 bytes). */
export function checkV2Size(text: string): LintDiagnostic[] {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes < V2_SUMMARY_MAX_BYTES) return [];
  const lines = new TextLines(text);
  // Point at the line where the limit is crossed: everything from there on is over.
  const utf8 = Buffer.from(text, 'utf8');
  const over = utf8.subarray(0, floorCharBoundary(utf8, V2_SUMMARY_MAX_BYTES - 1)).toString('utf8').length;
  const line = lines.position(over).line;
  return [
    {
      severity: 'error',
      rule: 'codex/v2-size',
      line,
      endLine: Math.max(line, lines.lineCount),
      message: `${FILES.summary} is ${bytes.toLocaleString('en-US')} bytes; Codex's v2 validator requires fewer than ${V2_SUMMARY_MAX_BYTES.toLocaleString('en-US')}, so Phase 2 fails (invalid v2 memory summary). Remove at least ${(bytes - V2_SUMMARY_MAX_BYTES + 1).toLocaleString('en-US')} bytes; the budget lens shows where the limit falls.`,
    },
  ];
}
