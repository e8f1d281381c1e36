// Which Codex home and which data folder a host means: its flags, then the environment, then the defaults. Node
// built-ins only (codex/home-path and ../data-dir): the CLI's keeper client loads this before anything else.
export { expandHome, resolveCodexHome, type HomeChoice } from '../../codex/home-path';
export { resolveDataDir } from '../data-dir';
