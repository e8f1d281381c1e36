// The settings a host sets from its own flags, never from a page (they decide what runs and where memory text goes):
// the consolidation engine and hybrid search's embeddings endpoint, kept in the data folder.
export { loadEngineSettings, mergeDefaults, normalizeEngineSettings, saveEngineSettings } from '../../consolidate/engine-settings';
export { verifyCodexCli } from '../../consolidate/trusted-settings';
export { loadEmbeddingsSettings, normalizeEmbeddingsSettings, saveEmbeddingsSettings } from '../../embeddings/settings';
