// Editor hooks of the file view: apply markers and shading to the shown file, and scroll to a requested line range.
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import { monaco } from '../monaco/setup-monaco';
import { applyMarkers, buildDecorations } from './editor-decorations';
import type { EditorMarker, RevealRequest, ShadedLines } from './editor-types';

export interface JumpTarget {
  path: string;
  line: number;
  endLine: number;
}

export interface OverlayInput {
  /** The props' file is the one in the model (markers of one file must never land on another). */
  current: boolean;
  path: string;
  content: string;
  markers: readonly EditorMarker[];
  shaded: ShadedLines | null;
  jump: JumpTarget | null;
}

export function useEditorOverlays(
  editorRef: RefObject<editor.IStandaloneCodeEditor | null>,
  decorationsRef: RefObject<editor.IEditorDecorationsCollection | null>,
  { current, path, content, markers, shaded, jump }: OverlayInput,
): void {
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model || !current) return;
    applyMarkers(model, markers);
    const target = jump && jump.path === path ? jump : null;
    decorationsRef.current?.set(buildDecorations(model, markers, shaded, target));
  }, [editorRef, decorationsRef, current, path, content, markers, shaded, jump]);
}

/** The range of `match` on `line` (case-insensitive), or null when the line does not hold it. */
export function matchRange(model: editor.ITextModel, line: number, match: string | undefined): InstanceType<typeof monaco.Range> | null {
  if (!match) return null;
  const at = model.getLineContent(line).toLowerCase().indexOf(match.toLowerCase());
  return at < 0 ? null : new monaco.Range(line, at + 1, line, at + 1 + match.length);
}

/** The columns of a jump on `line` (a diagnostic's range), clamped to the line, or null. */
function columnRange(model: editor.ITextModel, line: number, columns: Columns): InstanceType<typeof monaco.Range> | null {
  if (columns.startColumn === undefined) return null;
  const last = model.getLineMaxColumn(line);
  const start = Math.min(Math.max(columns.startColumn, 1), last);
  const end = Math.min(Math.max(columns.endColumn ?? start, start), last);
  return new monaco.Range(line, start, line, end);
}

type Columns = Pick<RevealRequest, 'startColumn' | 'endColumn'>;

/**
 * Monaco's reveal only brings a range just inside the right edge; on a long unwrapped line this puts the range in the
 * middle (a wrapped line cannot scroll sideways, and Monaco clamps the offset).
 */
function centreSideways(instance: editor.IStandaloneCodeEditor, range: InstanceType<typeof monaco.Range>): void {
  const charWidth = instance.getOption(monaco.editor.EditorOption.fontInfo).typicalHalfwidthCharacterWidth;
  // Measured when the line is rendered; else the monospace estimate (the file view's text is plain, unwrapped).
  const offset = (column: number) => {
    const measured = instance.getOffsetForColumn(range.startLineNumber, column);
    return measured >= 0 ? measured : (column - 1) * charWidth;
  };
  const middle = (offset(range.startColumn) + offset(range.endColumn)) / 2;
  const width = instance.getLayoutInfo().contentWidth;
  instance.setScrollLeft(Math.max(0, middle - width / 2), monaco.editor.ScrollType.Immediate);
}

/**
 * Shows a jump: the match (search) or the columns (a diagnostic) centred, down and sideways, and selected; else its
 * lines centred (a long span from its top).
 */
function revealJump(
  instance: editor.IStandaloneCodeEditor,
  line: number,
  endLine: number,
  match: string | undefined,
  columns: Columns,
): void {
  // The Files view may have just been unhidden (a jump from Search): measure now, not at the next resize callback.
  instance.layout();
  const immediate = monaco.editor.ScrollType.Immediate;
  const model = instance.getModel();
  const found = model ? (matchRange(model, line, match) ?? columnRange(model, line, columns)) : null;
  if (found) {
    instance.setSelection(found);
    instance.revealRangeInCenter(found, immediate);
    centreSideways(instance, found);
    return;
  }
  instance.setPosition({ lineNumber: line, column: 1 });
  const lineHeight = instance.getOption(monaco.editor.EditorOption.lineHeight);
  const fits = (endLine - line + 1) * lineHeight < instance.getLayoutInfo().height * 0.6;
  const range = new monaco.Range(line, 1, endLine, 1);
  if (fits) instance.revealRangeInCenter(range, immediate);
  else instance.revealRangeNearTop(range, immediate);
}

/**
 * Scrolls to each new reveal request once its file is shown, puts the cursor on it, and returns the
 * highlighted target (cleared by `reset` when another file is shown).
 */
export function useReveal(
  editorRef: RefObject<editor.IStandaloneCodeEditor | null>,
  reveal: RevealRequest | null,
  shown: { version: string; path: string } | null,
): { jump: JumpTarget | null; reset: () => void } {
  const applied = useRef(-1);
  const [jump, setJump] = useState<JumpTarget | null>(null);
  useEffect(() => {
    const instance = editorRef.current;
    if (!instance || !reveal || !shown || reveal.path !== shown.path || reveal.version !== shown.version) return;
    if (applied.current === reveal.seq) return;
    applied.current = reveal.seq;
    const lines = instance.getModel()?.getLineCount() ?? 1;
    const line = Math.min(reveal.line, lines);
    const endLine = Math.min(Math.max(reveal.line, reveal.endLine), lines);
    revealJump(instance, line, endLine, reveal.match, reveal);
    setJump({ line, endLine, path: reveal.path });
  }, [editorRef, reveal, shown]);
  return { jump, reset: () => setJump(null) };
}
