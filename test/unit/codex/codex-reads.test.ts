// Which root a new Codex session reads, from config.toml, and the words every view uses for a root it does not read.
import { describe, expect, it } from 'vitest';
import { codexReadsOf } from '../../../electron/core/codex/codex-reads';
import { parseCodexConfig } from '../../../electron/core/codex/config';
import { notReadBadge } from '../../../shared/codex-reads';

const reads = (text: string) => codexReadsOf(parseCodexConfig(text, '/x/config.toml'));

describe('which root Codex reads', () => {
  it('is memories.version when config.toml sets it, and the other root is badged with that', () => {
    const v1 = reads('[features]\nmemories = true\n[memories]\nversion = "v1"\ndual_write = true\n');
    expect(v1).toEqual({ version: 'v1', source: 'config', off: null });
    expect(notReadBadge(v1, 'v1')).toBeNull();
    expect(notReadBadge(v1, 'v2')).toBe('not read by Codex (config: v1)');
  });

  it("is Codex's default v2 without a version line", () => {
    const v2 = reads('[features]\nmemories = true\n');
    expect(v2).toEqual({ version: 'v2', source: 'default', off: null });
    expect(notReadBadge(v2, 'v1')).toBe('not read by Codex (default: v2)');
  });

  it('is no root at all with the feature off or not set, or with use_memories = false', () => {
    expect(reads('')).toMatchObject({ off: 'feature-off' });
    expect(reads('[features]\nmemories = false\n')).toMatchObject({ off: 'feature-off' });
    const unused = reads('[features]\nmemories = true\n[memories]\nversion = "v1"\nuse_memories = false\n');
    expect(unused).toEqual({ version: 'v1', source: 'config', off: 'use-memories-off' });
    expect(notReadBadge(unused, 'v1')).toBe('not read by Codex (config: use_memories = false)');
    expect(notReadBadge(reads('[memories]\nversion = "v1"\n'), 'v1')).toBe('not read by Codex (config: memories feature off)');
  });
});
