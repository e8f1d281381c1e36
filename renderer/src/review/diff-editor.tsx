// Monaco's read-only diff editor (base vs proposed) for one file, optionally with ranges highlighted; lazy-loaded with Monaco.
// A created or deleted file shows as its one side with every line marked.
import { useEffect, useRef, type RefObject } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { languageForContent } from '../lib/format';
import { monaco } from '../monaco/setup-monaco';

export interface DiffEditorProps {
  /** Distinguishes models: a new key replaces both sides. */
  modelKey: string;
  path: string;
  /** Null when the file does not exist on that side: a created or deleted file shows as one editor, not a diff. */
  original: string | null;
  modified: string | null;
  colorScheme: ColorScheme;
  /** A line of the modified side to scroll to (the active hunk), or null. */
  revealLine: number | null;
  /** When set, the proposed side is editable and every change is reported (fixing a result in the review). */
  onEdit?: (text: string) => void;
  /** Lines to mark on each side (unified numbering: a count of 0 marks the line after which the range sits). */
  highlight?: { original: LineSpan | null; modified: LineSpan | null };
  /** Names the editor for tests and screen readers when a page shows more than one. */
  label?: string;
}

export interface LineSpan {
  start: number;
  lines: number;
}

function decorationsOf(span: LineSpan | null): editor.IModelDeltaDecoration[] {
  if (!span) return [];
  const first = Math.max(span.start, 1);
  const last = span.lines === 0 ? first : span.start + span.lines - 1;
  const className = span.lines === 0 ? 'conflict-point' : 'conflict-range';
  return [
    {
      range: new monaco.Range(first, 1, last, 1),
      options: {
        isWholeLine: true,
        className,
        linesDecorationsClassName: 'conflict-gutter',
        overviewRuler: { color: '#d29922', position: monaco.editor.OverviewRulerLane.Full },
      },
    },
  ];
}

const options: editor.IStandaloneDiffEditorConstructionOptions = {
  readOnly: true,
  originalEditable: false,
  domReadOnly: true,
  automaticLayout: true,
  renderSideBySide: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  wordWrap: 'on',
  diffWordWrap: 'on',
  fontSize: 13,
  lineNumbersMinChars: 4,
  renderOverviewRuler: true,
  stickyScroll: { enabled: false },
};

/** A created or deleted file: its one side, every line marked, with no phantom empty line for the missing side. */
function SingleSide({
  path,
  text,
  added,
  colorScheme,
  revealLine,
  label,
}: {
  path: string;
  text: string;
  added: boolean;
  colorScheme: ColorScheme;
  revealLine: number | null;
  label?: string;
}) {
  const hostRef = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return undefined;
    const model = monaco.editor.createModel(text, languageForContent(path, text));
    const instance = monaco.editor.create(host, { ...singleOptions, model });
    const lines = model.getLineCount();
    instance.createDecorationsCollection([
      {
        range: new monaco.Range(1, 1, lines, 1),
        options: {
          isWholeLine: true,
          className: added ? 'line-added' : 'line-removed',
          linesDecorationsClassName: added ? 'gutter-added' : 'gutter-removed',
        },
      },
    ]);
    if (revealLine) instance.revealLineNearTop(revealLine);
    return () => {
      instance.dispose();
      model.dispose();
    };
  }, [path, text, added, revealLine]);
  useEffect(() => {
    monaco.editor.setTheme(colorScheme === 'dark' ? 'vs-dark' : 'vs');
  }, [colorScheme]);
  return (
    <div
      ref={hostRef}
      className="diff-editor-host"
      data-testid="diff-editor"
      data-path={path}
      data-label={label}
      data-single={added ? 'added' : 'removed'}
      aria-label={label}
      data-editable="false"
    />
  );
}

const singleOptions: editor.IStandaloneEditorConstructionOptions = {
  readOnly: true,
  domReadOnly: true,
  automaticLayout: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  wordWrap: 'on',
  fontSize: 13,
  lineNumbersMinChars: 4,
  stickyScroll: { enabled: false },
};

export function DiffEditor(props: DiffEditorProps) {
  const { original, modified } = props;
  if (original === null || modified === null) {
    return (
      <SingleSide
        path={props.path}
        text={original ?? modified ?? ''}
        added={original === null}
        colorScheme={props.colorScheme}
        revealLine={props.revealLine}
        label={props.label}
      />
    );
  }
  return <TwoSides {...props} original={original} modified={modified} />;
}

/** Marks the highlighted spans on both sides (a search hit, a cited line), revealing the left one. */
function useHighlightedSpans(
  editorRef: RefObject<editor.IStandaloneDiffEditor | null>,
  highlight: DiffEditorProps['highlight'],
  modelKey: string,
  original: string,
  modified: string,
): void {
  // The spans by value: the caller may build new span objects on every render.
  const originalStart = highlight?.original?.start ?? null;
  const originalLines = highlight?.original?.lines ?? 0;
  const modifiedStart = highlight?.modified?.start ?? null;
  const modifiedLines = highlight?.modified?.lines ?? 0;
  useEffect(() => {
    const originalSpan = originalStart === null ? null : { start: originalStart, lines: originalLines };
    const modifiedSpan = modifiedStart === null ? null : { start: modifiedStart, lines: modifiedLines };
    const instance = editorRef.current;
    if (!instance || (!originalSpan && !modifiedSpan)) return undefined;
    const left = instance.getOriginalEditor().createDecorationsCollection(decorationsOf(originalSpan));
    const right = instance.getModifiedEditor().createDecorationsCollection(decorationsOf(modifiedSpan));
    if (originalSpan) instance.getOriginalEditor().revealLineInCenterIfOutsideViewport(Math.max(originalSpan.start, 1));
    return () => {
      left.clear();
      right.clear();
    };
    // `original` and `modified` are the models' text: decorations are made again when it changes.
  }, [editorRef, originalStart, originalLines, modifiedStart, modifiedLines, modelKey, original, modified]);
}

/**
 * The diff arrives after the models: its alignment zones push lines down, so a line revealed before it ends up above
 * the view (a 90 px conflict pane showed lines 8–11, not the conflict at 16). Reveal again once the first diff is in.
 */
function useRevealAfterDiff(editorRef: RefObject<editor.IStandaloneDiffEditor | null>, revealLine: number | null, modelKey: string): void {
  const line = useRef(revealLine);
  line.current = revealLine;
  useEffect(() => {
    const instance = editorRef.current;
    if (!instance) return undefined;
    let done = false;
    const subscription = instance.onDidUpdateDiff(() => {
      const target = line.current;
      if (done || target === null || target <= 0) return;
      done = true;
      instance.getModifiedEditor().revealLineNearTop(target, monaco.editor.ScrollType.Immediate);
    });
    return () => subscription.dispose();
  }, [editorRef, modelKey]);
}

function TwoSides({
  modelKey,
  path,
  original,
  modified,
  colorScheme,
  revealLine,
  onEdit,
  highlight,
  label,
}: DiffEditorProps & { original: string; modified: string }) {
  const hostRef = useRef<HTMLDivElement | null>(null);
  const editorRef = useRef<editor.IStandaloneDiffEditor | null>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return undefined;
    const instance = monaco.editor.createDiffEditor(host, options);
    editorRef.current = instance;
    return () => {
      const model = instance.getModel();
      instance.dispose();
      model?.original.dispose();
      model?.modified.dispose();
      editorRef.current = null;
    };
  }, []);

  useEffect(() => {
    const instance = editorRef.current;
    if (!instance) return;
    const language = languageForContent(path, modified);
    const previous = instance.getModel();
    instance.setModel({
      original: monaco.editor.createModel(original, language),
      modified: monaco.editor.createModel(modified, language),
    });
    previous?.original.dispose();
    previous?.modified.dispose();
  }, [modelKey, path, original, modified]);

  const editable = onEdit !== undefined;
  const onEditRef = useRef(onEdit);
  onEditRef.current = onEdit;
  useEffect(() => {
    const instance = editorRef.current;
    if (!instance) return undefined;
    const modifiedEditor = instance.getModifiedEditor();
    modifiedEditor.updateOptions({ readOnly: !editable, domReadOnly: !editable });
    if (!editable) return undefined;
    const subscription = modifiedEditor.onDidChangeModelContent(() => onEditRef.current?.(modifiedEditor.getValue()));
    modifiedEditor.focus();
    return () => subscription.dispose();
  }, [editable, modelKey]);

  useEffect(() => {
    monaco.editor.setTheme(colorScheme === 'dark' ? 'vs-dark' : 'vs');
  }, [colorScheme]);

  // A new file opens at its first change (near the top, so what follows it shows); later moves reveal only when needed.
  const revealedKey = useRef<string | null>(null);
  useEffect(() => {
    const target = editorRef.current?.getModifiedEditor();
    if (!target || revealLine === null || revealLine <= 0) return;
    if (revealedKey.current === modelKey) target.revealLineInCenterIfOutsideViewport(revealLine);
    else target.revealLineNearTop(revealLine);
    revealedKey.current = modelKey;
  }, [revealLine, modelKey]);
  useRevealAfterDiff(editorRef, revealLine, modelKey);

  useHighlightedSpans(editorRef, highlight, modelKey, original, modified);

  return (
    <div
      ref={hostRef}
      className="diff-editor-host"
      data-testid="diff-editor"
      data-path={path}
      data-label={label}
      aria-label={label}
      data-editable={editable ? 'true' : 'false'}
    />
  );
}
