// A large file's Monaco buffer built a slice per task holds exactly the text one setValue would, and stops when asked.
import { describe, expect, it } from 'vitest';
import { PieceTreeTextBufferBuilder } from 'monaco-editor/editor/common/model/pieceTreeTextBuffer/pieceTreeTextBufferBuilder';
import { buildTextBuffer, type TextBufferFactory } from '../../renderer/src/monaco/text-buffer';

/** The parts of Monaco's text buffer the test reads (its public type is internal). */
interface Buffer {
  getLinesContent(): string[];
  getEOL(): string;
}
const linesOf = (factory: TextBufferFactory | null) => {
  const created = (factory as unknown as { create(eol: number): { textBuffer: Buffer } }).create(1).textBuffer;
  return { eol: created.getEOL(), lines: created.getLinesContent() };
};

/** What `model.setValue(text)` builds: the whole text as one chunk. */
function inOneChunk(text: string): TextBufferFactory {
  const builder = new PieceTreeTextBufferBuilder();
  builder.acceptChunk(text);
  return builder.finish();
}

const SLICE = 64 * 1024;

/** About 300 KB whose slice boundaries fall inside a \r\n, inside a surrogate pair and right after a \r. */
function awkwardText(): string {
  const body = Array.from({ length: 6000 }, (_, i) => `- line ${i}: ${'word '.repeat(8)}`).join('\n');
  const chars = [...body.slice(0, 4 * SLICE)];
  const put = (at: number, piece: string) => chars.splice(at, piece.length, ...piece);
  put(SLICE - 1, '\r\n');
  put(2 * SLICE - 1, '😀');
  put(3 * SLICE - 1, '\r');
  return chars.join('') + body.slice(4 * SLICE);
}

describe('buildTextBuffer', () => {
  it('holds the same lines as the text set in one piece, across slice boundaries in a CRLF, a surrogate pair and a CR', async () => {
    const text = awkwardText();
    let pauses = 0;
    const built = await buildTextBuffer(text, () => false, { budgetMs: 0, yieldTask: async () => void pauses++ });
    expect(pauses).toBe(Math.ceil(text.length / SLICE) - 1);
    expect(linesOf(built)).toEqual(linesOf(inOneChunk(text)));
    expect(linesOf(built).lines.join('\n')).toContain('😀');
  });

  it('gives up at the next task boundary once cancelled (another file was asked for)', async () => {
    let cancelled = false;
    let pauses = 0;
    const built = await buildTextBuffer('x\n'.repeat(3 * SLICE), () => cancelled, {
      budgetMs: 0,
      yieldTask: async () => {
        pauses++;
        cancelled = true;
      },
    });
    expect(built).toBeNull();
    expect(pauses).toBe(1);
  });

  it('builds a short text in one task, without a pause', async () => {
    let pauses = 0;
    const built = await buildTextBuffer('one\ntwo\n', () => false, { yieldTask: async () => void pauses++ });
    expect(pauses).toBe(0);
    expect(linesOf(built).lines).toEqual(['one', 'two', '']);
  });
});
