// Where a rendered Markdown link leads: https out through main's gate, a relative memory path into the app, else nowhere.
import { describe, expect, it } from 'vitest';
import { linkTarget } from '../../renderer/src/review/markdown-links';

describe('markdown link targets', () => {
  it('sends https links out and refuses other schemes', () => {
    expect(linkTarget('https://developers.openai.com/codex', 'MEMORY.md')).toEqual({
      type: 'external',
      url: 'https://developers.openai.com/codex',
    });
    expect(linkTarget('http://example.com', 'MEMORY.md')).toEqual({ type: 'none' });
    expect(linkTarget('javascript:alert(1)', 'MEMORY.md')).toEqual({ type: 'none' });
    expect(linkTarget('file:///etc/passwd', 'MEMORY.md')).toEqual({ type: 'none' });
    expect(linkTarget('https://user:pw@example.com', 'MEMORY.md')).toEqual({ type: 'none' });
  });

  it('resolves a relative path from the file folder, inside the root only', () => {
    expect(linkTarget('memory_summary.md', 'MEMORY.md')).toEqual({ type: 'memory', path: 'memory_summary.md' });
    expect(linkTarget('../MEMORY.md#tasks', 'rollout_summaries/a.md')).toEqual({ type: 'memory', path: 'MEMORY.md' });
    expect(linkTarget('./b.md', 'rollout_summaries/a.md')).toEqual({ type: 'memory', path: 'rollout_summaries/b.md' });
    expect(linkTarget('../../etc/passwd', 'rollout_summaries/a.md')).toEqual({ type: 'none' });
    expect(linkTarget('/etc/passwd', 'MEMORY.md')).toEqual({ type: 'none' });
    expect(linkTarget('#heading', 'MEMORY.md')).toEqual({ type: 'none' });
  });
});
