// A small Monarch grammar for JSON, so manifests get colours without Monaco's JSON language service and its worker.
import type { languages } from 'monaco-editor/editor/editor.api';

/**
 * Monaco's own JSON support pulls in a 1.2 MB language service and a second worker for validation and
 * completion we do not need in a read-only viewer; highlighting is all we want.
 * Token names match the rules of the built-in `vs`/`vs-dark` themes (`string.key.json`, `string.value.json`).
 */
export const jsonMonarch: languages.IMonarchLanguage = {
  defaultToken: '',
  tokenPostfix: '.json',
  tokenizer: {
    root: [
      [/\s+/, ''],
      [/"(?:[^"\\]|\\.)*"(?=\s*:)/, 'string.key'],
      [/"(?:[^"\\]|\\.)*"/, 'string.value'],
      [/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/, 'number'],
      [/\b(?:true|false|null)\b/, 'keyword'],
      [/[{}[\]]/, '@brackets'],
      [/[,:]/, 'delimiter'],
    ],
  },
};

export const jsonConfiguration: languages.LanguageConfiguration = {
  brackets: [
    ['{', '}'],
    ['[', ']'],
  ],
  autoClosingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '"', close: '"', notIn: ['string'] },
  ],
};
