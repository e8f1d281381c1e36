// The empty state's config.toml lines: the keys Codex reads (docs/codex-facts.md), only while memories are off.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MemoriesConfigHint, memoriesConfigLines } from '../../renderer/src/main-pane/memories-config-hint';
import type { HomeInfo } from '../../shared/domain';

const reads = (off: HomeInfo['codexReads']['off']): HomeInfo['codexReads'] => ({ version: 'v2', source: 'default', off });

describe('memories config hint', () => {
  it('gives the lines for the state config.toml is in, and none when memories are on', () => {
    expect(memoriesConfigLines({ codexReads: reads('feature-off') })).toBe('[features]\nmemories = true\n');
    expect(memoriesConfigLines({ codexReads: reads('use-memories-off') })).toBe('[memories]\nuse_memories = true\n');
    expect(memoriesConfigLines({ codexReads: reads(null) })).toBeNull();
  });

  it('names the file to create when there is none', () => {
    const config = { path: '/tmp/h/config.toml', exists: false, featureMemories: null } as HomeInfo['config'];
    render(<MemoriesConfigHint home={{ codexReads: reads('feature-off'), config }} />);
    expect(screen.getByTestId('memories-config-hint').textContent).toContain('create /tmp/h/config.toml with these lines');
    expect(screen.getByTestId('memories-config-lines').textContent).toBe('[features]\nmemories = true\n');
  });
});
