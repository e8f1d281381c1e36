// The Cursor provenance line: no volatile mtime for User Rules, and never in front of a file's front matter.
import { describe, expect, it } from 'vitest';
import { cursorProvenanceHeader } from '../../../electron/core/import';
import { withProvenanceHeader } from '../../../electron/core/import/plan-file';
import { parseFrontMatter } from '../../../electron/core/import/front-matter';

const H = '<!-- imported-from: cursor; source: /r/a.mdc; sha256: ab -->\n';

describe('Cursor provenance header', () => {
  it("leaves state.vscdb's mtime out of the User Rules header (Cursor rewrites the DB all the time)", () => {
    const header = cursorProvenanceHeader({ sourcePath: '/c/state.vscdb', mtimeMs: 1_700_000_000_000, sha256: 'ab', kind: 'user-rules' });
    expect(header).toBe('<!-- imported-from: cursor; source: /c/state.vscdb#aicontext.personalContext; sha256: ab -->\n');
    expect(cursorProvenanceHeader({ sourcePath: '/c/state.vscdb', mtimeMs: 1_800_000_000_000, sha256: 'ab', kind: 'user-rules' })).toBe(
      header,
    );
  });

  it('goes right after the closing --- of front matter, so the front matter stays at byte 0', () => {
    const rule = '---\ndescription: House style\nalwaysApply: false\n---\n\nUse named exports.\n';
    const out = withProvenanceHeader(rule, H);
    expect(out).toBe(`---\ndescription: House style\nalwaysApply: false\n---\n${H}\nUse named exports.\n`);
    expect(parseFrontMatter(out).description).toBe('House style');
    expect(withProvenanceHeader('---\r\na: 1\r\n...\r\nbody', H)).toBe(`---\r\na: 1\r\n...\r\n${H}body`);
    expect(withProvenanceHeader('---\na: 1\n---', H)).toBe(`---\na: 1\n---\n${H}`);
    expect(withProvenanceHeader('\ufeff---\na: 1\n---\nx', H)).toBe(`\ufeff---\na: 1\n---\n${H}x`);
  });

  it('goes first when there is no (closed) front matter', () => {
    expect(withProvenanceHeader('Legacy rules.\n', H)).toBe(`${H}Legacy rules.\n`);
    expect(withProvenanceHeader('---\nnever closed\n', H)).toBe(`${H}---\nnever closed\n`);
    expect(withProvenanceHeader('--- not a fence\n---\n', H)).toBe(`${H}--- not a fence\n---\n`);
    expect(withProvenanceHeader('', H)).toBe(H);
  });
});
