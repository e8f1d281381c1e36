// What the file view asks of the editor (markers, shaded lines, jumps), in plain types so it need not load Monaco.
import type { MemoryVersion } from '../../../shared/domain';

export type MarkerSeverity = 'error' | 'warning' | 'info';

/** One diagnostic as the editor shows it: a squiggle, a gutter glyph and an overview-ruler tick. */
export interface EditorMarker {
  severity: MarkerSeverity;
  /** The rule id, shown as the marker's code. */
  rule: string;
  message: string;
  line: number;
  endLine: number;
  /** 1-based UTF-16 columns, end exclusive; absent means the whole lines. */
  startColumn?: number;
  endColumn?: number;
}

/** Lines to scroll to and highlight; a new `seq` repeats a jump to the same place. */
export interface RevealRequest {
  version: MemoryVersion;
  path: string;
  line: number;
  endLine: number;
  /** Words on `line` to reveal (centred, sideways too) and select. */
  match?: string;
  /** Columns on `line` to reveal (centred, sideways too) and select, 1-based, end exclusive. */
  startColumn?: number;
  endColumn?: number;
  seq: number;
}

/** Whole lines shaded as cut from what the next session sees (the budget lens). */
export interface ShadedLines {
  startLine: number;
  endLine: number;
}
