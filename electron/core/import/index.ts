// Import of Claude Code and Cursor memory: detection, planning and the reviewed proposal (entry points).
export { CURSOR_KEY_PREFIX, CURSOR_USER_RULES_KEY, cursorRulesKey } from './cursor';
export { CUSTOM_KEY, KEY_ENCODING_NOTE, repoSettingKey } from './claude';
export { detectImport, discover, type ImportEnv } from './discover';
export { earlierImportsOf, type EarlierImports } from './earlier';
export { clearDraft, draftPath, readDraft, saveDraft } from './draft';
export { IMPORT_INSTRUCTIONS, IMPORT_INSTRUCTIONS_PATH, IMPORT_RESOURCES_DIR } from './instructions';
export { buildPlan, fileTextOf, forTransport, INLINE_TEXT_FILES, planImport, scopeJson } from './plan';
export { cursorProvenanceHeader } from './plan-file';
export { proposeImport } from './propose';
export { loadProvenance } from '../studio-db/provenance';
