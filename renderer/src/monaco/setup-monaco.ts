// Bundles Monaco for offline use: editor core, Markdown and JSON highlighting, the editor worker, no CDN loader.
import * as monaco from 'monaco-editor/editor/editor.api';
// Codicons (the find widget, folding chevrons) and the few editor contributions a read-only viewer uses.
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/gotoLine/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/readOnlyMessage/register';
// Invisible or look-alike characters in a memory file can steer the next session; make them visible
// (without the hover contribution: it would add ~240 KB for the explanation tooltip alone).
import 'monaco-editor/features/unicodeHighlighter/register';
import 'monaco-editor/languages/definitions/markdown/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { loader } from '@monaco-editor/react';
import { jsonConfiguration, jsonMonarch } from './json-language';

// Every worker label gets the plain editor worker: no language service is registered that needs another one.
globalThis.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

if (!monaco.languages.getLanguages().some((language) => language.id === 'json')) {
  monaco.languages.register({ id: 'json', extensions: ['.json'], aliases: ['JSON', 'json'] });
  monaco.languages.setMonarchTokensProvider('json', jsonMonarch);
  monaco.languages.setLanguageConfiguration('json', jsonConfiguration);
}

// Must run before any <Editor> mounts; otherwise @monaco-editor/react would inject a script from a CDN.
loader.config({ monaco });

export { monaco };
