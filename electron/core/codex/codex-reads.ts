// Which root a new Codex session reads, and whether it reads any, from the parsed config.toml.
import type { CodexConfig, CodexReads } from '../../../shared/domain';

/**
 * Memory is injected only with `[features] memories` on (Codex's default is off: docs/codex-facts.md, Versions verified)
 * and `[memories] use_memories` true; the root is `memories.version`'s, else the default v2 (docs/codex-facts.md, What
 * the next session is told; Default memory version).
 */
export function codexReadsOf(config: CodexConfig): CodexReads {
  const { version, versionSource, useMemories } = config.memories;
  const off = config.featureMemories !== true ? 'feature-off' : useMemories ? null : 'use-memories-off';
  return { version, source: versionSource, off };
}
