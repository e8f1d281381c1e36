// The wizard's cwd field refuses a relative folder before it reaches the plan (the renderer has no node:path).
import { describe, expect, it } from 'vitest';
import { looksAbsolute } from '../../../renderer/src/import/cwd-path';

describe('cwd field', () => {
  it('takes POSIX and Windows-drive absolute paths, refuses relative ones', () => {
    expect(looksAbsolute('/home/me/app')).toBe(true);
    expect(looksAbsolute('C:\\Users\\me\\app')).toBe(true);
    expect(looksAbsolute('d:/src/app')).toBe(true);
    for (const rel of ['rel/dir', './app', '~/app', 'C:app', 'app']) expect(looksAbsolute(rel), rel).toBe(false);
  });
});
