// Types for the one Monaco module the renderer imports beyond editor.api (it ships no declarations of its own).
declare module 'monaco-editor/editor/common/model/pieceTreeTextBuffer/pieceTreeTextBufferBuilder' {
  /** What `ITextModel.setValue` accepts besides a string or a snapshot (`createTextBuffer` in textModel.js). */
  export interface TextBufferFactory {
    readonly __textBufferFactory?: never;
  }
  export class PieceTreeTextBufferBuilder {
    acceptChunk(chunk: string): void;
    finish(normalizeEOL?: boolean): TextBufferFactory;
  }
}
