// Turns markers, the budget's cut lines and a jump target into Monaco markers and decorations.
import type { editor } from 'monaco-editor/editor/editor.api';
import { monaco } from '../monaco/setup-monaco';
import type { EditorMarker, MarkerSeverity, ShadedLines } from './editor-types';

/** One owner for all our markers, so setting them replaces the previous file's. */
export const MARKER_OWNER = 'memory-studio';

const severities: Record<MarkerSeverity, monaco.MarkerSeverity> = {
  error: monaco.MarkerSeverity.Error,
  warning: monaco.MarkerSeverity.Warning,
  info: monaco.MarkerSeverity.Info,
};

function clampLine(model: editor.ITextModel, line: number): number {
  return Math.min(Math.max(1, line), model.getLineCount());
}

/** Markers (squiggles, and ticks in the overview ruler); columns when the rule has them, else the whole lines. */
export function applyMarkers(model: editor.ITextModel, markers: readonly EditorMarker[]): void {
  monaco.editor.setModelMarkers(
    model,
    MARKER_OWNER,
    markers.map((marker) => {
      const startLineNumber = clampLine(model, marker.line);
      const endLineNumber = clampLine(model, Math.max(marker.line, marker.endLine));
      return {
        severity: severities[marker.severity],
        message: marker.message,
        code: marker.rule,
        source: 'Memory Studio',
        startLineNumber,
        endLineNumber,
        startColumn: marker.startColumn ?? 1,
        endColumn: marker.endColumn ?? model.getLineMaxColumn(endLineNumber),
      };
    }),
  );
}

/** The worst severity per line, for one gutter glyph per line. */
function glyphsByLine(markers: readonly EditorMarker[]): Map<number, MarkerSeverity> {
  const rank: Record<MarkerSeverity, number> = { info: 1, warning: 2, error: 3 };
  const byLine = new Map<number, MarkerSeverity>();
  for (const marker of markers) {
    const current = byLine.get(marker.line);
    if (!current || rank[marker.severity] > rank[current]) byLine.set(marker.line, marker.severity);
  }
  return byLine;
}

export function buildDecorations(
  model: editor.ITextModel,
  markers: readonly EditorMarker[],
  shaded: ShadedLines | null,
  jump: { line: number; endLine: number } | null,
): editor.IModelDeltaDecoration[] {
  const decorations: editor.IModelDeltaDecoration[] = [];
  for (const [line, severity] of glyphsByLine(markers)) {
    const at = clampLine(model, line);
    decorations.push({
      range: new monaco.Range(at, 1, at, 1),
      options: { glyphMarginClassName: `lint-glyph lint-glyph-${severity}` },
    });
  }
  if (shaded) {
    decorations.push({
      range: new monaco.Range(clampLine(model, shaded.startLine), 1, clampLine(model, shaded.endLine), 1),
      options: {
        isWholeLine: true,
        className: 'budget-removed-line',
        linesDecorationsClassName: 'budget-removed-gutter',
        overviewRuler: { color: '#d9a21b80', position: monaco.editor.OverviewRulerLane.Full },
      },
    });
  }
  if (jump) {
    decorations.push({
      range: new monaco.Range(clampLine(model, jump.line), 1, clampLine(model, jump.endLine), 1),
      options: { isWholeLine: true, className: 'jump-target-line', linesDecorationsClassName: 'jump-target-gutter' },
    });
  }
  return decorations;
}
