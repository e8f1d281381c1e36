// Cuts a file's text into the full-text index's rows: runs of whole lines of about 2 KB, never across a project's block.

/** A stretch of lines that belongs to one project (a MEMORY.md block, a summary scope, a raw memory's thread). */
export interface Region {
  line: number;
  endLine: number;
  project: string;
}

export interface Chunk {
  line: number;
  endLine: number;
  body: string;
  /** Searchable names that are not in the text's lines: the file's path and title (first chunk only). */
  meta: string;
  project: string | null;
}

/** About 2 KB per row: small enough that a hit's snippet and line are found at once, large enough to keep rows few. */
export const CHUNK_CHARS = 2048;

/** Project of each line, from regions (later, inner regions win over the ones they sit in). */
function projectAt(regions: readonly Region[], lineCount: number): Array<string | null> {
  const out = new Array<string | null>(lineCount + 1).fill(null);
  for (const r of [...regions].sort((a, b) => a.line - b.line || b.endLine - a.endLine)) {
    for (let l = r.line; l <= Math.min(r.endLine, lineCount); l++) out[l] = r.project;
  }
  return out;
}

/** Lines of `text` grouped into chunks; a chunk ends at the size limit, or where the project changes. */
export function chunkText(text: string, regions: readonly Region[], relPath: string, title: string | null): Chunk[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  const projects = projectAt(regions, lines.length);
  const chunks: Chunk[] = [];
  let start = 1;
  let size = 0;
  const flush = (end: number) => {
    if (end < start) return;
    chunks.push({ line: start, endLine: end, body: lines.slice(start - 1, end).join('\n'), meta: '', project: projects[start] ?? null });
    start = end + 1;
    size = 0;
  };
  for (const [k, text] of lines.entries()) {
    const l = k + 1;
    if (l > start && projects[l] !== projects[l - 1]) flush(l - 1);
    size += text.length + 1;
    if (size >= CHUNK_CHARS) flush(l);
  }
  flush(lines.length);
  const first = chunks[0];
  if (first) first.meta = [relPath.replace(/[/_.-]+/g, ' '), title ?? ''].join(' ').trim();
  return chunks;
}
