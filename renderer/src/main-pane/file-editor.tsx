// The read-only Monaco view of one file; lazy-loaded so the shell paints before Monaco's 3 MB arrive.
import { Editor, type OnMount } from '@monaco-editor/react';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import type { MemoryVersion } from '../../../shared/domain';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { HIGHLIGHT_MAX_CHARS, languageForContent } from '../lib/format';
import { monaco } from '../monaco/setup-monaco';
import { fillInSlices } from '../monaco/fill-editor';
import { CHUNKED_MIN_CHARS } from '../monaco/text-buffer';
import { useEditorOverlays, useReveal } from './editor-effects';
import type { EditorMarker, RevealRequest, ShadedLines } from './editor-types';

export interface FileEditorProps {
  version: MemoryVersion;
  path: string;
  content: string;
  colorScheme: ColorScheme;
  /** Diagnostics of this file (squiggles and gutter glyphs). */
  markers: readonly EditorMarker[];
  /** Lines the next session does not see, shaded; null when nothing is cut. */
  shaded: ShadedLines | null;
  /** Where to scroll once this file is shown; applied once per `seq`. */
  reveal: RevealRequest | null;
  /** Edit mode: the text becomes writable and every change is reported (it is only ever proposed, never saved). */
  editable?: boolean;
  onEdit?: (text: string) => void;
  /** Each line the cursor moves to (keys, clicks, jumps), for the outline to follow. */
  onCursorLine?: (line: number) => void;
}

// Stable identity: @monaco-editor/react re-applies options whenever the object changes.
const options: editor.IStandaloneEditorConstructionOptions = {
  readOnly: true,
  domReadOnly: true,
  readOnlyMessage: { value: 'Memory Studio only shows this file; editing comes with reviewed changes.' },
  automaticLayout: true,
  wordWrap: 'on',
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  renderLineHighlightOnlyWhenFocus: true,
  fontSize: 13,
  lineNumbersMinChars: 4,
  tabSize: 2,
  glyphMargin: true,
  // Monaco hides marker squiggles in read-only editors by default; here they are the point.
  renderValidationDecorations: 'on',
  unicodeHighlight: { ambiguousCharacters: true, invisibleCharacters: true, nonBasicASCII: false },
  stickyScroll: { enabled: false },
};

interface Shown {
  version: MemoryVersion;
  path: string;
}

const sameFile = (a: Shown | null, b: Shown | null) => !!a && !!b && a.version === b.version && a.path === b.path;

/** Wrapping is computed for every line at once: on a 5 MB file that alone blocked the page for 500 ms. */
const wrapsFor = (content: string) => content.length <= HIGHLIGHT_MAX_CHARS;

/**
 * Puts `value` (the target's text, or null when the model holds it already) into the model, then the target's language
 * and wrapping, and the reader's place (`viewState`, a rewrite of the open file) or the top (another file).
 */
function putText(
  instance: editor.IStandaloneCodeEditor,
  model: editor.ITextModel,
  target: Shown & { content: string },
  value: string | null,
  viewState: editor.ICodeEditorViewState | null,
): void {
  if (!wrapsFor(target.content)) instance.updateOptions({ wordWrap: 'off' });
  if (value !== null && model.getValue() !== value) {
    // Plain text first, so the new text is never tokenized with the previous file's (possibly heavy) language.
    monaco.editor.setModelLanguage(model, 'plaintext');
    model.setValue(value);
  }
  monaco.editor.setModelLanguage(model, languageForContent(target.path, target.content));
  if (wrapsFor(target.content)) instance.updateOptions({ wordWrap: 'on' });
  if (viewState) instance.restoreViewState(viewState);
  else instance.setScrollPosition({ scrollTop: 0, scrollLeft: 0 });
}

/**
 * True while a large file's text is going in: the editor is read-only and its partial text is never reported as an
 * edit (a draft must never be a part of the file). A ref for the logic, state for the test hook.
 */
function setReadOnly(instance: editor.IStandaloneCodeEditor | null, readOnly: boolean): void {
  instance?.updateOptions({ readOnly, domReadOnly: readOnly });
}

function useFilling() {
  const filling = useRef(false);
  const [fillingShown, setFillingShown] = useState(false);
  const setFilling = useCallback((on: boolean) => {
    filling.current = on;
    setFillingShown(on);
  }, []);
  return { filling, fillingShown, setFilling };
}

/** Edit mode on or off: writable (and focused) when editing, unless a big file is still going in. */
function useEditMode(editorRef: RefObject<editor.IStandaloneCodeEditor | null>, editable: boolean, filling: RefObject<boolean>): void {
  useEffect(() => {
    setReadOnly(editorRef.current, !editable || filling.current);
    if (editable) editorRef.current?.focus();
  }, [editorRef, editable, filling]);
}

/**
 * Said while a big file goes in, when the editor ignores typing (see fill-editor.ts), so keys are not lost unnoticed. The
 * live region stays mounted (empty, invisible) so a screen reader announces the text when it appears.
 */
function FillingNote({ path, editable }: { path: string | null; editable: boolean }) {
  return (
    <div className="editor-filling" role="status" data-testid="editor-filling">
      {path === null ? null : `Loading the rest of ${path.split('/').pop()}…${editable ? ' You can type once all of it is in.' : ''}`}
    </div>
  );
}

export function FileEditor(props: FileEditorProps) {
  const { version, path, content, colorScheme, markers, shaded, reveal, editable = false, onEdit, onCursorLine } = props;
  const editorRef = useRef<editor.IStandaloneCodeEditor | null>(null);
  const decorationsRef = useRef<editor.IEditorDecorationsCollection | null>(null);
  const latest = useRef({ version, path, content });
  latest.current = { version, path, content };
  const editRef = useRef({ editable, onEdit, onCursorLine });
  editRef.current = { editable, onEdit, onCursorLine };
  // The file whose text is in the model, or going into it (a big file fills over several tasks): a ref for the logic;
  // `shown` (state, for the test hooks) is the file whose text is all in.
  const inModel = useRef<Shown | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const { jump, reset: resetJump } = useReveal(editorRef, reveal, shown);
  const resetJumpRef = useRef(resetJump);
  resetJumpRef.current = resetJump;

  // Each show() call's number: a large file's text goes in over several tasks, and only the latest call may finish.
  const showSeq = useRef(0);
  const { filling, fillingShown, setFilling } = useFilling();
  const show = useCallback(
    (target: Shown & { content: string }) => {
      const instance = editorRef.current;
      const model = instance?.getModel();
      if (!instance || !model) return;
      // A rewrite of the open file keeps the reader's place; a different file starts at the top. Asked for while another
      // file is still filling, a file is a different one: that fill stops, and never lands as this file's text or draft.
      const keepPlace = sameFile(inModel.current, target);
      // While editing, the draft is the person's: a refetch of the same file must not replace it.
      if (keepPlace && editRef.current.editable) return;
      const seq = ++showSeq.current;
      inModel.current = { version: target.version, path: target.path };
      setFilling(false);
      setReadOnly(instance, !editRef.current.editable);
      const viewState = keepPlace ? instance.saveViewState() : null;
      const land = (value: string | null) => {
        putText(instance, model, target, value, viewState);
        if (!keepPlace) resetJumpRef.current();
        const next = { version: target.version, path: target.path };
        setShown((current) => (sameFile(current, next) ? current : next));
      };
      if (target.content.length < CHUNKED_MIN_CHARS) return land(target.content);
      if (model.getValue() === target.content) return land(null);
      const stale = () => seq !== showSeq.current || model.isDisposed();
      void fillInSlices(instance, model, target.content, { filling: setFilling, edit: editRef, stale, landed: () => land(null) });
    },
    [setFilling],
  );

  const onMount = useCallback<OnMount>(
    (instance) => {
      editorRef.current = instance;
      decorationsRef.current = instance.createDecorationsCollection();
      instance.onDidChangeModelContent(() => {
        const { editable: writable, onEdit: report } = editRef.current;
        if (writable && !filling.current) report?.(instance.getValue());
      });
      instance.onDidChangeCursorPosition((event) => editRef.current.onCursorLine?.(event.position.lineNumber));
      setReadOnly(instance, !editRef.current.editable);
      show(latest.current);
    },
    [show, filling],
  );

  // Leaving edit mode (Cancel) puts the file's own text back.
  useEffect(() => show({ version, path, content }), [version, path, content, show, editable]);
  useEditMode(editorRef, editable, filling);
  useEditorOverlays(editorRef, decorationsRef, { current: sameFile(shown, { version, path }), path, content, markers, shaded, jump });

  return (
    <div
      className="editor-host"
      data-testid="editor"
      data-version={shown?.version}
      data-path={shown?.path}
      data-editable={editable ? 'true' : 'false'}
      data-filling={fillingShown ? 'true' : 'false'}
    >
      <Editor
        defaultValue=""
        defaultLanguage={languageForContent(path, content)}
        theme={colorScheme === 'dark' ? 'vs-dark' : 'vs'}
        options={options}
        onMount={onMount}
        loading={<LoadingState label="Starting the editor…" />}
      />
      <FillingNote path={fillingShown ? path : null} editable={editable} />
    </div>
  );
}
