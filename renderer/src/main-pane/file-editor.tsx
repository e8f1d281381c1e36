// The read-only Monaco view of one file; lazy-loaded so the shell paints before Monaco's 3 MB arrive.
import { Editor, type OnMount } from '@monaco-editor/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import type { MemoryVersion } from '../../../shared/domain';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { languageForPath } from '../lib/format';
import { monaco } from '../monaco/setup-monaco';

export interface FileEditorProps {
  version: MemoryVersion;
  path: string;
  content: string;
  colorScheme: ColorScheme;
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
  unicodeHighlight: { ambiguousCharacters: true, invisibleCharacters: true, nonBasicASCII: false },
  stickyScroll: { enabled: false },
};

interface Shown {
  version: MemoryVersion;
  path: string;
}

export function FileEditor({ version, path, content, colorScheme }: FileEditorProps) {
  const editorRef = useRef<editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef({ version, path, content });
  latest.current = { version, path, content };
  // The file whose content is in the model right now: a ref for the logic, state for the test hooks.
  const shownRef = useRef<Shown | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);

  const show = useCallback((target: Shown & { content: string }) => {
    const instance = editorRef.current;
    const model = instance?.getModel();
    if (!instance || !model) return;
    // A rewrite of the open file keeps the reader's place; a different file starts at the top.
    const previous = shownRef.current;
    const sameFile = previous?.version === target.version && previous.path === target.path;
    const viewState = sameFile ? instance.saveViewState() : null;
    if (model.getValue() !== target.content) model.setValue(target.content);
    monaco.editor.setModelLanguage(model, languageForPath(target.path));
    if (viewState) instance.restoreViewState(viewState);
    else instance.setScrollPosition({ scrollTop: 0, scrollLeft: 0 });
    const next = { version: target.version, path: target.path };
    shownRef.current = next;
    setShown((current) => (current?.version === next.version && current.path === next.path ? current : next));
  }, []);

  const onMount = useCallback<OnMount>(
    (instance) => {
      editorRef.current = instance;
      show(latest.current);
    },
    [show],
  );

  useEffect(() => show({ version, path, content }), [version, path, content, show]);

  return (
    <div className="editor-host" data-testid="editor" data-version={shown?.version} data-path={shown?.path}>
      <Editor
        defaultValue={content}
        defaultLanguage={languageForPath(path)}
        theme={colorScheme === 'dark' ? 'vs-dark' : 'vs'}
        options={options}
        onMount={onMount}
        loading={<LoadingState label="Starting the editor…" />}
      />
    </div>
  );
}
