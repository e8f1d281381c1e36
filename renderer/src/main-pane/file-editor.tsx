// The read-only Monaco view of one file; lazy-loaded so the shell paints before Monaco's 3 MB arrive.
import { Editor, type OnMount } from '@monaco-editor/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import type { MemoryVersion } from '../../../shared/domain';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { HIGHLIGHT_MAX_CHARS, languageForContent } from '../lib/format';
import { monaco } from '../monaco/setup-monaco';
import { buildTextBuffer, CHUNKED_MIN_CHARS, setModelText, type TextBufferFactory } from '../monaco/text-buffer';
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

/**
 * Puts `value` (the target's text, its buffer built ahead, or null when the model holds it already) into the model
 * with the target's language and wrapping.
 * A rewrite of the open file keeps the reader's place; a different file starts at the top (`reset`: drop the jump).
 */
function putText(
  instance: editor.IStandaloneCodeEditor,
  model: editor.ITextModel,
  target: Shown & { content: string },
  value: string | TextBufferFactory | null,
  previous: Shown | null,
): { shown: Shown; reset: boolean } {
  const keepPlace = sameFile(previous, target);
  const viewState = keepPlace ? instance.saveViewState() : null;
  const language = languageForContent(target.path, target.content);
  const large = target.content.length > HIGHLIGHT_MAX_CHARS;
  // Wrapping is computed for every line at once: on a 5 MB file that alone blocked the page for 500 ms.
  if (large) instance.updateOptions({ wordWrap: 'off' });
  if (value !== null && (typeof value !== 'string' || model.getValue() !== value)) {
    // Plain text first, so the new text is never tokenized with the previous file's (possibly heavy) language.
    monaco.editor.setModelLanguage(model, 'plaintext');
    setModelText(model, value);
  }
  monaco.editor.setModelLanguage(model, language);
  if (!large) instance.updateOptions({ wordWrap: 'on' });
  if (viewState) instance.restoreViewState(viewState);
  else instance.setScrollPosition({ scrollTop: 0, scrollLeft: 0 });
  return { shown: { version: target.version, path: target.path }, reset: !keepPlace };
}

export function FileEditor(props: FileEditorProps) {
  const { version, path, content, colorScheme, markers, shaded, reveal, editable = false, onEdit, onCursorLine } = props;
  const editorRef = useRef<editor.IStandaloneCodeEditor | null>(null);
  const decorationsRef = useRef<editor.IEditorDecorationsCollection | null>(null);
  const latest = useRef({ version, path, content });
  latest.current = { version, path, content };
  const editRef = useRef({ editable, onEdit, onCursorLine });
  editRef.current = { editable, onEdit, onCursorLine };
  // The file whose content is in the model right now: a ref for the logic, state for the test hooks.
  const shownRef = useRef<Shown | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const { jump, reset: resetJump } = useReveal(editorRef, reveal, shown);
  const resetJumpRef = useRef(resetJump);
  resetJumpRef.current = resetJump;

  // Each show() call's number: a large file's buffer is built over several tasks, and only the latest call may land.
  const showSeq = useRef(0);
  const show = useCallback((target: Shown & { content: string }) => {
    const instance = editorRef.current;
    const model = instance?.getModel();
    if (!instance || !model) return;
    // While editing, the draft is the person's: a refetch of the same file must not replace it.
    if (sameFile(shownRef.current, target) && editRef.current.editable) return;
    const seq = ++showSeq.current;
    const land = (value: string | TextBufferFactory | null) => {
      const next = putText(instance, model, target, value, shownRef.current);
      if (next.reset) resetJumpRef.current();
      shownRef.current = next.shown;
      setShown((current) => (sameFile(current, next.shown) ? current : next.shown));
    };
    if (target.content.length < CHUNKED_MIN_CHARS) {
      land(target.content);
      return;
    }
    if (model.getValue() === target.content) {
      land(null);
      return;
    }
    const stale = () => seq !== showSeq.current || model.isDisposed();
    void buildTextBuffer(target.content, stale).then((buffer) => {
      if (buffer && !stale()) land(buffer);
    });
  }, []);

  const onMount = useCallback<OnMount>(
    (instance) => {
      editorRef.current = instance;
      decorationsRef.current = instance.createDecorationsCollection();
      instance.onDidChangeModelContent(() => {
        const { editable: writable, onEdit: report } = editRef.current;
        if (writable) report?.(instance.getValue());
      });
      instance.onDidChangeCursorPosition((event) => editRef.current.onCursorLine?.(event.position.lineNumber));
      const writable = editRef.current.editable;
      instance.updateOptions({ readOnly: !writable, domReadOnly: !writable });
      show(latest.current);
    },
    [show],
  );

  // Leaving edit mode (Cancel) puts the file's own text back.
  useEffect(() => show({ version, path, content }), [version, path, content, show, editable]);
  useEffect(() => {
    editorRef.current?.updateOptions({ readOnly: !editable, domReadOnly: !editable });
    if (editable) editorRef.current?.focus();
  }, [editable]);
  useEditorOverlays(editorRef, decorationsRef, { current: sameFile(shown, { version, path }), path, content, markers, shaded, jump });

  return (
    <div
      className="editor-host"
      data-testid="editor"
      data-version={shown?.version}
      data-path={shown?.path}
      data-editable={editable ? 'true' : 'false'}
    >
      <Editor
        defaultValue=""
        defaultLanguage={languageForContent(path, content)}
        theme={colorScheme === 'dark' ? 'vs-dark' : 'vs'}
        options={options}
        onMount={onMount}
        loading={<LoadingState label="Starting the editor…" />}
      />
    </div>
  );
}
